package dev.sieve.fetch;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * The outcome of one {@link Fetcher#fetch(String)}: either an HTTP response of any status, or a
 * failure with no response ({@link #status()} 0 and {@link #error()} set). Immutable and
 * thread-safe.
 */
public final class FetchResult {
  private static final byte[] EMPTY = new byte[0];

  private final String url;
  private final int status;
  private final String contentType;
  private final byte[] body;
  private final boolean truncated;
  private final String redirectLocation;
  private final Duration retryAfter;
  private final long fetchMs;
  private final FetchError error;
  private final String errorMessage;
  /** The exchange as on the wire, or null when no response arrived. */
  private final Exchange exchange;
  /** {@link #sha1()}, computed on first use. */
  private volatile String sha1;

  /** Takes ownership of {@code body}; {@code exchange} is null when no response arrived. */
  FetchResult(
      String url,
      int status,
      String contentType,
      byte[] body,
      boolean truncated,
      String redirectLocation,
      Duration retryAfter,
      long fetchMs,
      FetchError error,
      String errorMessage,
      Exchange exchange) {
    this.url = url;
    this.status = status;
    this.contentType = contentType;
    this.body = body;
    this.truncated = truncated;
    this.redirectLocation = redirectLocation;
    this.retryAfter = retryAfter;
    this.fetchMs = fetchMs;
    this.error = error;
    this.errorMessage = errorMessage;
    this.exchange = exchange;
  }

  /** A result for a fetch that got no response at all. */
  static FetchResult failure(String url, long fetchMs, FetchError error, String errorMessage) {
    return new FetchResult(url, 0, null, EMPTY, false, null, null, fetchMs, error, errorMessage,
        null);
  }

  /** The URL as passed to {@link Fetcher#fetch(String)}. */
  public String url() {
    return url;
  }

  /**
   * The IP address the response came from (as the connection's remote address), or null when no
   * connection was made.
   */
  public String ip() {
    return exchange == null ? null : exchange.ip();
  }

  /**
   * The SHA-1 of the payload as the server sent it (the body after transfer decoding), base32 as
   * in a WARC {@code WARC-Payload-Digest} without its {@code sha1:} prefix; null when no response
   * arrived.
   */
  public String sha1() {
    if (exchange == null) {
      return null;
    }
    String digest = sha1;
    if (digest == null) {
      digest = Sha1.base32(exchange.payload());
      sha1 = digest;
    }
    return digest;
  }

  /** The exchange as it went over the wire, for archiving; empty when no response arrived. */
  public Optional<Exchange> exchange() {
    return Optional.ofNullable(exchange);
  }

  /** The response's {@code ETag} and {@code Last-Modified}; none when no response arrived. */
  public Validators validators() {
    return exchange == null ? Validators.NONE : Validators.of(exchange.responseHead());
  }

  /** Whether the server answered {@code 304 Not Modified} (to a conditional fetch). */
  public boolean isNotModified() {
    return status == 304;
  }

  /** The HTTP status code, or 0 when no response arrived. */
  public int status() {
    return status;
  }

  /** The raw {@code Content-Type} header, or null when absent or no response arrived. */
  public String contentType() {
    return contentType;
  }

  /**
   * The decompressed body, at most {@code maxBodyBytes} long; never null. Returns a fresh copy on
   * each call, so call it once.
   */
  public byte[] body() {
    return body.clone();
  }

  /** The number of body bytes kept, i.e. {@code body().length}, without copying. */
  public long bytes() {
    return body.length;
  }

  /**
   * Whether the body is incomplete: it exceeded {@code maxBodyBytes} or its read failed (then
   * {@link #error()} is set too).
   */
  public boolean truncated() {
    return truncated;
  }

  /** The raw, unresolved {@code Location} header of a 3xx response; empty otherwise. */
  public Optional<String> redirectLocation() {
    return Optional.ofNullable(redirectLocation);
  }

  /**
   * How long the server asked us to wait, from {@code Retry-After} on a 429 or 503: seconds or
   * an HTTP-date of any size, at most about 292 years; empty when absent or junk.
   */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  /** Wall time of the fetch in milliseconds, including the body read. */
  public long fetchMs() {
    return fetchMs;
  }

  /**
   * Why the fetch failed, or null when a complete response arrived. Non-null with a non-zero
   * {@link #status()} means the headers arrived but the body read failed.
   */
  public FetchError error() {
    return error;
  }

  /** A short reason such as {@code "connection refused"}, or null when {@link #error()} is. */
  public String errorMessage() {
    return errorMessage;
  }

  /** Whether the status is 2xx. */
  public boolean isSuccess() {
    return status >= 200 && status < 300;
  }

  /** Whether the status is 3xx and a {@code Location} header is present. */
  public boolean isRedirect() {
    return status >= 300 && status < 400 && redirectLocation != null;
  }

  /** Whether the media type is {@code text/html} or {@code application/xhtml+xml}. */
  public boolean isHtml() {
    if (contentType == null) {
      return false;
    }
    int semicolon = contentType.indexOf(';');
    String mediaType = (semicolon < 0 ? contentType : contentType.substring(0, semicolon))
        .trim()
        .toLowerCase(Locale.ROOT);
    return mediaType.equals("text/html") || mediaType.equals("application/xhtml+xml");
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("FetchResult{").append(url).append(' ').append(status);
    if (error != null) {
      s.append(' ').append(error.label()).append(": ").append(errorMessage);
    }
    s.append(", ").append(body.length).append(" bytes");
    if (truncated) {
      s.append(" (truncated)");
    }
    return s.append(", ").append(fetchMs).append(" ms}").toString();
  }
}
