package dev.sieve.frontier.redis;

import dev.sieve.frontier.Lease;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The leases this process holds, found by value ({@link Lease#equals}, which ignores what a worker
 * learnt of the fetch, {@link Lease#last}), each to its id in Redis: a worker may give back a copy
 * of the lease it took, such as {@link Lease#fetched}. Equal leases held at once (the same URL and
 * attempt taken again after its lease expired) keep their ids oldest first, and the oldest goes
 * back first. Thread-safe.
 */
final class HeldLeases {
  private final Map<Lease, ArrayDeque<String>> ids = new HashMap<>();

  /** Records that this process holds {@code lease} under Redis's {@code id}. */
  synchronized void hold(Lease lease, String id) {
    ids.computeIfAbsent(lease, l -> new ArrayDeque<>(1)).addLast(id);
  }

  /** The id of a held lease equal to {@code lease}, no longer held; null when none is. */
  synchronized String release(Lease lease) {
    ArrayDeque<String> held = ids.get(lease);
    if (held == null) {
      return null;
    }
    String id = held.removeFirst();
    if (held.isEmpty()) {
      ids.remove(lease);
    }
    return id;
  }
}
