package dev.sieve.fetch;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A response's cache validators, {@code ETag} and {@code Last-Modified}, as sent (either may be
 * null): a later fetch of the URL sends them back as {@code If-None-Match} and {@code
 * If-Modified-Since} ({@link Fetcher#fetch(String, Validators)}), and the server may answer {@code
 * 304 Not Modified}.
 *
 * @param etag the {@code ETag} value, quotes and {@code W/} included, or null
 * @param lastModified the {@code Last-Modified} HTTP-date, or null
 */
public record Validators(String etag, String lastModified) {
  /** No validator: an unconditional fetch. */
  public static final Validators NONE = new Validators(null, null);

  /** Whether there is no validator to send. */
  public boolean isEmpty() {
    return etag == null && lastModified == null;
  }

  /** Adds the conditional headers of these validators to {@code request}. */
  okhttp3.Request.Builder addTo(okhttp3.Request.Builder request) {
    if (etag != null) {
      request.header("If-None-Match", etag);
    }
    if (lastModified != null) {
      request.header("If-Modified-Since", lastModified);
    }
    return request;
  }

  /** The validators in a response head (a status line, then header lines, as on the wire). */
  static Validators of(ByteBuffer head) {
    String text = StandardCharsets.ISO_8859_1.decode(head.duplicate()).toString();
    String etag = null;
    String lastModified = null;
    int next;
    for (int start = 0; start < text.length(); start = next + 2) {
      // Lines found with indexOf, not String.split, which compiles a regex on every page.
      next = text.indexOf("\r\n", start);
      if (next < 0) {
        next = text.length();
      }
      String line = text.substring(start, next);
      int colon = line.indexOf(':');
      if (colon <= 0) {
        continue;
      }
      String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).trim();
      if (value.isEmpty() || value.length() > 256) {
        continue; // a validator that long is junk: not sent back
      }
      if (name.equals("etag")) {
        etag = value;
      } else if (name.equals("last-modified")) {
        lastModified = value;
      }
    }
    return etag == null && lastModified == null ? NONE : new Validators(etag, lastModified);
  }
}
