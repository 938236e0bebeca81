package dev.sieve.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The ahead-of-time cache {@code crawler.aot} (JEP 483 and 515: classes loaded and linked, method
 * profiles) that {@link StartupArchive} makes beside the jar when a Java 24 or later is at hand,
 * and {@code crawler.aot.java}, naming the java and the jar it was made for: the launcher uses it
 * when the java it runs ({@code JAVA}, else the {@code PATH}'s) is that one, and otherwise runs
 * no other java for it (docs/benchmarks.md, Startup). The java is the one named by the system
 * property {@code sieve.aot.java} (the pom passes {@code -Dsieve.aot.java=...}), else by the
 * environment variable {@code SIEVE_AOT_JAVA} (a java executable or a JDK's home; {@code none}
 * for no cache), else the newest Java 24 or later among the JDKs installed beside the build's own
 * ({@link JdkHomes}); with none there is no cache, and the build needs no Java 24. Two JVMs make
 * it, in the two steps Java 24 and later all take: a training run ({@code -XX:AOTMode=record})
 * of {@code demo} on a generated site, then {@code -XX:AOTMode=create}.
 */
final class AotCache {
  /** The first Java with an AOT cache (JEP 483). */
  static final int FIRST_RELEASE = 24;
  /**
   * Articles on the training run's demo site. With 1,000 (1,380 pages fetched) rather than the
   * class list's 300 (627 pages), JEP 515's method profiles cover more of a crawl's hot paths: a
   * fresh cppreference crawl took ~10% less CPU and a one-page crawl no more; with 3,000 the
   * one-page crawl took ~0.2 CPU-s more (docs/benchmarks.md, Startup).
   */
  static final int TRAINING_PAGES = 1000;
  /** The value of {@code sieve.aot.java} or {@code SIEVE_AOT_JAVA} that turns the cache off. */
  static final String NONE = "none";

  private AotCache() {}

  /**
   * The java to make the cache with, or null: {@code property} (the system property's value),
   * else {@code environment}, where a directory names a JDK's home and {@code none} no java; else
   * the java of the newest home of a Java 24 or later among {@code homes}.
   */
  static Path java(String property, String environment, List<Path> homes) {
    for (String named : new String[] {property, environment}) {
      if (named != null && !named.isBlank()) {
        if (named.trim().equalsIgnoreCase(NONE)) {
          return null;
        }
        Path path = Path.of(named.trim());
        return Files.isDirectory(path) ? path.resolve("bin").resolve("java") : path;
      }
    }
    Path home = JdkHomes.newest(homes, FIRST_RELEASE);
    return home == null ? null : home.resolve("bin").resolve("java");
  }

  /**
   * Makes {@code crawler.aot} and {@code crawler.aot.java} beside {@code jar} with {@code java},
   * training in {@code work}; on any failure deletes both and prints a one-line warning.
   */
  static void make(Path java, Path jar, Path work) throws IOException, InterruptedException {
    Path dir = jar.getParent();
    Path cache = dir.resolve("crawler.aot");
    Path madeWith = dir.resolve("crawler.aot.java");
    Files.deleteIfExists(cache);
    Files.deleteIfExists(madeWith);
    if (java == null) {
      return;
    }
    if (!Files.isExecutable(java)) {
      System.err.println("WARNING: no AOT cache: " + java + " (sieve.aot.java or SIEVE_AOT_JAVA) is not an executable");
      return;
    }
    Path log = dir.resolve("aot-training.log");
    Path configuration = work.resolve("crawler.aotconf");
    // The collector the launcher runs: the cache keeps what the training JVM set up for it.
    int trained = StartupArchive.run(log, java.toString(), "-XX:AOTMode=record", "-XX:AOTConfiguration=" + configuration,
        "-XX:+UseParallelGC", "-jar", jar.toString(), "demo", "--pages", String.valueOf(TRAINING_PAGES), "--output", work.resolve("aot-demo").toString());
    int created = trained != 0 ? trained : StartupArchive.run(dir.resolve("aot-create.log"), java.toString(),
        "-XX:AOTMode=create", "-XX:AOTConfiguration=" + configuration, "-XX:AOTCache=" + cache, "-XX:+UseParallelGC",
        "-cp", jar.toString());
    if (created != 0 || !Files.isRegularFile(cache)) {
      Files.deleteIfExists(cache);
      System.err.println("WARNING: no AOT cache: " + java + (trained != 0 ? " -XX:AOTMode=record" : " -XX:AOTMode=create")
          + " exited " + created + " (it needs a Java 24 or later; see " + (trained != 0 ? log : dir.resolve("aot-create.log")) + ")");
      return;
    }
    Files.writeString(madeWith, java.toRealPath() + "\n" + jar.toRealPath() + "\n");
  }
}
