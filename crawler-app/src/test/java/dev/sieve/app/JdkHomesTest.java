package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fake JDK homes in a temp dir, each a release file and an executable bin/java. */
class JdkHomesTest {
  @TempDir Path dir;

  @Test
  void newest_picksTheHighestReleaseAtLeastTheMinimum() throws Exception {
    Path jvm = dir.resolve("jvm");
    Path jdk17 = jdk(jvm, "java-17-openjdk-amd64", "JAVA_VERSION=\"17.0.15\"");
    Path jdk24 = jdk(jvm, "jdk-24", "IMPLEMENTOR=\"x\"\nJAVA_VERSION=\"24.0.2\"");
    Path jdk25 = jdk(jvm, "temurin-25-jdk-amd64", "JAVA_VERSION=\"25.0.3\"");
    Path jdk2501 = jdk(jvm, "jdk-25.0.1", "JAVA_VERSION=\"25.0.1\"");

    assertThat(JdkHomes.newest(List.of(jdk17, jdk24, jdk25, jdk2501), 24)).isEqualTo(jdk25);
    assertThat(JdkHomes.newest(List.of(jdk2501, jdk24, jdk17), 24)).isEqualTo(jdk2501);
    assertThat(JdkHomes.newest(List.of(jdk17), 24)).isNull();
    assertThat(JdkHomes.newest(List.of(), 24)).isNull();
  }

  @Test
  void newest_skipsHomesWithoutAJavaOrAReadableVersion() throws Exception {
    Path jvm = dir.resolve("jvm");
    Path noJava = Files.createDirectories(jvm.resolve("jre-26"));
    Files.writeString(noJava.resolve("release"), "JAVA_VERSION=\"26\"\n");
    Path garbled = jdk(jvm, "jdk-garbled", "JAVA_VERSION=\"twenty-six\"");
    Path noRelease = Files.createDirectories(jvm.resolve("openjdk-17"));
    Path jdk24 = jdk(jvm, "jdk-24", "JAVA_VERSION=\"24\"");

    assertThat(JdkHomes.newest(List.of(noJava, garbled, noRelease, jdk24), 24)).isEqualTo(jdk24);
    assertThat(JdkHomes.version(garbled)).isNull();
    assertThat(JdkHomes.version(noRelease)).isNull();
  }

  @Test
  void candidates_theOwnHomesSiblingsAndJavaHome_eachOnceByRealPath() throws Exception {
    Path jvm = dir.resolve("jvm");
    Path own = jdk(jvm, "java-17-openjdk-amd64", "JAVA_VERSION=\"17.0.15\"");
    Path jdk25 = jdk(jvm, "temurin-25-jdk-amd64", "JAVA_VERSION=\"25.0.3\"");
    Files.createSymbolicLink(jvm.resolve("java-1.17.0-openjdk-amd64"), own.getFileName());
    Files.writeString(jvm.resolve(".java-1.17.0-openjdk-amd64.jinfo"), "name=java-17\n");
    Path elsewhere = jdk(dir.resolve("opt"), "jdk-26", "JAVA_VERSION=\"26\"");

    List<Path> homes = JdkHomes.candidates(own, elsewhere.toString());

    assertThat(homes).containsExactlyInAnyOrder(own.toRealPath(), jdk25.toRealPath(), elsewhere.toRealPath());
    assertThat(JdkHomes.newest(homes, 24)).isEqualTo(elsewhere.toRealPath());
    assertThat(JdkHomes.candidates(own, " ")).containsExactlyInAnyOrder(own.toRealPath(), jdk25.toRealPath());
  }

  /** A JDK home {@code parent/name} with {@code release} holding {@code release} and an executable bin/java. */
  static Path jdk(Path parent, String name, String release) throws Exception {
    Path home = Files.createDirectories(parent.resolve(name));
    Files.writeString(home.resolve("release"), release + "\n");
    Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
    Files.writeString(java, "#!/bin/sh\necho \"$0\"\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    return home;
  }
}
