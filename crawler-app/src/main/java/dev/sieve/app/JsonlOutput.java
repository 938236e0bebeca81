package dev.sieve.app;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.sieve.crawl.CrawlListener;
import dev.sieve.crawl.PageRecord;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes one JSON object per fetched URL, one per line, flushed after each so that a killed crawl
 * leaves only whole lines. Fields: url, status, depth, contentType, bytes, fetchMs, outlinks,
 * newLinks, error, cause, fetchedAt (ISO-8601), and for a parsed page links (found and each fate's
 * count). Thread-safe.
 */
final class JsonlOutput implements CrawlListener, AutoCloseable {
  private final Writer writer;
  private final JsonFactory json = new JsonFactory();

  private JsonlOutput(Writer writer) {
    this.writer = writer;
  }

  /** Opens {@code file} for writing: appending to it, or replacing what it held. */
  static JsonlOutput create(Path file, boolean append) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    if (append) {
      dropPartialLastLine(file);
    }
    return new JsonlOutput(
        new BufferedWriter(
            Files.newBufferedWriter(
                file,
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                append ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)));
  }

  /**
   * A crawl killed mid-write can leave a partial last line; its URL was in flight and is fetched
   * and recorded again, so the fragment is cut off to keep every line whole JSON.
   */
  private static void dropPartialLastLine(Path file) throws IOException {
    if (!Files.exists(file)) {
      return;
    }
    try (java.nio.channels.FileChannel channel =
        java.nio.channels.FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long size = channel.size();
      long keep = size;
      java.nio.ByteBuffer one = java.nio.ByteBuffer.allocate(1);
      while (keep > 0) {
        one.clear();
        channel.read(one, keep - 1);
        if (one.get(0) == '\n') {
          break;
        }
        keep--;
      }
      if (keep < size) {
        channel.truncate(keep);
      }
    }
  }

  @Override
  public synchronized void onPage(PageRecord record) {
    try {
      JsonGenerator out = json.createGenerator(writer);
      out.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
      out.writeStartObject();
      out.writeStringField("url", record.url());
      out.writeNumberField("status", record.status());
      out.writeNumberField("depth", record.depth());
      out.writeStringField("contentType", record.contentType());
      out.writeNumberField("bytes", record.bytes());
      out.writeNumberField("fetchMs", record.fetchMs());
      out.writeNumberField("outlinks", record.outlinks());
      out.writeNumberField("newLinks", record.newLinks());
      out.writeStringField("error", record.error());
      out.writeStringField("cause", record.cause());
      out.writeStringField("fetchedAt", record.fetchedAt().toString());
      if (record.links() != null) {
        out.writeObjectFieldStart("links");
        for (var fate : record.links().asMap().entrySet()) {
          out.writeNumberField(fate.getKey(), fate.getValue());
        }
        out.writeEndObject();
      }
      out.writeEndObject();
      out.flush();
      writer.write('\n');
      writer.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write crawl output: " + e.getMessage(), e);
    }
  }

  @Override
  public synchronized void close() throws IOException {
    writer.close();
  }
}
