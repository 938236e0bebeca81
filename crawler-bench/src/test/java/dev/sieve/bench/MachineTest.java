package dev.sieve.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MachineTest {
  @TempDir Path dir;

  @Test
  void cpuModel_readsTheFirstModelNameOfCpuinfo() throws Exception {
    Path cpuinfo = dir.resolve("cpuinfo");
    Files.writeString(cpuinfo, "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\n"
        + "processor\t: 1\nmodel name\t: other\n");

    assertThat(Machine.cpuModel(cpuinfo)).isEqualTo("AMD EPYC 7B13");
  }

  @Test
  void cpuModel_noCpuinfo_isUnknown() {
    assertThat(Machine.cpuModel(dir.resolve("missing"))).isEqualTo("unknown CPU");
  }

  @Test
  void javaVersion_ofThisJava_namesItsVersion_andOfNoJava_isUnknown() {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    assertThat(Machine.javaVersion(java)).contains("version \"" + System.getProperty("java.version"));
    assertThat(Machine.javaVersion(dir.resolve("no-java").toString())).isEqualTo("unknown");
  }

  @Test
  void launcherJavaVersion_isThatOfTheJavaTheLauncherRuns() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    new JarOutputStream(Files.newOutputStream(dir.resolve("crawler.jar")), manifest).close();
    Path launcher = dir.resolve("sieve");
    Files.writeString(launcher, "#!/bin/sh\nexec '" + java + "' $JAVA_OPTS -jar '" + dir.resolve("crawler.jar") + "' \"$@\"\n");
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));

    assertThat(Machine.launcherJavaVersion(launcher.toString())).contains("version \"" + System.getProperty("java.version"));
    assertThat(Machine.describeLauncher(launcher.toString())).endsWith("(through " + launcher + ")");
    assertThat(Machine.launcherJavaVersion(dir.resolve("no-launcher").toString())).isEqualTo("unknown");
  }

  @Test
  void describe_namesCoresAndTheJavaRun() {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    assertThat(Machine.describe(java)).startsWith("Machine: ")
        .contains(Runtime.getRuntime().availableProcessors() + " cores")
        .endsWith("(" + java + ")");
  }

  @Test
  void here_namesCoresThisJavaAndItsHeap() {
    assertThat(Machine.here()).startsWith("Machine: " + Machine.cpuModel() + ", ")
        .contains(Runtime.getRuntime().availableProcessors() + " cores")
        .contains("; Java: " + System.getProperty("java.version") + " (")
        .endsWith(String.format(Locale.ROOT, "max heap %,d MiB",
            Runtime.getRuntime().maxMemory() >> 20));
  }
}
