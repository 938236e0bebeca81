package dev.sieve.sitemap;

import crawlercommons.sitemaps.AbstractSiteMap;
import crawlercommons.sitemaps.SiteMap;
import crawlercommons.sitemaps.SiteMapIndex;
import crawlercommons.sitemaps.SiteMapParser;
import crawlercommons.sitemaps.SiteMapURL;
import crawlercommons.sitemaps.UnknownFormatException;
import dev.sieve.url.Url;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Reads one sitemap file with crawler-commons' {@link SiteMapParser}: an XML sitemap or sitemap
 * index, or a text sitemap (one URL a line), either of them gzipped. Gzip is told by its magic
 * bytes, not by the file name or headers, so {@code .xml.gz} files, {@code application/x-gzip}
 * and a {@code Content-Encoding} the fetcher left undecoded are all read. XML or text is told by
 * the first non-blank byte ({@code <}). Bad input is data: never throws for what the web sends.
 * Memory stays bounded: at most {@code maxBytes} are decompressed and {@code maxUrls} URLs kept.
 * Stateless, thread-safe.
 */
public final class SitemapReader {
  private final long maxBytes;
  private final int maxUrls;

  /** A reader keeping at most {@code maxBytes} (after gunzip) and {@code maxUrls} of a file. */
  public SitemapReader(long maxBytes, int maxUrls) {
    this.maxBytes = maxBytes;
    this.maxUrls = maxUrls;
  }

  /** A reader with {@code settings}' caps. */
  public SitemapReader(SitemapSettings settings) {
    this(settings.maxBytes(), settings.maxUrls());
  }

  /**
   * Reads {@code body}, fetched from {@code at}; {@code truncated} tells that the fetcher cut it.
   */
  public SitemapContent read(Url at, byte[] body, boolean truncated) {
    boolean cut = truncated;
    byte[] content = body;
    if (isGzip(body)) {
      Gunzipped gunzipped = gunzip(body);
      if (gunzipped.failure != null) {
        return SitemapContent.failed("bad-gzip: " + gunzipped.failure, cut);
      }
      content = gunzipped.bytes;
      cut |= gunzipped.cut;
    }
    if (content.length > maxBytes) {
      content = java.util.Arrays.copyOf(content, (int) maxBytes);
      cut = true;
    }
    return parse(at, content, cut);
  }

  private SitemapContent parse(Url at, byte[] content, boolean cut) {
    URL url;
    try {
      url = new URL(at.toString());
    } catch (MalformedURLException e) {
      return SitemapContent.failed("bad-url: " + e.getMessage(), cut);
    }
    // A cut file's last element is cut in half: parse what came before it.
    Parser parser = new Parser(cut, maxUrls);
    AbstractSiteMap parsed;
    try {
      parsed = looksLikeXml(content) ? parser.xml(url, content) : parser.text(url, content);
    } catch (UnknownFormatException e) {
      return SitemapContent.failed("malformed-xml: " + oneLine(e.getMessage()), cut);
    } catch (IOException | RuntimeException e) { // Defensive: third-party code fed with web input.
      return SitemapContent.failed("unreadable: " + oneLine(e.toString()), cut);
    }
    List<SitemapContent.Entry> urls = new ArrayList<>();
    List<SitemapContent.Entry> sitemaps = new ArrayList<>();
    if (parsed instanceof SiteMapIndex index) {
      for (AbstractSiteMap nested : index.getSitemaps()) {
        sitemaps.add(new SitemapContent.Entry(nested.getUrl().toString(),
            instant(nested.getLastModified())));
      }
    } else if (parsed instanceof SiteMap map) {
      for (SiteMapURL listed : map.getSiteMapUrls()) {
        urls.add(new SitemapContent.Entry(listed.getUrl().toString(),
            instant(listed.getLastModified())));
      }
    }
    return new SitemapContent(urls, sitemaps, parser.overCap, cut, null);
  }

  private static Instant instant(Date date) {
    return date == null ? null : date.toInstant();
  }

  static boolean isGzip(byte[] body) {
    return body.length >= 2 && (body[0] & 0xff) == 0x1f && (body[1] & 0xff) == 0x8b;
  }

  /** Whether the first byte after a UTF-8 byte order mark and white space is {@code <}. */
  private static boolean looksLikeXml(byte[] content) {
    int i = content.length >= 3 && (content[0] & 0xff) == 0xef && (content[1] & 0xff) == 0xbb
        && (content[2] & 0xff) == 0xbf ? 3 : 0;
    while (i < content.length && Character.isWhitespace(content[i])) {
      i++;
    }
    return i < content.length && content[i] == '<';
  }

  private Gunzipped gunzip(byte[] body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
      byte[] buffer = new byte[8192];
      long limit = maxBytes + 1;
      int n;
      while (out.size() < limit
          && (n = in.read(buffer, 0, (int) Math.min(buffer.length, limit - out.size()))) > 0) {
        out.write(buffer, 0, n);
      }
    } catch (EOFException e) {
      // A body the fetcher cut ends mid-stream: keep what was inflated.
      return new Gunzipped(out.toByteArray(), true, null);
    } catch (IOException e) {
      return out.size() > 0
          ? new Gunzipped(out.toByteArray(), true, null)
          : new Gunzipped(null, false, oneLine(e.getMessage()));
    }
    byte[] bytes = out.toByteArray();
    return bytes.length > maxBytes
        ? new Gunzipped(java.util.Arrays.copyOf(bytes, (int) maxBytes), true, null)
        : new Gunzipped(bytes, false, null);
  }

  private static String oneLine(String message) {
    return message == null ? "?" : message.replaceAll("\\s+", " ").strip();
  }

  private record Gunzipped(byte[] bytes, boolean cut, String failure) {}

  /**
   * crawler-commons' parser, made to read XML or text as told (not by file name or type), that
   * keeps the first {@code maxUrls} URLs and counts the rest. Lenient about where the URLs point
   * (the crawl's scope decides), strict about well-formed XML unless the file was cut.
   */
  private static final class Parser extends SiteMapParser {
    private final int maxUrls;
    /** The URLs kept; crawler-commons may ask about one URL more than once. */
    private final java.util.Set<String> kept = new java.util.HashSet<>();
    private String lastRefused;
    int overCap;

    Parser(boolean partial, int maxUrls) {
      super(false, partial);
      this.maxUrls = maxUrls;
      setURLFilter(this::keep);
    }

    private String keep(String listed) {
      if (kept.contains(listed) || (kept.size() < maxUrls && kept.add(listed))) {
        return listed;
      }
      if (!listed.equals(lastRefused)) {
        lastRefused = listed;
        overCap++;
      }
      return null;
    }

    AbstractSiteMap xml(URL url, byte[] content) throws UnknownFormatException {
      return processXml(url, content);
    }

    AbstractSiteMap text(URL url, byte[] content) throws IOException {
      return processText(url, content);
    }
  }
}
