package dev.sieve.app;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.sieve.crawl.LinkCounts;
import dev.sieve.crawl.PageRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * A {@link PageRecord} as one JSON Lines line, and back: every field in its order (as the Output
 * section of docs/crawl.md and {@code config/page-record.schema.json} describe them). Every record
 * has every field: one that does not apply is written as null, never left out. Instants are
 * ISO-8601; {@code warc} is {@code {"file", "offset"}}; {@code links} is {@code found} and each
 * fate's count. Reading back keeps what resuming needs. Stateless.
 */
final class PageRecordJson {
  private static final JsonFactory JSON = new JsonFactory();

  private PageRecordJson() {}

  /** The record as one line, its newline included. */
  static byte[] encode(PageRecord record) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (JsonGenerator out = JSON.createGenerator(bytes)) {
      out.writeStartObject();
      out.writeStringField("url", record.url());
      out.writeNumberField("status", record.status());
      out.writeNumberField("depth", record.depth());
      out.writeStringField("via", record.via());
      out.writeStringField("contentType", record.contentType());
      out.writeNumberField("bytes", record.bytes());
      out.writeNumberField("fetchMs", record.fetchMs());
      out.writeNumberField("outlinks", record.outlinks());
      out.writeNumberField("newLinks", record.newLinks());
      out.writeStringField("redirect", record.redirect());
      out.writeStringField("error", record.error());
      out.writeStringField("cause", record.cause());
      out.writeStringField("ip", record.ip());
      out.writeStringField("protocol", record.protocol());
      out.writeStringField("sha1", record.sha1());
      if (record.warc() == null) {
        out.writeNullField("warc");
      } else {
        out.writeObjectFieldStart("warc");
        out.writeStringField("file", record.warc().file());
        out.writeNumberField("offset", record.warc().offset());
        out.writeEndObject();
      }
      out.writeStringField("lastmod", record.lastmod() == null ? null : record.lastmod().toString());
      out.writeStringField("fetchedAt", record.fetchedAt().toString());
      if (record.links() == null) {
        out.writeNullField("links");
      } else {
        out.writeObjectFieldStart("links");
        for (var fate : record.links().asMap().entrySet()) {
          out.writeNumberField(fate.getKey(), fate.getValue());
        }
        out.writeEndObject();
      }
      out.writeNumberField("refetch", record.refetch());
      out.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    bytes.write('\n');
    return bytes.toByteArray();
  }

  /** The url field of a record line (written first), or null for a line that is not one. */
  static String firstUrl(String line) {
    try (JsonParser parser = JSON.createParser(line)) {
      if (parser.nextToken() == JsonToken.START_OBJECT && parser.nextToken() == JsonToken.FIELD_NAME
          && parser.currentName().equals("url") && parser.nextToken() == JsonToken.VALUE_STRING) {
        return parser.getText();
      }
    } catch (IOException e) {
      // Not a record: a line another tool wrote; it names no URL.
    }
    return null;
  }

  /** A record read back: what resuming needs (its counters) and what it says of the URL. */
  static PageRecord decode(JsonNode node) {
    JsonNode fetchedAt = node.path("fetchedAt");
    JsonNode warc = node.path("warc");
    return PageRecord.builder(node.path("url").asText(),
            fetchedAt.isTextual() ? Instant.parse(fetchedAt.asText()) : Instant.EPOCH)
        .found(node.path("depth").asInt(), text(node, "via"), instant(node, "lastmod"))
        .response(node.path("status").asInt(), text(node, "contentType"),
            node.path("bytes").asLong(), node.path("fetchMs").asLong())
        .links(node.path("outlinks").asInt(), node.path("newLinks").asInt(),
            links(node.path("links")))
        .redirect(text(node, "redirect"))
        .error(text(node, "error"), text(node, "cause"))
        .payload(text(node, "ip"), text(node, "sha1"))
        .protocol(text(node, "protocol"))
        .warc(warc.isObject()
            ? new PageRecord.WarcLocation(warc.path("file").asText(), warc.path("offset").asLong())
            : null)
        .refetch(node.path("refetch").asInt())
        .build();
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isTextual() ? value.asText() : null;
  }

  private static Instant instant(JsonNode node, String field) {
    String value = text(node, field);
    return value == null ? null : Instant.parse(value);
  }

  /** A record's link fates, or null when it has none (the page was not parsed for links). */
  private static LinkCounts links(JsonNode links) {
    if (!links.isObject()) {
      return null;
    }
    Map<String, Integer> byLabel = new HashMap<>();
    links.fields().forEachRemaining(field -> byLabel.put(field.getKey(), field.getValue().asInt()));
    return LinkCounts.fromMap(byLabel);
  }
}
