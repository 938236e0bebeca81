package dev.sieve.frontier.queue;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Named event counters, reported by GetStats. Thread-safe. */
public final class Counters {
  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

  public void add(String name, long n) {
    adder(name).add(n);
  }

  /** The counter {@code name}, created at 0 if new: for a hot path to hold and add to. */
  public LongAdder adder(String name) {
    return counts.computeIfAbsent(name, k -> new LongAdder());
  }

  public void increment(String name) {
    add(name, 1);
  }

  public long get(String name) {
    LongAdder adder = counts.get(name);
    return adder == null ? 0 : adder.sum();
  }

  /** Every counter, by name, each prefixed with {@code prefix}. */
  public Map<String, Long> snapshot(String prefix) {
    Map<String, Long> out = new TreeMap<>();
    counts.forEach((name, adder) -> out.put(prefix + name, adder.sum()));
    return out;
  }
}
