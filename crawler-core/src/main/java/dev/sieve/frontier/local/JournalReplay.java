package dev.sieve.frontier.local;

import dev.sieve.frontier.Lease;
import dev.sieve.frontier.Sieve;
import dev.sieve.frontier.spill.PendingCodec;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Brings a restored {@link LocalFrontier} up to the instant its process stopped: applies the
 * journals' records to its schedule, tracking the leases out by URL, then puts the URLs still out
 * first in their hosts' queues, to be fetched again — except those recorded before the crash
 * (asked of {@code recordedElsewhere}, or for a refetch of the frontier's {@link
 * Recrawl#recordedSince}), which are done and count as their records say. In a recrawl, the URLs
 * waiting to be due again are replayed too, keeping their wall-clock due times. Runs under the
 * frontier's lock, once.
 */
final class JournalReplay implements Journal.Replay {
  private final Sieve sieve;
  private final HostSchedule schedule;
  private final Map<String, Long> counts;
  /** The leases out, by URL: those saved with the state, then as the journals take and give. */
  private final Map<String, Lease> out = new LinkedHashMap<>();
  /** The URLs waiting to be due again, by URL: those saved with the state, then as journaled. */
  private final Map<String, Recrawl.Due> waiting = new LinkedHashMap<>();

  JournalReplay(Sieve sieve, HostSchedule schedule, Map<String, Long> counts, List<Lease> leasedOut) {
    this.sieve = sieve;
    this.schedule = schedule;
    this.counts = counts;
    for (Lease lease : leasedOut) {
      out.put(lease.url().toString(), lease);
    }
    for (Recrawl.Due due : schedule.recrawl.drain()) {
      waiting.put(due.lease().url().toString(), due);
    }
  }

  /**
   * Replays {@code journals} in order, then queues again the URLs still out and not recorded.
   *
   * @throws IOException if a journal is corrupt (its file and offset named)
   */
  void run(List<Path> journals, Function<Set<String>, Map<String, Map<String, Long>>> recordedElsewhere)
      throws IOException {
    for (Path journal : journals) {
      Journal.replay(journal, this);
    }
    long now = schedule.now();
    waiting.values().forEach(due -> schedule.recrawl.restore(due.lease(), due.dueMillis(), now));
    if (!out.isEmpty()) {
      // Recorded before the crash, though the completion was not journaled: done, not again.
      Map<String, Instant> refetches = new LinkedHashMap<>();
      out.values().stream().filter(lease -> lease.last() != null)
          .forEach(lease -> refetches.put(lease.url().toString(), lease.last().at()));
      Set<String> firsts = new HashSet<>(out.keySet());
      firsts.removeAll(refetches.keySet());
      Map<String, Map<String, Long>> recorded = new HashMap<>(
          firsts.isEmpty() ? Map.of() : recordedElsewhere.apply(Set.copyOf(firsts)));
      if (!refetches.isEmpty()) {
        recorded.putAll(schedule.recrawl.recordedSince.apply(refetches));
      }
      recorded.forEach((url, delta) -> {
        Lease done = out.remove(url);
        Counts.add(counts, delta);
        if (done != null && schedule.recrawl.enabled()) {
          schedule.recrawl.recordedAtCrash(done, now);
        }
      });
    }
    List<Lease> again = new ArrayList<>(out.values());
    for (int i = again.size() - 1; i >= 0; i--) {
      Lease lease = again.get(i);
      HostQueue host = schedule.host(lease.hostKey());
      if (host.skipped) {
        schedule.droppedBySkippedHost.incrementAndGet();
      } else {
        host.pending.addFirst(lease);
      }
    }
    schedule.rescheduleAll();
    schedule.store.enforceBudget();
  }

  @Override
  public void added(String hostKey, byte[] entry) {
    Lease lease = PendingCodec.decode(entry, hostKey);
    sieve.admit(lease.url().hash()); // the filter said new then; its answer now does not matter
    HostQueue host = schedule.host(hostKey);
    host.admitted++;
    host.pending.addLast(lease);
  }

  @Override
  public void taken(String hostKey) {
    Lease lease = schedule.host(hostKey).pending.pollFirst();
    if (lease != null) {
      out.put(lease.url().toString(), lease);
    }
  }

  @Override
  public void returned(String hostKey, byte[] entry) {
    Lease lease = PendingCodec.decode(entry, hostKey);
    out.remove(lease.url().toString());
    schedule.host(hostKey).pending.addFirst(lease);
  }

  @Override
  public void completed(String hostKey, String url, Map<String, Long> delta) {
    out.remove(url);
    Counts.add(counts, delta);
  }

  @Override
  public void retried(String hostKey, byte[] entry, Map<String, Long> delta) {
    returned(hostKey, entry);
    Counts.add(counts, delta);
  }

  @Override
  public void recrawled(String hostKey, byte[] next, long dueMillis, Map<String, Long> delta) {
    Lease lease = PendingCodec.decode(next, hostKey);
    out.remove(lease.url().toString());
    Counts.add(counts, delta);
    waiting.put(lease.url().toString(), new Recrawl.Due(lease, 0, dueMillis));
  }

  @Override
  public void due(String hostKey, String url) {
    Recrawl.Due due = waiting.remove(url);
    if (due == null) {
      return; // due in a state this replay does not start from: nothing waits to be queued
    }
    HostQueue host = schedule.host(hostKey);
    if (host.skipped) {
      schedule.droppedBySkippedHost.incrementAndGet();
    } else {
      host.pending.addLast(due.lease());
    }
  }

  @Override
  public void skipped(String hostKey) {
    HostQueue host = schedule.host(hostKey);
    host.skipped = true;
    schedule.droppedBySkippedHost.addAndGet(host.pending.clear());
  }
}
