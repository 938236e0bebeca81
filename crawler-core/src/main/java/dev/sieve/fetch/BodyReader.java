package dev.sieve.fetch;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import okhttp3.Call;
import okhttp3.Response;
import okio.Buffer;
import okio.BufferedSource;

/**
 * Reads a response body as transferred (OkHttp has undone the chunking; the content-encoding is
 * kept, since the fetcher asks for gzip itself) and decodes a gzip body for the parser. Both are
 * bounded by the body cap: at most {@code max + 1} bytes of either are ever held, the extra byte
 * telling a capped body from one exactly {@code max} long.
 */
final class BodyReader {
  /**
   * A body read: the bytes as transferred and why they are incomplete; the decoded bytes and
   * whether they are; the failure that ended the read, if any.
   */
  record Body(byte[] wire, Exchange.Truncation wireCut, byte[] decoded, boolean truncated,
      FetchError error, String reason) {}

  private BodyReader() {}

  static Body read(Call call, Response response, long max) {
    Buffer buffer = new Buffer();
    Exchange.Truncation cut = Exchange.Truncation.NONE;
    FetchError error = null;
    String reason = null;
    try {
      BufferedSource source = response.body().source();
      long limit = max + 1;
      while (buffer.size() < limit) {
        if (source.read(buffer, limit - buffer.size()) == -1) {
          break;
        }
      }
      if (buffer.size() > max) {
        cut = Exchange.Truncation.LENGTH;
        call.cancel(); // drop the connection instead of draining the rest of the body
      }
    } catch (IOException e) {
      error = FetchError.classify(e);
      reason = FetchError.reason(e);
      cut = error == FetchError.TIMEOUT ? Exchange.Truncation.TIME : Exchange.Truncation.DISCONNECT;
    }
    byte[] wire = keep(buffer, max);
    if (wire.length == 0 || !isGzip(response.header("Content-Encoding"))) {
      return new Body(wire, cut, wire, cut != Exchange.Truncation.NONE, error, reason);
    }
    Buffer decoded = new Buffer();
    boolean decodeFailed = false;
    try (InputStream gunzip = new GZIPInputStream(new ByteArrayInputStream(wire), 8192)) {
      byte[] chunk = new byte[8192];
      while (decoded.size() <= max) {
        int n = gunzip.read(chunk, 0, (int) Math.min(chunk.length, max + 1 - decoded.size()));
        if (n < 0) {
          break;
        }
        decoded.write(chunk, 0, n);
      }
    } catch (IOException e) {
      decodeFailed = true;
      // A body cut on the wire ends in the middle of the stream: that is the truncation, not an
      // error of its own.
      if (cut == Exchange.Truncation.NONE) {
        error = FetchError.classify(e);
        reason = FetchError.reason(e);
      }
    }
    boolean truncated = cut != Exchange.Truncation.NONE || decodeFailed || decoded.size() > max;
    return new Body(wire, cut, keep(decoded, max), truncated, error, reason);
  }

  /** Whether the body is gzip, the only encoding the fetcher asks for. */
  private static boolean isGzip(String contentEncoding) {
    if (contentEncoding == null) {
      return false;
    }
    String encoding = contentEncoding.trim().toLowerCase(Locale.ROOT);
    return encoding.equals("gzip") || encoding.equals("x-gzip");
  }

  /** Returns the first {@code max} bytes of {@code buffer}, or all of them if fewer. */
  private static byte[] keep(Buffer buffer, long max) {
    try {
      return buffer.readByteArray(Math.min(buffer.size(), max));
    } catch (EOFException impossible) {
      throw new AssertionError(impossible);
    } finally {
      buffer.clear();
    }
  }
}
