package dev.sieve.frontier.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.FrontierListener;
import dev.sieve.frontier.FrontierSettings;
import dev.sieve.url.Url;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Output a checkpoint vouches for (the WARC archive) is synced before the checkpoint. */
class BeforeCheckpointTest {
  @TempDir Path dir;

  private Frontier open() {
    List<Url> seeds = List.of(Url.parse("http://127.0.0.1/").orElseThrow());
    FrontierSettings settings = FrontierSettings.builder()
        .state(dir, false, Duration.ofHours(1), 0)
        .build();
    return Frontiers.open(settings, seeds, FrontierListener.NONE);
  }

  @Test
  void end_finalCheckpoint_runsTheTaskFirst() {
    Frontier frontier = open();
    AtomicInteger synced = new AtomicInteger();
    frontier.beforeCheckpoint(synced::incrementAndGet);
    frontier.start();

    frontier.close();
    assertThat(frontier.end()).isEmpty();

    assertThat(synced).hasValue(1);
  }

  @Test
  void end_taskFails_finalCheckpointFailsWithItsMessage() {
    Frontier frontier = open();
    frontier.beforeCheckpoint(() -> {
      throw new IllegalStateException("cannot sync WARC file x.open: disk gone");
    });
    frontier.start();

    frontier.close();

    assertThat(frontier.end()).hasValueSatisfying(
        failure -> assertThat(failure).contains("cannot sync WARC file x.open: disk gone"));
  }
}
