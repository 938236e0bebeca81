package dev.sieve.frontier;

import java.util.Objects;

/**
 * A URL waiting to be fetched, with its link depth (seeds are depth 0).
 *
 * @param url the URL, as it was pushed
 * @param depth the number of links followed from a seed to reach it
 */
record PendingUrl(String url, int depth) {
  PendingUrl {
    Objects.requireNonNull(url, "url");
    if (depth < 0) {
      throw new IllegalArgumentException("depth (" + depth + ") must be >= 0");
    }
  }
}
