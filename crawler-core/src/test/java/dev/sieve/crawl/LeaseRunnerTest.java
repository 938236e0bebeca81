package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.Lease;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** How leases are handed to threads. */
class LeaseRunnerTest {
  private static Lease lease(String path) {
    return new Lease(Lease.stored("http://a.example/" + path), 0, "a.example", 0, List.of());
  }

  /** A source with one lease to wait for and then leases that are ready at once. */
  private static final class Source implements LeaseRunner.Source {
    private final Deque<Lease> waited = new ArrayDeque<>();
    private final Deque<Lease> ready = new ArrayDeque<>();

    @Override
    public synchronized Lease next() {
      return waited.poll();
    }

    @Override
    public synchronized Lease poll() {
      return ready.poll();
    }
  }

  @Test
  void run_leasesReadyWhenOneIsDone_runOnTheSameThreadInOrder() throws InterruptedException {
    Source source = new Source();
    source.waited.add(lease("a"));
    source.ready.addAll(List.of(lease("b"), lease("c")));
    List<String> ran = new ArrayList<>();
    List<String> threads = new ArrayList<>();

    new LeaseRunner(4).run(source, lease -> {
      synchronized (ran) {
        ran.add(lease.url().toString());
        threads.add(Thread.currentThread().getName());
      }
    }, () -> false, Duration.ofSeconds(5));

    assertThat(ran).containsExactly("http://a.example/a", "http://a.example/b", "http://a.example/c");
    assertThat(threads).containsOnly(threads.get(0));
  }

  @Test
  void run_stopping_takesNoFurtherReadyLease() throws InterruptedException {
    Source source = new Source();
    source.waited.add(lease("a"));
    source.ready.add(lease("b"));
    AtomicBoolean stopping = new AtomicBoolean();
    List<String> ran = new ArrayList<>();

    new LeaseRunner(4).run(source, lease -> {
      synchronized (ran) {
        ran.add(lease.url().toString());
      }
      stopping.set(true);
    }, stopping::get, Duration.ofSeconds(5));

    assertThat(ran).containsExactly("http://a.example/a");
    assertThat(source.ready).hasSize(1);
  }
}
