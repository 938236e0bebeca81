package dev.sieve.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An HTTP/1.1 response exactly as {@link WireServer} writes it: the status line, the header
 * fields in order (nothing is added), and the body as sent: the entity, content-coded when a
 * {@code Content-Encoding} field says so, framed in chunks of {@code chunkSize} bytes when
 * {@code chunkSize > 0} (then the fields should say {@code Transfer-Encoding: chunked}).
 */
public record HttpReply(int status, String reason, List<Field> fields, byte[] body, int chunkSize) {
  /** One header field, name and value as written. */
  public record Field(String name, String value) {}

  public HttpReply {
    fields = List.copyOf(fields);
    body = body.clone();
  }

  /** A reply with {@code Content-Type}, {@code Content-Length} and any {@code extra} fields. */
  public static HttpReply of(int status, String reason, String contentType, byte[] body,
      Field... extra) {
    List<Field> fields = new ArrayList<>();
    fields.add(new Field("Content-Type", contentType));
    fields.add(new Field("Content-Length", Integer.toString(body.length)));
    fields.addAll(List.of(extra));
    return new HttpReply(status, reason, fields, body, 0);
  }

  /** A reply sent with {@code Transfer-Encoding: chunked} in chunks of {@code chunkSize} bytes. */
  public static HttpReply chunked(String contentType, byte[] body, int chunkSize, Field... extra) {
    List<Field> fields = new ArrayList<>();
    fields.add(new Field("Content-Type", contentType));
    fields.addAll(List.of(extra));
    fields.add(new Field("Transfer-Encoding", "chunked"));
    return new HttpReply(200, "OK", fields, body, chunkSize);
  }

  /** A {@code 301 Moved Permanently} to {@code location}, with a short HTML body. */
  public static HttpReply movedTo(String location) {
    byte[] body = ("<html><body>Moved to <a href=\"" + location + "\">" + location
        + "</a></body></html>\n").getBytes(StandardCharsets.UTF_8);
    return of(301, "Moved Permanently", "text/html; charset=utf-8", body, new Field("Location", location));
  }

  @Override
  public byte[] body() {
    return body.clone();
  }

  /** The first value of field {@code name} (case-insensitive). */
  public Optional<String> field(String name) {
    return fields.stream().filter(f -> f.name().equalsIgnoreCase(name)).map(Field::value).findFirst();
  }

  /** The status line and the header fields, each ending in CRLF, and the empty line. */
  public byte[] head() {
    StringBuilder head = new StringBuilder("HTTP/1.1 ").append(status).append(' ').append(reason).append("\r\n");
    for (Field field : fields) {
      head.append(field.name()).append(": ").append(field.value()).append("\r\n");
    }
    return head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  /** Every byte written on the connection for this reply: head, then the body as framed. */
  public byte[] wire() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(head());
    if (chunkSize <= 0) {
      out.writeBytes(body);
      return out.toByteArray();
    }
    for (int start = 0; start < body.length; start += chunkSize) {
      int length = Math.min(chunkSize, body.length - start);
      out.writeBytes((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      out.write(body, start, length);
      out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
    }
    out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
    return out.toByteArray();
  }
}
