package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AotCacheTest {
  @TempDir Path dir;

  @Test
  void java_propertyFirst_thenEnvironment_thenNewestInstalledFrom24() throws Exception {
    Path jdk25 = jdk("temurin-25", "25.0.3");
    List<Path> homes = List.of(jdk("java-17", "17.0.15"), jdk25);

    assertThat(AotCache.java("/a/java", "/b/java", homes)).isEqualTo(Path.of("/a/java"));
    assertThat(AotCache.java("", "/b/java", homes)).isEqualTo(Path.of("/b/java"));
    assertThat(AotCache.java(null, " ", homes)).isEqualTo(jdk25.resolve("bin/java"));
    assertThat(AotCache.java(null, null, List.of(jdk("java-23", "23.0.2"), homes.get(0)))).isNull();
  }

  @Test
  void java_none_turnsTheCacheOffEvenWithAJava25Installed() throws Exception {
    List<Path> homes = List.of(jdk("temurin-25", "25.0.3"));

    assertThat(AotCache.java("none", null, homes)).isNull();
    assertThat(AotCache.java(null, "NONE", homes)).isNull();
    assertThat(AotCache.java("", "none", homes)).isNull();
  }

  @Test
  void java_aJdkHome_namesItsJava() throws Exception {
    Files.createDirectories(dir.resolve("bin"));

    assertThat(AotCache.java(dir.toString(), null, List.of())).isEqualTo(dir.resolve("bin/java"));
  }

  /** A fake JDK home under the temp dir: a release file and an executable bin/java. */
  private Path jdk(String name, String version) throws Exception {
    return JdkHomesTest.jdk(dir.resolve("jvm"), name, "JAVA_VERSION=\"" + version + "\"");
  }

  @Test
  void make_withoutAJava_leavesNoCacheBehind() throws Exception {
    Path jar = dir.resolve("crawler.jar");
    Files.writeString(dir.resolve("crawler.aot"), "stale");
    Files.writeString(dir.resolve("crawler.aot.java"), "stale");

    AotCache.make(null, jar, dir);

    assertThat(dir.resolve("crawler.aot")).doesNotExist();
    assertThat(dir.resolve("crawler.aot.java")).doesNotExist();
  }

  @Test
  void make_withAJavaBefore24_warnsAndLeavesNoCache() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    assumeTrue(Runtime.version().feature() < AotCache.FIRST_RELEASE, "this java makes a cache (the build's run covers it)");
    Path jar = dir.resolve("crawler.jar");
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "dev.sieve.app.Main");
    new JarOutputStream(Files.newOutputStream(jar), manifest).close();

    AotCache.make(java, jar, Files.createDirectory(dir.resolve("work")));

    assertThat(dir.resolve("crawler.aot")).doesNotExist();
    assertThat(dir.resolve("crawler.aot.java")).doesNotExist();
    assertThat(dir.resolve("aot-training.log")).content().contains("Unrecognized VM option 'AOTMode=record'");
  }
}
