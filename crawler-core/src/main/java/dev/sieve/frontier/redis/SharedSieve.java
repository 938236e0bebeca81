package dev.sieve.frontier.redis;

import dev.sieve.bloom.Hash128;
import dev.sieve.frontier.redis.RedisConnection.Script;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A seen filter in Redis under an id of its own, the Sieve of one shard of a crawl in {@link
 * RedisStore}: layers, growth and estimates as {@link SeenBitmaps} keeps them, every key in the
 * slot of {@code {id}}, checked inside the caller's scripts so that the filter's check-and-set and what the caller does
 * with the answer (on keys of the same slot) are one atomic step, in Redis Cluster too. A script
 * includes {@code lib-sieve.lua} and uses its {@code sieve_begin}, {@code sieve_url} and {@code
 * sieve_counts}; {@link #run} lays out its keys and arguments. Thread-safe.
 */
public final class SharedSieve {
  private final RedisConnection connection;
  private final String id;
  private final SharedSettings settings;
  private final SeenBitmaps bitmaps;

  private SharedSieve(RedisConnection connection, String id, SharedSettings settings) {
    this.connection = connection;
    this.id = id;
    this.settings = settings;
    this.bitmaps = new SeenBitmaps(connection, id, settings, true);
  }

  /**
   * The filter {@code id} (letters, digits, {@code ._-~}), created for {@code expectedUrls} at
   * rate {@code fpp}, growing past that, unless it exists: then as it was created.
   *
   * @throws java.io.UncheckedIOException naming Redis if it fails
   */
  public static SharedSieve open(RedisConnection connection, String id, long expectedUrls,
      double fpp) {
    SharedSettings wanted = SharedSettings.create(expectedUrls, fpp, true,
        SeenBitmaps.DEFAULT_SEGMENT_BITS);
    try {
      Map<String, String> existing = wanted.store(connection, id);
      SharedSieve sieve = new SharedSieve(connection, id,
          existing.isEmpty() ? wanted : SharedSettings.fromMap(existing));
      sieve.bitmaps.reload();
      return sieve;
    } catch (JedisException e) {
      throw connection.failure("create the seen filter " + id, e);
    }
  }

  /**
   * Runs {@code script} over {@code texts} (each hashed as the filter remembers it): KEYS are
   * {@code lead} then the filter's; ARGV is {@code header}, the filter's layout, then per text its
   * {@code payload} and filter arguments. Runs it again over the grown filter when it answers
   * {-1}.
   *
   * @return the script's answer, its value per text, without the counts {@code sieve_counts}
   *     appended; or its own negative first value
   * @throws JedisException if Redis fails
   */
  public List<?> run(Script script, List<String> lead, List<String> header, List<String> texts,
      List<List<String>> payloads) {
    return run(script, lead, texts, FilterRequest.of(header, payloads));
  }

  /**
   * {@link #run} with the header and the texts sent chosen by {@code request} once their blocks
   * were read: a text the read found seen may be answered without the script.
   */
  List<?> run(Script script, List<String> lead, List<String> texts, FilterRequest request) {
    Hash128[] hashes = new Hash128[texts.size()];
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] = Hash128.of(texts.get(i));
    }
    return bitmaps.run(script, lead, hashes, request);
  }

  /** The estimated distinct texts set in the filter. */
  public long approximateSeen() {
    return bitmaps.approximateSeen();
  }

  /** The estimated false-positive rate now. */
  public double fpp() {
    return bitmaps.seenFpp();
  }

  public double targetFpp() {
    return settings.fpp();
  }

  /** Bits of all layers. */
  public long bits() {
    return bitmaps.bits();
  }

  public int layers() {
    return bitmaps.layers().size();
  }

  /**
   * After a put: warns of each capacity threshold crossed, once in every process sharing the
   * filter (the first to claim it in Redis logs it; see {@link dev.sieve.frontier.Sieve}).
   */
  public void checkCapacity() {
    bitmaps.checkCapacity();
  }

  /** Capacity thresholds this process saw crossed. */
  public int capacityWarnings() {
    return bitmaps.capacityWarnings();
  }

  /** Deletes the filter from Redis: every layer's keys and its settings. */
  public void delete() {
    try {
      List<String> keys = new ArrayList<>();
      for (FilterLayer layer : bitmaps.reload()) {
        for (int s = 0; s < layer.segments; s++) {
          keys.addAll(List.of(layer.segmentKey(s), layer.countKey(s), layer.sealKey(s),
              layer.intentsKey(s)));
        }
      }
      keys.add("sieve:{" + id + "}:meta");
      keys.add("sieve:{" + id + "}:layers");
      connection.redis.unlink(keys.toArray(new String[0]));
    } catch (JedisException e) {
      throw connection.failure("delete the seen filter " + id, e);
    }
  }
}
