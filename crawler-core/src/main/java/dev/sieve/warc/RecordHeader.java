package dev.sieve.warc;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.UUID;

/**
 * The header of one WARC/1.1 record, written field by field into a reused buffer: for the records
 * of an exchange, written per fetch, jwarc's builders cost ~5 us per exchange apart and three
 * times that in a crawl (a sorted map, a list and strings per field, a random record ID per
 * builder that is then replaced). The caller gives the fields in the order jwarc's builders
 * write them, by name ignoring case, so that the bytes are jwarc's: {@code RecordsTest}
 * compares them. Not thread-safe: one per {@link MemberWriter}.
 */
final class RecordHeader {
  private static final byte[] VERSION = "WARC/1.1\r\n".getBytes(StandardCharsets.US_ASCII);

  private byte[] bytes = new byte[1024];
  private int length;
  private Instant lastDate;
  private String lastDateText;

  /** Starts a new header, the one before it no longer valid. */
  RecordHeader start() {
    length = 0;
    append(VERSION, 0, VERSION.length);
    return this;
  }

  /** A field; a value with other than ASCII characters is written in UTF-8, as jwarc does. */
  RecordHeader field(String name, String value) {
    ascii(name);
    ascii(": ");
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) >= 0x80) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        append(utf8, 0, utf8.length);
        ascii("\r\n");
        return this;
      }
    }
    ascii(value);
    ascii("\r\n");
    return this;
  }

  RecordHeader field(String name, long value) {
    return field(name, Long.toString(value));
  }

  /** A record ID field: the UUID as a URN in angle brackets. */
  RecordHeader field(String name, UUID id) {
    ascii(name);
    ascii(": <urn:uuid:");
    ascii(id.toString());
    ascii(">\r\n");
    return this;
  }

  /** A date field, to the second as every exchange's date is (see {@link Records}). */
  RecordHeader field(String name, Instant date) {
    if (!date.equals(lastDate)) {
      lastDate = date;
      lastDateText = date.toString();
    }
    return field(name, lastDateText);
  }

  /** The header ended by its blank line, valid until the next {@link #start}. */
  ByteBuffer end() {
    ascii("\r\n");
    return ByteBuffer.wrap(bytes, 0, length);
  }

  private void ascii(String text) {
    int n = text.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      bytes[length + i] = (byte) text.charAt(i);
    }
    length += n;
  }

  private void append(byte[] from, int offset, int n) {
    ensure(n);
    System.arraycopy(from, offset, bytes, length, n);
    length += n;
  }

  private void ensure(int more) {
    if (bytes.length - length < more) {
      bytes = Arrays.copyOf(bytes, Math.max(length + more, 2 * bytes.length));
    }
  }
}
