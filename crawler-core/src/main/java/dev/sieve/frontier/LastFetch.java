package dev.sieve.frontier;

import java.time.Instant;

/**
 * What a recrawling frontier keeps of a URL's last fetch, carried by its next {@link Lease}: how
 * many times it was fetched, when, and what a conditional refetch needs (the validators of the
 * last full response, and where that response was archived).
 *
 * @param fetches times the URL was done so far (1 after its first fetch); its next record is
 *     refetch number {@code fetches}
 * @param at when the last fetch was recorded
 * @param etag the {@code ETag} of the last full response, or null
 * @param lastModified the {@code Last-Modified} of the last full response, or null
 * @param recordId the UUID of that response's WARC-Record-ID, or null when none was archived
 * @param recordDate the WARC-Date of that record, or null
 */
public record LastFetch(
    int fetches, Instant at, String etag, String lastModified, String recordId, Instant recordDate) {
  public LastFetch {
    java.util.Objects.requireNonNull(at, "at");
  }

  /** Whether a refetch can be conditional: the last full response gave a validator. */
  public boolean hasValidator() {
    return etag != null || lastModified != null;
  }
}
