package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.testing.RedisServers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BuildInfoTest {
  @TempDir Path dir;

  @Test
  void commitOf_aDirectoryOutsideGit_isUnknown() throws Exception {
    requireGit();

    assertThat(BuildInfo.commitOf(dir)).isEqualTo("unknown");
  }

  @Test
  void commitOf_aCheckout_isItsHeadAndDirtyWhenATrackedFileChanged() throws Exception {
    requireGit();
    git("init", "-q");
    Files.writeString(dir.resolve("a.txt"), "one\n");
    git("add", "a.txt");
    git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "first");
    String head = git("rev-parse", "--short=12", "HEAD");

    assertThat(BuildInfo.commitOf(dir)).matches("[0-9a-f]{12}").isEqualTo(head);
    Files.writeString(dir.resolve("untracked.txt"), "x\n");
    assertThat(BuildInfo.commitOf(dir)).as("untracked files do not count").isEqualTo(head);
    Files.writeString(dir.resolve("a.txt"), "two\n");
    assertThat(BuildInfo.commitOf(dir)).isEqualTo(head + "-dirty");
  }

  @Test
  void version_namesTheVersionAndCommitTheBuildWrote() {
    String[] version = new Main.Version().getVersion();

    assertThat(version).hasSize(1);
    assertThat(version[0]).matches("Sieve \\S+ \\(commit ([0-9a-f]{12}(-dirty)?|unknown)\\)");
  }

  private String git(String... args) throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>(List.of("git"));
    command.addAll(List.of(args));
    Process git = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(git.getInputStream().readAllBytes()).strip();
    assertThat(git.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(git.exitValue()).as(out).isZero();
    return out;
  }

  private static void requireGit() {
    if (RedisServers.onPath("git")) {
      return;
    }
    String message = "git is not on the PATH";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      Assertions.fail(message);
    }
    Assumptions.abort(message + "; skipped because CI is not set");
  }
}
