package dev.sieve.frontier.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.queue.IndexedHeap;
import dev.sieve.frontier.spill.PendingStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ReadyHeapTest {
  @Test
  void randomAddsRemovesAndPolls_alwaysYieldTheSoonestHost() {
    Random random = new Random(11);
    IndexedHeap<HostQueue> heap = HostSchedule.readyHeap();
    List<HostQueue> inLine = new ArrayList<>();
    List<HostQueue> all = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      all.add(new HostQueue("h" + i, 0, PendingStore.inMemory().queue("h" + i)));
    }
    for (int step = 0; step < 20_000; step++) {
      HostQueue host = all.get(random.nextInt(all.size()));
      int op = random.nextInt(3);
      if (op == 0 && !host.scheduled()) {
        host.readyAt = random.nextInt(1000);
        heap.add(host);
        inLine.add(host);
      } else if (op == 1 && host.scheduled()) {
        heap.remove(host);
        inLine.remove(host);
        assertThat(host.scheduled()).isFalse();
      } else if (op == 2 && !inLine.isEmpty()) {
        long soonest = inLine.stream().min(Comparator.comparingLong(h -> h.readyAt)).orElseThrow().readyAt;
        HostQueue first = heap.poll();
        assertThat(first.readyAt).isEqualTo(soonest);
        inLine.remove(first);
      }
      assertThat(heap.size()).isEqualTo(inLine.size());
    }
  }
}
