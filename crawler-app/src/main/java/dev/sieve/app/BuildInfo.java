package dev.sieve.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The version and the git commit this build was made from, as {@code sieve --version} prints them.
 * The build writes them at {@code process-classes} (crawler-app/pom.xml runs {@link #main}) into
 * the resource {@value #RESOURCE}; a build outside a git checkout, or without git, says
 * {@value #UNKNOWN}.
 */
public final class BuildInfo {
  static final String RESOURCE = "build.properties";
  static final String UNKNOWN = "unknown";
  private static final Properties BUILD = load();

  private BuildInfo() {}

  /** The project version, e.g. {@code 0.1.0-SNAPSHOT}; "dev" when no build wrote it. */
  static String version() {
    return BUILD.getProperty("version", "dev");
  }

  /** The commit, 12 hex digits, with "-dirty" when tracked files had changes; or "unknown". */
  static String commit() {
    return BUILD.getProperty("commit", UNKNOWN);
  }

  private static Properties load() {
    Properties properties = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      // an unreadable resource in our own jar: the values stay unknown
    }
    return properties;
  }

  /** Arguments: the classes directory, the version, the checkout; writes the resource there. */
  public static void main(String[] args) throws IOException, InterruptedException {
    Path file = Path.of(args[0], BuildInfo.class.getPackageName().replace('.', '/'), RESOURCE);
    Properties properties = new Properties();
    properties.setProperty("version", args[1]);
    properties.setProperty("commit", commitOf(Path.of(args[2])));
    Files.createDirectories(file.getParent());
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      properties.store(out, "written by the build (BuildInfo)");
    }
  }

  /** {@code git rev-parse} of HEAD in {@code checkout}, marked dirty when tracked files differ. */
  static String commitOf(Path checkout) throws InterruptedException {
    String head = git(checkout, "rev-parse", "--short=12", "--verify", "HEAD");
    if (head == null || !head.matches("[0-9a-f]{7,40}")) {
      return UNKNOWN;
    }
    String changes = git(checkout, "status", "--porcelain", "--untracked-files=no");
    return changes == null || changes.isEmpty() ? head : head + "-dirty";
  }

  /** The command's output, stripped, or null when git is missing, fails or takes over 30 s. */
  private static String git(Path dir, String... args) throws InterruptedException {
    String[] command = new String[args.length + 1];
    command[0] = "git";
    System.arraycopy(args, 0, command, 1, args.length);
    try {
      Process git = new ProcessBuilder(command).directory(dir.toFile())
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      byte[] out = git.getInputStream().readAllBytes();
      if (!git.waitFor(30, TimeUnit.SECONDS) || git.exitValue() != 0) {
        git.destroyForcibly();
        return null;
      }
      return new String(out, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return null;
    }
  }
}
