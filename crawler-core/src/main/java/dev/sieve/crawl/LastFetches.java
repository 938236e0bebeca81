package dev.sieve.crawl;

import dev.sieve.fetch.FetchResult;
import dev.sieve.fetch.Validators;
import dev.sieve.frontier.LastFetch;
import java.time.Instant;
import java.util.UUID;

/**
 * What one fetch of a URL leaves for its next in a recrawl ({@link LastFetch}): a full response
 * (2xx) gives its validators and archived record; a {@code 304 Not Modified} keeps the last full
 * response's (its own validators, if it sends any, replace them); a failure with no answer or a
 * 5xx keeps the last ones (the page may be unchanged); any other answer (3xx, 4xx) drops them.
 */
final class LastFetches {
  private LastFetches() {}

  /**
   * @param last what the fetch before left, or null
   * @param page the fetch's result, or null when nothing was fetched (e.g. robots-denied)
   * @param at when its record was written
   * @param recordId its response record (or the one its revisit refers to), or null
   * @param recordDate that record's date, or null
   */
  static LastFetch after(LastFetch last, FetchResult page, Instant at, UUID recordId,
      Instant recordDate) {
    int fetches = last == null ? 1 : last.fetches() + 1;
    String id = recordId == null ? null : recordId.toString();
    if (page != null && page.isSuccess()) {
      Validators sent = page.validators();
      return new LastFetch(fetches, at, sent.etag(), sent.lastModified(), id, recordDate);
    }
    boolean keep = page == null || page.isNotModified() || page.status() == 0
        || page.status() >= 500;
    if (!keep || last == null) {
      return new LastFetch(fetches, at, null, null, null, null);
    }
    if (page != null && page.isNotModified()) {
      Validators sent = page.validators();
      return new LastFetch(fetches, at,
          sent.etag() != null ? sent.etag() : last.etag(),
          sent.lastModified() != null ? sent.lastModified() : last.lastModified(),
          last.recordId(), last.recordDate());
    }
    return new LastFetch(fetches, at, last.etag(), last.lastModified(), last.recordId(),
        last.recordDate());
  }

  /** The validators a refetch after {@code last} sends: none for a first fetch. */
  static Validators of(LastFetch last) {
    return last == null || !last.hasValidator()
        ? Validators.NONE : new Validators(last.etag(), last.lastModified());
  }

  /** The record ID kept in {@code last} as a UUID, or null when none (or malformed). */
  static UUID recordId(LastFetch last) {
    if (last == null || last.recordId() == null) {
      return null;
    }
    try {
      return UUID.fromString(last.recordId());
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
