package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher crawler-app/src/main/sh/sieve run by sh with a java that prints its arguments. */
class LauncherScriptTest {
  @TempDir Path dir;
  private Path java;

  @BeforeEach
  void launcherBesideAJarAndAJavaThatEchoes() throws IOException {
    Files.copy(Path.of("src/main/sh/sieve"), dir.resolve("sieve"));
    Files.writeString(dir.resolve("crawler.jar"), "");
    java = dir.resolve("java");
    Files.writeString(java, "#!/bin/sh\necho \"$@\"\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @Test
  void launcher_noJavaOpts_parallelCollectorWithASmallGrowingYoungGeneration() throws Exception {
    assertThat(run(Map.of())).startsWith("-XX:+UseParallelGC -XX:NewSize=32m -XX:GCTimeRatio=19 ")
        .endsWith("-jar " + dir.toRealPath().resolve("crawler.jar") + " crawl");
  }

  @Test
  void launcher_javaOptsSizingTheYoungGenerationOrNamingACollector_addsNoSizing() throws Exception {
    assertThat(run(Map.of("JAVA_OPTS", "-Xmn64m"))).doesNotContain("NewSize").contains("-XX:+UseParallelGC")
        .contains(" -Xmn64m -jar");
    assertThat(run(Map.of("JAVA_OPTS", "-XX:+UseG1GC"))).doesNotContain("NewSize").doesNotContain("Parallel");
    assertThat(run(Map.of("JAVA_OPTS", "-Xmx2g"))).contains("-XX:NewSize=32m").contains(" -Xmx2g -jar");
  }

  @Test
  void launcher_aotCacheMadeForThisJavaAndJar_isUsed_elseTheArchiveForItsJava() throws Exception {
    Files.writeString(dir.resolve("crawler.aot"), "");
    Files.writeString(dir.resolve("crawler.jsa"), "");
    Files.writeString(dir.resolve("crawler.jsa.java"), "/other/java\n" + dir.toRealPath().resolve("crawler.jar") + "\n");
    Files.writeString(dir.resolve("crawler.aot.java"), "/other/java\n" + dir.toRealPath().resolve("crawler.jar") + "\n");
    assertThat(run(Map.of())).doesNotContain("AOTCache").doesNotContain("SharedArchiveFile");

    Files.writeString(dir.resolve("crawler.jsa.java"), java.toRealPath() + "\n" + dir.toRealPath().resolve("crawler.jar") + "\n");
    assertThat(run(Map.of())).startsWith("-XX:SharedArchiveFile=" + dir.toRealPath().resolve("crawler.jsa"));

    Files.writeString(dir.resolve("crawler.aot.java"), java.toRealPath() + "\n" + dir.toRealPath().resolve("crawler.jar") + "\n");
    assertThat(run(Map.of())).startsWith("-XX:AOTCache=" + dir.toRealPath().resolve("crawler.aot") + " ")
        .doesNotContain("SharedArchiveFile");
  }

  @Test
  void launcher_javaUnset_runsThePathsJavaWithItsArchive_evenWithACacheMadeForAnotherJava() throws Exception {
    // A cache made with a newer java is no reason to run that java: Java 25 with the cache made a
    // fresh crawl cheaper and a long one dearer (docs/benchmarks.md, Startup item 6).
    Path made = fakeJava(dir.resolve("jdk-25/bin"), "jdk-25");
    Path onPath = fakeJava(dir.resolve("path"), "path-java");
    Files.writeString(dir.resolve("crawler.aot"), "");
    Files.writeString(dir.resolve("crawler.aot.java"), made.toRealPath() + "\n" + dir.toRealPath().resolve("crawler.jar") + "\n");
    Files.writeString(dir.resolve("crawler.jsa"), "");
    Files.writeString(dir.resolve("crawler.jsa.java"), onPath.toRealPath() + "\n" + dir.toRealPath().resolve("crawler.jar") + "\n");

    assertThat(runWithoutJava(onPath.getParent()))
        .startsWith("path-java -XX:SharedArchiveFile=" + dir.toRealPath().resolve("crawler.jsa") + " ")
        .doesNotContain("AOTCache");
    assertThat(run(Map.of("JAVA", made.toString()))).as("JAVA naming the cache's java gets the cache")
        .startsWith("jdk-25 -XX:AOTCache=" + dir.toRealPath().resolve("crawler.aot") + " -Xlog:aot*=off -Xlog:aot*=warning:stderr ")
        .endsWith("-jar " + dir.toRealPath().resolve("crawler.jar") + " crawl");
  }

  /** An executable {@code java} in {@code bin} that prints {@code name} and its arguments. */
  private static Path fakeJava(Path bin, String name) throws IOException {
    Path fake = Files.createDirectories(bin).resolve("java");
    Files.writeString(fake, "#!/bin/sh\necho " + name + " \"$@\"\n");
    Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
    return fake;
  }

  /** The launcher with JAVA unset and {@code pathDir} first on the PATH. */
  private String runWithoutJava(Path pathDir) throws Exception {
    return run(Map.of("PATH", pathDir + ":" + System.getenv("PATH")), false);
  }

  private String run(Map<String, String> environment) throws Exception {
    return run(environment, true);
  }

  private String run(Map<String, String> environment, boolean withJava) throws Exception {
    ProcessBuilder builder = new ProcessBuilder("sh", dir.resolve("sieve").toString(), "crawl").redirectErrorStream(true);
    builder.environment().remove("JAVA_OPTS");
    builder.environment().remove("JAVA");
    if (withJava) {
      builder.environment().put("JAVA", java.toString());
    }
    builder.environment().putAll(environment);
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(process.waitFor()).as(output).isZero();
    return output;
  }
}
