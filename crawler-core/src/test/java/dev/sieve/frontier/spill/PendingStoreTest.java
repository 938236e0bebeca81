package dev.sieve.frontier.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sieve.frontier.Lease;
import dev.sieve.testing.Damage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PendingStoreTest {
  private static final long BUDGET = 64 << 10;
  private static final long SEGMENT = 16 << 10;

  @TempDir Path dir;

  @Test
  void randomAddsAndPolls_tinyBudget_keepEachHostsOrderWithinTheBudget() throws IOException {
    PendingStore store = PendingStore.spilling(dir, BUDGET, SEGMENT);
    Random random = new Random(5);
    List<PendingQueue> queues = new ArrayList<>();
    List<ArrayDeque<Lease>> expected = new ArrayList<>();
    for (int h = 0; h < 20; h++) {
      queues.add(store.queue("host" + h + ".example"));
      expected.add(new ArrayDeque<>());
    }
    long seq = 0;
    long maxDisk = 0;
    for (int step = 0; step < 40_000; step++) {
      int h = random.nextInt(queues.size());
      int op = random.nextInt(10);
      if (op < 5) {
        Lease lease = lease(h, seq++, random.nextInt(3));
        queues.get(h).addLast(lease);
        expected.get(h).addLast(lease);
      } else if (op < 9) {
        assertThat(queues.get(h).pollFirst()).isEqualTo(expected.get(h).pollFirst());
      } else {
        Lease lease = lease(h, seq++, 0);
        queues.get(h).addFirst(lease);
        expected.get(h).addFirst(lease);
      }
      store.enforceBudget();
      assertThat(store.memoryBytes()).isLessThanOrEqualTo(BUDGET);
      maxDisk = Math.max(maxDisk, store.diskBytes());
    }
    assertThat(store.spills()).isGreaterThan(10);
    assertThat(maxDisk).isGreaterThan(2 * SEGMENT);
    long total = expected.stream().mapToLong(ArrayDeque::size).sum();
    assertThat(store.size()).isEqualTo(total);

    for (int h = 0; h < queues.size(); h++) {
      while (!expected.get(h).isEmpty()) {
        assertThat(queues.get(h).pollFirst()).isEqualTo(expected.get(h).pollFirst());
      }
      assertThat(queues.get(h).pollFirst()).isNull();
    }
    assertThat(store.size()).isZero();
    assertThat(store.diskBytes()).as("drained segments are deleted").isZero();
    assertThat(segmentFiles()).isEmpty();
  }

  @Test
  void pollFirst_corruptChunk_failsNamingTheFileAndOffsetEveryTime() throws IOException {
    PendingStore store = PendingStore.spilling(dir, 8 << 10, SEGMENT);
    PendingQueue queue = store.queue("host0.example");
    for (int i = 0; i < 500; i++) {
      queue.addLast(lease(0, i, 0));
      store.enforceBudget();
    }
    assertThat(queue.runCount()).isPositive();
    Path segment = segmentFiles().get(0);
    Damage.flipByte(segment, 100);

    assertThatThrownBy(queue::pollFirst)
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(segment.toString())
        .hasMessageContaining("offset 0")
        .hasMessageContaining("CRC32C mismatch")
        .hasCauseInstanceOf(IOException.class);
    assertThatThrownBy(queue::pollFirst).hasMessageContaining("CRC32C mismatch");
    assertThat(queue.size()).isEqualTo(500);
  }

  @Test
  void pollFirst_truncatedSegment_failsAsShortRead() throws IOException {
    PendingStore store = PendingStore.spilling(dir, 8 << 10, SEGMENT);
    PendingQueue queue = store.queue("host0.example");
    for (int i = 0; i < 500; i++) {
      queue.addLast(lease(0, i, 0));
      store.enforceBudget();
    }
    Path segment = segmentFiles().get(0);
    try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
      file.setLength(10);
    }

    assertThatThrownBy(queue::pollFirst)
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(segment.toString())
        .hasMessageContaining("short read");
  }

  @Test
  void writeState_keepsReferencedSegmentsUntilALaterStateIsDurable() throws IOException {
    PendingStore store = PendingStore.spilling(dir, 8 << 10, SEGMENT);
    PendingQueue queue = store.queue("host0.example");
    for (int i = 0; i < 500; i++) {
      queue.addLast(lease(0, i, 0));
      store.enforceBudget();
    }
    List<Path> spilled = segmentFiles();
    assertThat(spilled).isNotEmpty();
    byte[] first = state(store);

    drain(queue);
    assertThat(segmentFiles()).as("written, not yet durable").containsAll(spilled);
    store.stateDurable();
    assertThat(segmentFiles()).as("the durable state refers to them").containsAll(spilled);
    state(store);
    assertThat(segmentFiles()).as("a newer state is not durable yet").containsAll(spilled);
    store.stateDurable();
    assertThat(segmentFiles()).isEmpty();
    assertThat(store.diskBytes()).isZero();
    assertThat(first).isNotEmpty();
  }

  @Test
  void readState_restoresOrderAndKeepsTheSegmentsOfTheState() throws IOException {
    PendingStore store = PendingStore.spilling(dir, 8 << 10, SEGMENT);
    PendingQueue a = store.queue("host0.example");
    PendingQueue b = store.queue("host1.example");
    List<Lease> expectedA = new ArrayList<>();
    List<Lease> expectedB = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      Lease la = lease(0, i, i % 3);
      Lease lb = lease(1, i, 0);
      a.addLast(la);
      b.addLast(lb);
      expectedA.add(la);
      expectedB.add(lb);
      store.enforceBudget();
    }
    a.pollFirst();
    expectedA.remove(0);
    byte[] state = state(store);
    store.stateDurable();

    PendingStore restored = readState(state);
    assertThat(restored.size()).isEqualTo(799);
    assertThat(restored.queues()).extracting(PendingQueue::key).containsExactly("host0.example", "host1.example");
    assertThat(drain(restored.queues().get(0))).containsExactlyElementsOf(expectedA);
    assertThat(drain(restored.queues().get(1))).containsExactlyElementsOf(expectedB);
    assertThat(segmentFiles()).as("kept for the durable state").isNotEmpty();
  }

  @Test
  void readState_missingSegment_failsNamingTheFile() throws IOException {
    PendingStore store = PendingStore.spilling(dir, 8 << 10, SEGMENT);
    PendingQueue queue = store.queue("host0.example");
    for (int i = 0; i < 500; i++) {
      queue.addLast(lease(0, i, 0));
      store.enforceBudget();
    }
    byte[] state = state(store);
    Path segment = segmentFiles().get(0);
    Files.delete(segment);

    assertThatThrownBy(() -> readState(state))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(segment.toString())
        .hasMessageContaining("missing");
  }

  @Test
  void readState_notAState_failsWithAMessage() {
    byte[] junk = {1, 2, 3, 4, 5, 6, 7, 8};
    assertThatThrownBy(() -> readState(junk))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("bad magic");
  }

  @Test
  void spilling_badBudget_messageNamesTheValue() {
    assertThatThrownBy(() -> PendingStore.spilling(dir, 0))
        .hasMessage("pendingMemoryBytes (0) must be > 0");
  }

  @Test
  void spilling_leftoverSegments_deleted() throws IOException {
    Files.write(dir.resolve("pending-00000007.seg"), new byte[] {1});
    Files.write(dir.resolve("notes.txt"), new byte[] {1});

    PendingStore.spilling(dir, BUDGET);

    assertThat(segmentFiles()).isEmpty();
    assertThat(dir.resolve("notes.txt")).exists();
  }

  private static Lease lease(int host, long seq, int hops) {
    List<String> chain = new ArrayList<>();
    for (int i = 0; i < hops; i++) {
      chain.add("http://host" + host + ".example/redirect/" + seq + "/" + i);
    }
    return new Lease(Lease.stored("http://host" + host + ".example/page/" + seq), (int) (seq % 7),
        "host" + host + ".example", 0, chain);
  }

  private static List<Lease> drain(PendingQueue queue) {
    List<Lease> out = new ArrayList<>();
    for (Lease lease = queue.pollFirst(); lease != null; lease = queue.pollFirst()) {
      out.add(lease);
    }
    return out;
  }

  private static byte[] state(PendingStore store) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      store.writeState(out);
    }
    return bytes.toByteArray();
  }

  private PendingStore readState(byte[] state) throws IOException {
    return PendingStore.readState(
        new DataInputStream(new ByteArrayInputStream(state)), dir, 8 << 10, SEGMENT);
  }

  private List<Path> segmentFiles() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".seg")).sorted().toList();
    }
  }

}
