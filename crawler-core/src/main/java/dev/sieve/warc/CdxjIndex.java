package dev.sieve.warc;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.netpreserve.jwarc.HttpResponse;
import org.netpreserve.jwarc.URIs;
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;

/**
 * The CDXJ index of a closed WARC file, in the pywb / OpenWayback line format: {@code SURT
 * TIMESTAMP {"url", "mime", "status", "digest", "length", "offset", "filename"}}, one line per
 * response and revisit record, sorted. Written beside the file as {@code NAME.cdxj} (through a
 * temporary file, so a crash leaves none or a whole one; the next run writes a missing one).
 */
final class CdxjIndex {
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss", Locale.ROOT).withZone(ZoneOffset.UTC);

  private static final Pattern REVERSED_IPV4 =
      Pattern.compile("(\\d{1,3}),(\\d{1,3}),(\\d{1,3}),(\\d{1,3})(?=[:)])");

  private CdxjIndex() {}

  /** The index file of {@code warc}: its name with {@code .warc.gz} replaced by {@code .cdxj}. */
  static Path pathOf(Path warc) {
    String name = warc.getFileName().toString();
    String base = name.endsWith(".warc.gz") ? name.substring(0, name.length() - 8) : name;
    return warc.resolveSibling(base + ".cdxj");
  }

  /** Reads {@code warc} to its end and writes its index beside it. */
  static Path write(Path warc) throws IOException {
    String filename = warc.getFileName().toString();
    List<String> lines = new ArrayList<>();
    try (WarcReader reader = new WarcReader(warc)) {
      Entry pending = null;
      for (WarcRecord record = reader.next().orElse(null); record != null;
          record = reader.next().orElse(null)) {
        long position = reader.position();
        if (pending != null) {
          lines.add(pending.line(position - pending.offset, filename));
          pending = null;
        }
        if (record instanceof WarcResponse || record instanceof WarcRevisit) {
          pending = entry((WarcCaptureRecord) record, position);
        }
      }
      if (pending != null) {
        lines.add(pending.line(Files.size(warc) - pending.offset, filename));
      }
    }
    lines.sort(null);
    Path index = pathOf(warc);
    Path tmp = index.resolveSibling(index.getFileName() + ".tmp");
    try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      for (String line : lines) {
        out.write(line);
        out.write('\n');
      }
    }
    WarcFile.rename(tmp, index);
    return index;
  }

  private static Entry entry(WarcCaptureRecord record, long offset) throws IOException {
    HttpResponse http = record instanceof WarcRevisit revisit ? revisit.http()
        : ((WarcResponse) record).http();
    String mime = record instanceof WarcRevisit ? "warc/revisit" : http.contentType().base().toString();
    String digest = record.payloadDigest().map(d -> d.algorithm() + ":" + d.base32()).orElse(null);
    return new Entry(record.target(), TIMESTAMP.format(record.date()), mime, http.status(), digest,
        offset);
  }

  /** A response or revisit record, waiting for the next record's offset to know its length. */
  private record Entry(String url, String timestamp, String mime, int status, String digest,
      long offset) {
    String line(long length, String filename) {
      StringBuilder json = new StringBuilder(256)
          .append(surt(url)).append(' ').append(timestamp).append(" {");
      field(json, "url", url).append(", ");
      field(json, "mime", mime).append(", ");
      field(json, "status", Integer.toString(status)).append(", ");
      if (digest != null) {
        field(json, "digest", digest).append(", ");
      }
      field(json, "length", Long.toString(length)).append(", ");
      field(json, "offset", Long.toString(offset)).append(", ");
      return field(json, "filename", filename).append('}').toString();
    }
  }

  /**
   * The SURT of {@code url} as jwarc normalizes it, but with an IPv4 host in its usual order, as
   * pywb's and OpenWayback's look-ups write it.
   */
  static String surt(String url) {
    String surt = URIs.toNormalizedSurt(url);
    Matcher ip = REVERSED_IPV4.matcher(surt);
    return ip.lookingAt()
        ? ip.group(4) + "," + ip.group(3) + "," + ip.group(2) + "," + ip.group(1) + surt.substring(ip.end())
        : surt;
  }

  private static StringBuilder field(StringBuilder json, String name, String value) {
    json.append('"').append(name).append("\": \"");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        json.append('\\').append(c);
      } else if (c < 0x20) {
        json.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        json.append(c);
      }
    }
    return json.append('"');
  }
}
