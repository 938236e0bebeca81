package dev.sieve.frontier.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sieve.frontier.Lease;
import dev.sieve.frontier.Sieve;
import dev.sieve.frontier.local.LocalFrontierTest.FakeTicker;
import dev.sieve.testing.Damage;
import dev.sieve.url.Url;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The frontier with pending URLs spilled to disk, saved with writeState and restored. */
class LocalFrontierStateTest {
  private static final int HOSTS = 40;
  private static final int PER_HOST = 150;
  private static final long BUDGET = 32 << 10;

  private final FakeTicker ticker = new FakeTicker();
  @TempDir Path dir;

  @Test
  void writeStateThenRestore_tinyBudget_everyUrlOnceInHostOrderInFlightFirst() throws IOException {
    LocalFrontier frontier = spilling().build();
    Map<String, List<String>> pushed = new LinkedHashMap<>();
    for (int i = 0; i < PER_HOST; i++) {
      for (int h = 0; h < HOSTS; h++) {
        String url = "http://host" + h + ".example/page/" + i;
        assertThat(frontier.push(url(url), 0, null, null)).isTrue();
        pushed.computeIfAbsent("http://host" + h + ".example", k -> new ArrayList<>()).add(url);
      }
    }
    assertThat(frontier.stats().pendingDiskBytes()).as("most URLs spilled").isPositive();
    assertThat(frontier.stats().pendingMemoryBytes()).isLessThanOrEqualTo(BUDGET);
    assertThat(frontier.stats().bytesPerPendingUrl()).isPositive();
    Map<String, Lease> leased = new HashMap<>();
    for (int i = 0; i < 5; i++) {
      Lease lease = frontier.poll();
      leased.put(lease.hostKey(), lease);
    }
    String skipped =
        pushed.keySet().stream().filter(h -> !leased.containsKey(h)).findFirst().orElseThrow();
    frontier.skipHost(skipped);

    byte[] state = save(frontier);
    frontier.state().stateDurable();
    LocalFrontier restored = spilling().restore(in(state));

    assertThat(restored.stats().pending()).isEqualTo((long) HOSTS * PER_HOST - PER_HOST);
    assertThat(restored.stats().inFlight()).isZero();
    assertThat(restored.stats().hosts()).isEqualTo(HOSTS);
    assertThat(restored.stats().droppedBySkippedHost()).isEqualTo(PER_HOST);
    Map<String, List<String>> drained = drain(restored);
    pushed.remove(skipped);
    assertThat(drained).isEqualTo(pushed);
    leased.forEach((host, lease) ->
        assertThat(drained.get(host).get(0)).as("in flight first").isEqualTo(lease.url().toString()));
    assertThat(restored.isFinished()).isTrue();
  }

  @Test
  void restore_keepsHostBudgetsAndSkips() throws IOException {
    LocalFrontier frontier = spilling().maxUrlsPerHost(2).build();
    frontier.push(url("http://a.example/1"), 0, null, null);
    frontier.push(url("http://a.example/2"), 0, null, null);
    frontier.push(url("http://b.example/1"), 0, null, null);
    frontier.skipHost("http://b.example");

    LocalFrontier restored = spilling().maxUrlsPerHost(2).restore(in(save(frontier)));

    assertThat(restored.push(url("http://a.example/3"), 0, null, null)).isFalse();
    assertThat(restored.push(url("http://b.example/2"), 0, null, null)).isFalse();
    assertThat(restored.stats().droppedByHostBudget()).isEqualTo(1);
    assertThat(restored.stats().droppedBySkippedHost()).isEqualTo(2);
    assertThat(restored.stats().pending()).isEqualTo(2);
  }

  @Test
  void poll_segmentByteFlipped_failsNamingTheFile() throws IOException {
    LocalFrontier frontier = spilling().build();
    for (int i = 0; i < 2000; i++) {
      frontier.push(url("http://a.example/" + i), 0, null, null);
    }
    Path segment = segments().get(0);
    Damage.flipByte(segment, 30);

    assertThatThrownBy(() -> {
          for (Lease lease = frontier.poll(); lease != null; lease = frontier.poll()) {
            frontier.complete(lease, Map.of());
          }
        })
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(segment.toString())
        .hasMessageContaining("CRC32C mismatch");
    assertThat(frontier.isFinished()).isFalse();
  }

  @Test
  void restore_withoutSpillDirectory_refused() throws IOException {
    LocalFrontier frontier = spilling().build();
    for (int i = 0; i < 2000; i++) {
      frontier.push(url("http://a.example/" + i), 0, null, null);
    }
    byte[] state = save(frontier);

    assertThatThrownBy(() -> builder().restore(in(state)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("no spill directory");
  }

  @Test
  void restore_inMemoryFrontier_roundTrips() throws IOException {
    LocalFrontier frontier = builder().build();
    frontier.push(url("http://a.example/1"), 0, null, null);
    frontier.push(url("http://a.example/2"), 0, null, null);
    Lease first = frontier.poll();

    LocalFrontier restored = builder().restore(in(save(frontier)));

    assertThat(drain(restored).get("http://a.example"))
        .containsExactly(first.url().toString(), "http://a.example/2");
    assertThat(restored.stats().pendingDiskBytes()).isZero();
  }

  @Test
  void build_badSpillBudget_messageNamesTheValue() {
    assertThatThrownBy(() -> builder().spillTo(dir, 0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pendingMemoryBytes (0) must be > 0");
  }

  private LocalFrontierBuilder builder() {
    return LocalFrontier.builder(Sieve.create(100_000, 0.0001))
        .ticker(ticker)
        .politenessDelay(Duration.ZERO);
  }

  private LocalFrontierBuilder spilling() {
    return builder().spillTo(dir, BUDGET).segmentBytes(16 << 10);
  }

  /** Polls and completes until finished; URLs by host in the order leased. */
  private static Map<String, List<String>> drain(LocalFrontier frontier) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    Set<String> seen = new HashSet<>();
    for (Lease lease = frontier.poll(); lease != null; lease = frontier.poll()) {
      assertThat(seen.add(lease.url().toString())).as("leased once: %s", lease.url().toString()).isTrue();
      out.computeIfAbsent(lease.hostKey(), k -> new ArrayList<>()).add(lease.url().toString());
      frontier.complete(lease, Map.of());
    }
    return out;
  }

  private static byte[] save(LocalFrontier frontier) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      frontier.state().writeState(out);
    }
    return bytes.toByteArray();
  }

  private static DataInputStream in(byte[] state) {
    return new DataInputStream(new ByteArrayInputStream(state));
  }

  private List<Path> segments() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(".seg")).sorted().toList();
    }
  }

  private static Url url(String url) {
    return Url.parse(url).orElseThrow();
  }
}
