package dev.sieve.frontier.local;

import dev.sieve.frontier.Lease;
import dev.sieve.frontier.spill.PendingCodec;
import dev.sieve.frontier.spill.PendingQueue;
import dev.sieve.frontier.spill.PendingStore;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The saved form of a {@link LocalFrontier}'s schedule: magic and version, the counters of dropped
 * URLs, per host its admitted count, skip flag and delay, the in-flight leases, the pending URLs
 * ({@link PendingStore#writeState}), and the magic again as an end marker. Timing (delays in
 * progress, Retry-After) is not saved: a restored frontier finds every host ready. Then (version
 * 2) the URLs waiting to be recrawled, each as an in-flight lease is and its wall-clock due time
 * in epoch milliseconds, before the end marker.
 */
final class Snapshot {
  private static final int MAGIC = 0x53465254; // "SFRT"
  /** 2 adds the URLs waiting to be recrawled; a version 1 state reads back with none. */
  private static final int VERSION = 2;

  private Snapshot() {}

  /** Writes {@code schedule}; the caller holds the frontier's lock. */
  static void write(HostSchedule schedule, DataOutputStream out) throws IOException {
    out.writeInt(MAGIC);
    out.writeInt(VERSION);
    out.writeLong(schedule.droppedByHostBudget.get());
    out.writeLong(schedule.droppedBySkippedHost.get());
    out.writeInt(schedule.hosts.size());
    for (HostQueue host : schedule.hosts.values()) {
      out.writeUTF(host.key);
      out.writeLong(host.admitted);
      out.writeBoolean(host.skipped);
      out.writeLong(host.delayNanos);
    }
    out.writeLong(schedule.inFlight);
    for (Map.Entry<Lease, Integer> entry : schedule.leased.entrySet()) {
      byte[] bytes = PendingCodec.encode(entry.getKey());
      for (int i = 0; i < entry.getValue(); i++) {
        out.writeUTF(entry.getKey().hostKey());
        out.writeInt(bytes.length);
        out.write(bytes);
      }
    }
    schedule.store.writeState(out);
    List<Recrawl.Due> waiting = schedule.recrawl.all();
    out.writeInt(waiting.size());
    for (Recrawl.Due due : waiting) {
      byte[] bytes = PendingCodec.encode(due.lease());
      out.writeUTF(due.lease().hostKey());
      out.writeInt(bytes.length);
      out.write(bytes);
      out.writeLong(due.dueMillis());
    }
    out.writeInt(MAGIC);
  }

  /** What {@link #read} found: the schedule, and the leases that were out, in order. */
  record Restored(HostSchedule schedule, List<Lease> leasedOut) {}

  /**
   * Reads a schedule written by {@link #write}.
   *
   * @param newSchedule makes an empty schedule over the pending URLs read back
   * @throws IOException naming what is malformed, or the spill file missing or short
   */
  static Restored read(DataInputStream in, Path spillDir, long pendingMemoryBytes, long segmentBytes,
      java.util.function.Function<PendingStore, HostSchedule> newSchedule) throws IOException {
    int magic = in.readInt();
    if (magic != MAGIC) {
      throw new IOException(String.format(
          "frontier state: bad magic %08x, expected %08x (not a frontier state?)", magic, MAGIC));
    }
    int version = in.readInt();
    if (version != VERSION && version != 1) {
      throw new IOException("frontier state: version " + version + " is not " + VERSION);
    }
    long droppedByBudget = in.readLong();
    long droppedBySkip = in.readLong();
    int hostCount = in.readInt();
    if (hostCount < 0) {
      throw new IOException("frontier state: host count " + hostCount + " is negative");
    }
    Map<String, long[]> saved = new HashMap<>();
    for (int i = 0; i < hostCount; i++) {
      String key = in.readUTF();
      long admitted = in.readLong();
      boolean skipped = in.readBoolean();
      long delay = in.readLong();
      saved.put(key, new long[] {admitted, skipped ? 1 : 0, delay});
    }
    List<Lease> inFlight = readLeases(in);
    PendingStore store = PendingStore.readState(in, spillDir, pendingMemoryBytes, segmentBytes);
    List<long[]> dueMillis = new ArrayList<>();
    List<Lease> waiting = version == 1 ? List.of() : readWaiting(in, dueMillis);
    if (in.readInt() != MAGIC) {
      throw new IOException("frontier state: no end marker after the pending URLs");
    }
    HostSchedule schedule = newSchedule.apply(store);
    schedule.droppedByHostBudget.set(droppedByBudget);
    schedule.droppedBySkippedHost.set(droppedBySkip);
    long defaultDelay = schedule.politeness.delayNanos();
    for (PendingQueue queue : store.queues()) {
      HostQueue host = new HostQueue(queue.key(), defaultDelay, queue);
      long[] values = saved.get(queue.key());
      if (values == null) {
        throw new IOException("frontier state: host '" + queue.key() + "' has pending URLs but no"
            + " record");
      }
      host.admitted = values[0];
      host.skipped = values[1] != 0;
      host.delayNanos = Math.max(defaultDelay, values[2]);
      schedule.hosts.put(host.key, host);
    }
    if (schedule.hosts.size() != saved.size()) {
      throw new IOException("frontier state: " + saved.size() + " host records but "
          + schedule.hosts.size() + " host queues");
    }
    for (Lease lease : inFlight) {
      if (!schedule.hosts.containsKey(lease.hostKey())) {
        throw new IOException("frontier state: in-flight lease of unknown host '"
            + lease.hostKey() + "'");
      }
    }
    long now = schedule.now();
    for (int i = 0; i < waiting.size(); i++) {
      schedule.recrawl.restore(waiting.get(i), dueMillis.get(i)[0], now);
    }
    return new Restored(schedule, inFlight);
  }

  /** The URLs waiting to be recrawled, their due times into {@code dueMillis}. */
  private static List<Lease> readWaiting(DataInputStream in, List<long[]> dueMillis)
      throws IOException {
    int count = in.readInt();
    if (count < 0) {
      throw new IOException("frontier state: recrawl count " + count + " is negative");
    }
    List<Lease> waiting = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      waiting.add(readLease(in, "recrawled URL"));
      dueMillis.add(new long[] {in.readLong()});
    }
    return waiting;
  }

  private static List<Lease> readLeases(DataInputStream in) throws IOException {
    long leaseCount = in.readLong();
    if (leaseCount < 0 || leaseCount > Integer.MAX_VALUE) {
      throw new IOException("frontier state: in-flight count " + leaseCount + " is out of range");
    }
    List<Lease> inFlight = new ArrayList<>();
    for (long i = 0; i < leaseCount; i++) {
      inFlight.add(readLease(in, "in-flight lease"));
    }
    return inFlight;
  }

  /** A host key, then a lease's length and {@link PendingCodec} bytes; {@code what} names it. */
  private static Lease readLease(DataInputStream in, String what) throws IOException {
    String key = in.readUTF();
    int length = in.readInt();
    if (length < 0 || length > (1 << 24)) {
      throw new IOException("frontier state: " + what + " of " + length + " bytes");
    }
    byte[] bytes = new byte[length];
    in.readFully(bytes);
    try {
      return PendingCodec.decode(bytes, key);
    } catch (RuntimeException e) {
      throw new IOException("frontier state: " + what + " of host '" + key + "' is malformed");
    }
  }
}
