package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution {@code sieve-VERSION.tar.gz} as a user installs it: unpacked into a temporary
 * directory, {@code bin/sieve} run from another directory with only java on the PATH, and through
 * a (relative) symlink in a directory on the PATH.
 */
class DistributionIT {
  private static final Path DIST = Path.of(System.getProperty("sieve.dist", "target/sieve.tar.gz"));
  private static final Path JAVA_BIN = Path.of(System.getProperty("java.home"), "bin");

  @TempDir Path tmp;
  private Path home;
  private Path elsewhere;

  record Run(int exitCode, String stdout, String stderr) {}

  @BeforeEach
  void unpack() throws Exception {
    assertThat(DIST).as("the build wrote the distribution").isRegularFile();
    Path unpacked = Files.createDirectories(tmp.resolve("opt"));
    Run tar = run(unpacked, Map.of("PATH", "/usr/bin:/bin"), "tar", "xzf", DIST.toAbsolutePath().toString());
    assertThat(tar.exitCode).as(tar.stderr).isZero();
    try (Stream<Path> tops = Files.list(unpacked)) {
      List<Path> top = tops.toList();
      assertThat(top).as("one top directory").hasSize(1);
      home = top.get(0);
    }
    assertThat(home.getFileName().toString()).matches("sieve-\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
    elsewhere = Files.createDirectories(tmp.resolve("work"));
  }

  @Test
  void tarball_holdsLauncherJarConfigDocsManPagesCompletionAndLicense() {
    assertThat(home.resolve("bin/sieve")).isExecutable();
    assertThat(home.resolve("lib/crawler.jar")).isRegularFile();
    assertThat(home.resolve("lib/crawler-bench.jar")).isRegularFile();
    assertThat(home.resolve("config/crawler.properties")).isRegularFile();
    assertThat(home.resolve("README.md")).isRegularFile();
    assertThat(home.resolve("docs/crawl.md")).isRegularFile();
    assertThat(home.resolve("LICENSE")).content().contains("Apache License");
    assertThat(home.resolve("man/man1/sieve.1")).isRegularFile();
    assertThat(home.resolve("man/man1/sieve-crawl.1")).content().contains(".SH OPTIONS").contains("\\-\\-seeds");
    assertThat(home.resolve("completion/sieve.bash")).content().contains("crawl").contains("--max-pages");
    assertThat(home.resolve("completion/sieve.zsh")).content().contains("bashcompinit").contains("sieve.bash");
  }

  @Test
  void demo_fromAnotherDirectoryWithOnlyJavaOnThePath_exitsZero() throws Exception {
    Run demo = run(elsewhere, Map.of("PATH", JAVA_BIN.toString(), "JAVA_OPTS", "-Xmx512m"),
        home.resolve("bin/sieve").toString(), "demo");

    assertThat(demo.exitCode).as("exit code; stderr:%n%s", demo.stderr).isZero();
    assertThat(demo.stdout).contains("Demo site:")
        .contains("Crawl your own seeds: " + home.toRealPath().resolve("bin/sieve") + " crawl --seeds");
    try (Stream<Path> outputs = Files.list(elsewhere)) {
      Path output = outputs.filter(p -> p.getFileName().toString().startsWith("sieve-demo-")).findFirst()
          .orElseThrow(() -> new AssertionError("no sieve-demo-* directory in the working directory"));
      assertThat(output.resolve("crawl.jsonl")).isNotEmptyFile();
    }
  }

  @Test
  void crawlHelp_throughARelativeSymlinkOnThePath_printsTheOptions() throws Exception {
    Path onPath = Files.createDirectories(tmp.resolve("path"));
    Files.createSymbolicLink(onPath.resolve("sieve"), onPath.relativize(home.resolve("bin/sieve")));

    Run help = run(elsewhere, Map.of("PATH", onPath + ":" + JAVA_BIN + ":/usr/bin:/bin"),
        "/bin/sh", "-c", "sieve crawl --help");

    assertThat(help.exitCode).as(help.stderr).isZero();
    assertThat(help.stdout).contains("Usage: sieve crawl").contains("--seeds=FILE").contains("--max-pages");
  }

  @Test
  void benchHelp_findsTheBenchJarInLib_andWithoutItSaysSoInALine() throws Exception {
    Map<String, String> env = Map.of("PATH", JAVA_BIN.toString());
    Run help = run(elsewhere, env, home.resolve("bin/sieve").toString(), "bench", "--help");

    assertThat(help.exitCode).as(help.stderr).isZero();
    assertThat(help.stdout).contains("Usage: sieve bench").contains("vs-wget");
    assertThat(home.resolve("man/man1/sieve-bench-sieve.1")).content().contains("\\-\\-urls");

    Files.delete(home.resolve("lib/crawler-bench.jar"));
    Run without = run(elsewhere, env, home.resolve("bin/sieve").toString(), "bench", "sieve");
    assertThat(without.exitCode).isEqualTo(2);
    assertThat(without.stderr.strip())
        .isEqualTo("sieve bench: the benchmarks are not installed (no crawler-bench.jar beside crawler.jar)");
    assertThat(run(elsewhere, env, home.resolve("bin/sieve").toString(), "--help").stdout)
        .contains("crawl").doesNotContain("bench");
  }

  @Test
  void version_namesTheCommitOfTheCheckout() throws Exception {
    Run version = run(elsewhere, Map.of("PATH", JAVA_BIN.toString()), home.resolve("bin/sieve").toString(),
        "--version");

    assertThat(version.exitCode).as(version.stderr).isZero();
    assertThat(version.stdout.strip())
        .matches("Sieve \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(commit ([0-9a-f]{12}(-dirty)?|unknown)\\)");
    Path checkout = Path.of(System.getProperty("sieve.home", ".."));
    Run head = run(checkout, Map.of("PATH", "/usr/bin:/bin"), "git", "rev-parse", "--short=12", "HEAD");
    if (head.exitCode == 0) {
      assertThat(version.stdout).contains("(commit " + head.stdout.strip());
    }
  }

  @Test
  void manPage_ofCrawl_showsWithManDashL() throws Exception {
    requireMan();
    Run man = run(elsewhere, Map.of("PATH", "/usr/bin:/bin", "MANWIDTH", "100"),
        "man", "-P", "cat", "-l", home.resolve("man/man1/sieve-crawl.1").toString());

    assertThat(man.exitCode).as(man.stderr).isZero();
    assertThat(man.stdout).contains("SIEVE-CRAWL(1)").contains("sieve crawl").contains("--max-pages N")
        .contains("default 1000");
  }

  private static void requireMan() {
    if (Files.isExecutable(Path.of("/usr/bin/man"))) {
      return;
    }
    String message = "man is not installed (apt-get install -y man-db; .ci/run does)";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      Assertions.fail(message);
    }
    Assumptions.abort(message + "; skipped because CI is not set");
  }

  /** Runs a command in {@code dir} with only the given environment, stdin from /dev/null. */
  private Run run(Path dir, Map<String, String> env, String... command) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder.environment().clear();
    builder.environment().putAll(env);
    Path out = Files.createTempFile(tmp, "run", ".out");
    Path err = Files.createTempFile(tmp, "run", ".err");
    Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!process.waitFor(180, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("did not finish in 180 s: " + String.join(" ", command));
    }
    return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
  }
}
