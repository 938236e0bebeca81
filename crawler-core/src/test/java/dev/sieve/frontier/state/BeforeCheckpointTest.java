package dev.sieve.frontier.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.FrontierLifecycle;
import dev.sieve.frontier.FrontierSettings;
import dev.sieve.frontier.Frontiers;
import dev.sieve.frontier.OpenFrontier;
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

  private OpenFrontier open() {
    List<Url> seeds = List.of(Url.parse("http://127.0.0.1/").orElseThrow());
    FrontierSettings settings = FrontierSettings.builder()
        .seeds(seeds)
        .state(dir, false, Duration.ofHours(1), 0)
        .build();
    return Frontiers.open(settings);
  }

  @Test
  void end_finalCheckpoint_runsTheTaskFirst() {
    OpenFrontier opened = open();
    FrontierLifecycle state = opened.lifecycle().orElseThrow();
    AtomicInteger synced = new AtomicInteger();
    state.beforeCheckpoint(synced::incrementAndGet);
    state.start();

    opened.frontier().close();
    assertThat(state.end()).isEmpty();

    assertThat(synced).hasValue(1);
  }

  @Test
  void end_taskFails_finalCheckpointFailsWithItsMessage() {
    OpenFrontier opened = open();
    FrontierLifecycle state = opened.lifecycle().orElseThrow();
    state.beforeCheckpoint(() -> {
      throw new IllegalStateException("cannot sync WARC file x.open: disk gone");
    });
    state.start();

    opened.frontier().close();

    assertThat(state.end()).hasValueSatisfying(
        failure -> assertThat(failure).contains("cannot sync WARC file x.open: disk gone"));
  }
}
