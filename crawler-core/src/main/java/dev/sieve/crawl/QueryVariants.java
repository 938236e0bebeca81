package dev.sieve.crawl;

import dev.sieve.bloom.Hash128;
import dev.sieve.url.Url;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds query-string traps: at most {@code maxVariants} distinct query strings are followed per
 * (authority, path); a link with a further new query is a {@code query-trap}, and the first such
 * link of a path logs one WARN. A calendar linking {@code ?month=N+1} stops after that many months.
 *
 * <p>Memory is bounded in two ways. Per path it keeps the 64-bit hashes of the queries admitted,
 * at most {@code maxVariants} (800 bytes at the default 100), so a path never costs more however
 * many variants it is offered. And it tracks at most {@value #MAX_PATHS} paths, least recently
 * offered first out: about 8 MiB at the default. An evicted path starts counting again if it comes
 * back; a trap keeps being offered new variants, so it stays recent and is not evicted, while the
 * paths it pushes out are the ones whose links stopped coming. Links without a query are not
 * tracked. The counts are not saved with a checkpoint: a resumed crawl may follow up to {@code
 * maxVariants} more variants of a path (its Sieve still refuses those fetched before).
 *
 * <p>Two distinct queries whose hashes collide (about 2⁻⁵⁷ for 100 variants) count as one.
 * Thread-safe.
 */
final class QueryVariants {
  private static final Logger log = LoggerFactory.getLogger(QueryVariants.class);

  /** Paths tracked at once. */
  static final int MAX_PATHS = 10_000;

  private final int maxVariants;
  private final Map<String, Variants> paths = new LinkedHashMap<>(1024, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Variants> eldest) {
      return size() > MAX_PATHS;
    }
  };

  QueryVariants(int maxVariants) {
    this.maxVariants = maxVariants;
  }

  /**
   * Whether {@code link} may be followed: true if it has no query, or its query is one of the
   * first {@code maxVariants} distinct ones offered for its authority and path.
   */
  boolean admit(Url link) {
    String pathAndQuery = link.path();
    int q = pathAndQuery.indexOf('?');
    if (q < 0) {
      return true;
    }
    String key = link.origin() + pathAndQuery.substring(0, q);
    Hash128 hash = Hash128.of(pathAndQuery.substring(q + 1));
    long query = hash.h1();
    boolean warn;
    synchronized (paths) {
      Variants variants = paths.computeIfAbsent(key, k -> new Variants());
      if (variants.admit(query, maxVariants)) {
        return true;
      }
      warn = !variants.warned;
      variants.warned = true;
    }
    if (warn) {
      log.warn("Query trap: {} has more than {} distinct query strings (--max-query-variants);"
          + " further ones are not followed, counted query-trap", key, maxVariants);
    }
    return false;
  }

  /** The query hashes admitted for one path, unsorted; a linear scan of at most the cap. */
  private static final class Variants {
    long[] hashes = new long[4];
    int size;
    boolean warned;

    boolean admit(long query, int max) {
      for (int i = 0; i < size; i++) {
        if (hashes[i] == query) {
          return true;
        }
      }
      if (size >= max) {
        return false;
      }
      if (size == hashes.length) {
        hashes = Arrays.copyOf(hashes, Math.min(max, size * 2));
      }
      hashes[size++] = query;
      return true;
    }
  }
}
