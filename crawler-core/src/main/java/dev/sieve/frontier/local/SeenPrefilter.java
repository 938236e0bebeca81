package dev.sieve.frontier.local;

import dev.sieve.bloom.Hash128;
import dev.sieve.frontier.Sieve;
import dev.sieve.url.Url;
import java.util.List;

/**
 * Drops, without a lock, the links of a batch the Sieve has seen (most links of a page): first
 * those it recently reported seen ({@link RecentlySeen}), then, after hashing the rest and
 * starting their filter loads together, those the filter holds ({@link
 * Sieve#mightHaveSeen(Hash128)}, final once true). What is left still has to be checked-and-set.
 * Thread-safe.
 */
final class SeenPrefilter {
  private final Sieve sieve;
  private final RecentlySeen recentlySeen = new RecentlySeen();

  SeenPrefilter(Sieve sieve) {
    this.sieve = sieve;
  }

  /** The URLs of a batch the Sieve may not have seen, the first {@code count} of each array. */
  record Unseen(Url[] urls, Hash128[] hashes, int count) {}

  Unseen unseen(List<Url> batch) {
    int size = batch.size();
    Url[] unknown = new Url[size];
    Hash128[] hashes = new Hash128[size];
    int probed = 0;
    for (Url url : batch) {
      if (!recentlySeen.contains(url)) {
        unknown[probed] = url;
        hashes[probed++] = Hash128.of(url.toString());
      }
    }
    sieve.prefetch(hashes, probed);
    int candidates = 0;
    for (int i = 0; i < probed; i++) {
      if (sieve.mightHaveSeen(hashes[i])) {
        recentlySeen.add(unknown[i]);
      } else {
        unknown[candidates] = unknown[i];
        hashes[candidates++] = hashes[i];
      }
    }
    return new Unseen(unknown, hashes, candidates);
  }

  /** The Sieve has just reported {@code url} seen (it admitted it). */
  void seen(Url url) {
    recentlySeen.add(url);
  }
}
