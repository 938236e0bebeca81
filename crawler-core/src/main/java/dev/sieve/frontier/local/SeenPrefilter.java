package dev.sieve.frontier.local;

import dev.sieve.bloom.HashBatch;
import dev.sieve.frontier.Sieve;
import dev.sieve.url.Url;
import java.util.List;

/**
 * Drops, without a lock, the links of a batch the Sieve has seen (most links of a page): first
 * those it recently reported seen ({@link RecentlySeen}), then, after hashing the rest and
 * starting their filter loads together, those the filter holds ({@link
 * Sieve#mightHaveSeenAll}, final once true). What is left still has to be checked-and-set.
 * Thread-safe.
 */
final class SeenPrefilter {
  private final Sieve sieve;
  private final RecentlySeen recentlySeen = new RecentlySeen();

  SeenPrefilter(Sieve sieve) {
    this.sieve = sieve;
  }

  /** The URLs of a batch the Sieve may not have seen, the first {@code count} of each array. */
  record Unseen(Url[] urls, HashBatch hashes) {
    int count() {
      return hashes.size();
    }
  }

  Unseen unseen(List<Url> batch) {
    int size = Math.max(1, batch.size());
    Url[] unknown = new Url[size];
    HashBatch hashes = new HashBatch(size);
    for (Url url : batch) {
      if (!recentlySeen.contains(url)) {
        unknown[hashes.size()] = url;
        hashes.add(url.hash());
      }
    }
    boolean[] seen = new boolean[hashes.size()];
    sieve.mightHaveSeenAll(hashes, seen);
    HashBatch candidates = new HashBatch(size);
    for (int i = 0; i < seen.length; i++) {
      if (seen[i]) {
        recentlySeen.add(unknown[i]);
      } else {
        unknown[candidates.size()] = unknown[i];
        candidates.add(hashes.get(i));
      }
    }
    return new Unseen(unknown, candidates);
  }

  /** The Sieve has just reported {@code url} seen (it admitted it). */
  void seen(Url url) {
    recentlySeen.add(url);
  }
}
