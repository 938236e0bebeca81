package dev.sieve.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Build step run at {@code package} (see crawler-app/pom.xml): makes the class-data-sharing
 * archive {@code crawler.jsa} next to {@code crawler.jar}, names the java and the jar it was made
 * for in {@code crawler.jsa.java} (JDK 17 ignores an archive whose jar has moved, and then shares
 * none of the JDK's classes either), and copies the launcher {@code sieve} (crawler-app/src/main/sh/sieve),
 * which runs the jar with the archive when it runs that java. A fresh JVM then maps the ~4,000 classes a crawl loads (Logback, picocli,
 * OkHttp, Jsoup, Jackson, the crawler's own) already parsed and verified instead of loading them
 * from the jar one by one.
 *
 * <p>The archive is made in two JVMs: a training run ({@code demo} on a small generated site,
 * which crawls as {@code crawl} does) lists the classes it loads, then {@code -Xshare:dump}
 * archives them. JDK 17 crashes while dumping a lambda whose types include a class it cannot
 * archive (picocli is compiled for Java 5, which CDS skips), so those lambdas are left out of the
 * list. Any failure leaves a launcher without the archive and a one-line warning, never a failed
 * build: the archive only saves time. A JVM that does not match the archive (another JDK, a jar
 * rebuilt since) ignores it silently ({@code -Xshare:auto}). Then, when a Java 24 or later is at
 * hand (named, or the newest installed beside the build's own), the ahead-of-time cache for it
 * ({@link AotCache}).
 */
public final class StartupArchive {
  private StartupArchive() {}

  /**
   * Arguments: the jar, the launcher script; writes {@code crawler.jsa}, {@code crawler.jsa.java},
   * {@code sieve} and logs beside the jar.
   */
  public static void main(String[] args) throws IOException, InterruptedException {
    Path jar = Path.of(args[0]).toAbsolutePath();
    Path dir = jar.getParent();
    Path archive = dir.resolve("crawler.jsa");
    Path madeWith = dir.resolve("crawler.jsa.java");
    Files.deleteIfExists(archive);
    Files.deleteIfExists(madeWith);
    Path work = Files.createTempDirectory(dir, "cds-training");
    try {
      Path classList = work.resolve("classes.lst");
      Path log = dir.resolve("cds-training.log");
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      int trained = run(log, java, "-XX:DumpLoadedClassList=" + classList, "-jar", jar.toString(),
          "demo", "--pages", "300", "--output", work.resolve("demo").toString());
      if (trained != 0 || !Files.isRegularFile(classList)) {
        System.err.println("WARNING: no class-data-sharing archive: the training run exited " + trained
            + " (see " + log + ")");
      } else {
        Path archivable = work.resolve("archivable.lst");
        Files.write(archivable, archivable(Files.readAllLines(classList)));
        int dumped = run(dir.resolve("cds-dump.log"), java, "-Xshare:dump",
            "-XX:SharedClassListFile=" + archivable, "-XX:SharedArchiveFile=" + archive, "-cp", jar.toString());
        if (dumped != 0 || !Files.isRegularFile(archive)) {
          Files.deleteIfExists(archive);
          System.err.println("WARNING: no class-data-sharing archive: -Xshare:dump exited " + dumped
              + " (see " + dir.resolve("cds-dump.log") + ")");
        } else {
          Files.writeString(madeWith, Path.of(java).toRealPath() + "\n" + jar.toRealPath() + "\n");
        }
      }
      AotCache.make(AotCache.java(System.getProperty("sieve.aot.java"), System.getenv("SIEVE_AOT_JAVA"),
          JdkHomes.candidates(Path.of(System.getProperty("java.home")), System.getenv("JAVA_HOME"))), jar, work);
      copyLauncher(Path.of(args[1]), dir.resolve("sieve"));
    } finally {
      deleteTree(work);
    }
  }

  /** The class list without the lambdas JDK 17 cannot dump: those naming a picocli type. */
  static List<String> archivable(List<String> classList) {
    return classList.stream()
        .filter(line -> !(line.startsWith("@lambda-proxy") && line.contains("picocli/")))
        .collect(Collectors.toList());
  }

  private static void copyLauncher(Path script, Path launcher) throws IOException {
    Files.copy(script, launcher, StandardCopyOption.REPLACE_EXISTING);
    try {
      Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: the script is still there to read or run with sh
    }
  }

  static int run(Path log, String... command) throws IOException, InterruptedException {
    return new ProcessBuilder(command).directory(log.getParent().toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start().waitFor();
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(path);
      }
    }
  }
}
