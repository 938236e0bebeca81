package dev.sieve.app;

import static dev.sieve.app.AcceptanceSite.BIG;
import static dev.sieve.app.AcceptanceSite.CHUNKED;
import static dev.sieve.app.AcceptanceSite.DISALLOWED;
import static dev.sieve.app.AcceptanceSite.GZIP;
import static dev.sieve.app.AcceptanceSite.HOME;
import static dev.sieve.app.AcceptanceSite.JPEG;
import static dev.sieve.app.AcceptanceSite.MISSING;
import static dev.sieve.app.AcceptanceSite.ONLY_IN_SITEMAP;
import static dev.sieve.app.AcceptanceSite.PNG;
import static dev.sieve.app.AcceptanceSite.REDIRECT_A;
import static dev.sieve.app.AcceptanceSite.REDIRECT_B;
import static dev.sieve.app.AcceptanceSite.REDIRECT_END;
import static dev.sieve.app.AcceptanceSite.ROBOTS;
import static dev.sieve.app.AcceptanceSite.SAME_1;
import static dev.sieve.app.AcceptanceSite.SAME_2;
import static dev.sieve.app.AcceptanceSite.SITEMAP_GZIP;
import static dev.sieve.app.AcceptanceSite.SITEMAP_INDEX;
import static dev.sieve.app.AcceptanceSite.SITEMAP_PLAIN;

import dev.sieve.testing.HttpReply;
import dev.sieve.testing.HttpReply.Field;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import javax.imageio.ImageIO;

/** The replies and sitemap entries of an {@link AcceptanceSite}, built once for its origin. */
final class AcceptanceContent {
  static final HttpReply NOT_FOUND = HttpReply.of(404, "Not Found", "text/html; charset=utf-8",
      utf8("<!doctype html><html><body><h1>Not found</h1></body></html>\n"));
  private static final String HTML = "text/html; charset=utf-8";
  private static final String DOCS_LIST = "/docs/list.html";

  private final String origin;
  private final Map<String, HttpReply> replies = new HashMap<>();
  private final Set<String> listed = new LinkedHashSet<>();
  private final Map<String, Instant> lastmods = new HashMap<>();

  AcceptanceContent(String origin, long maxBodyBytes) {
    this.origin = origin;
    pages();
    serve(BIG, "Big", "<a href=\"/about.html\">about</a>\n" + big(maxBodyBytes));
    byte[] same = html("Same", "<p>Two addresses, one body.</p>", HOME);
    replies.put(SAME_1, HttpReply.of(200, "OK", HTML, same));
    replies.put(SAME_2, HttpReply.of(200, "OK", HTML, same));
    replies.put(GZIP, HttpReply.of(200, "OK", HTML, gzip(html("Gzip", "<p>Sent gzip-encoded.</p>",
        "/from-gzip.html")), new Field("Content-Encoding", "gzip"), new Field("Vary", "Accept-Encoding")));
    replies.put(CHUNKED, HttpReply.chunked(HTML, html("Chunked", "<p>" + "Sent in chunks. ".repeat(40)
        + "</p>", "/from-chunked.html"), 100));
    replies.put(PNG, HttpReply.of(200, "OK", "image/png", image("png", BufferedImage.TYPE_INT_ARGB)));
    replies.put(JPEG, HttpReply.of(200, "OK", "image/jpeg", image("jpg", BufferedImage.TYPE_INT_RGB)));
    replies.put(REDIRECT_A, HttpReply.movedTo(REDIRECT_B));
    replies.put(REDIRECT_B, HttpReply.movedTo(origin + REDIRECT_END));
    replies.put(ROBOTS, HttpReply.of(200, "OK", "text/plain; charset=utf-8", utf8(
        "User-agent: *\nDisallow: /private/\n\nSitemap: " + origin + SITEMAP_INDEX + "\n")));
    sitemaps();
  }

  Map<String, HttpReply> replies() {
    return Map.copyOf(replies);
  }

  Set<String> listed() {
    return Set.copyOf(listed);
  }

  Map<String, Instant> lastmods() {
    return Map.copyOf(lastmods);
  }

  private void pages() {
    serve(HOME, "Home", "<img src=\"" + PNG + "\" alt=\"logo\"><img src=\"img/photo.jpg\" alt=\"photo\">",
        "/about.html", "contact.html", PNG, JPEG, REDIRECT_A, MISSING, BIG, SAME_1, SAME_2, GZIP, CHUNKED,
        "/docs/index.html", "/blog/post.html", DISALLOWED);
    serve("/about.html", "About", "", HOME, "/contact.html");
    serve("/contact.html", "Contact", "", "about.html", origin + HOME);
    serve(REDIRECT_END, "End of the redirect chain", "", HOME);
    serve("/from-gzip.html", "Linked from the gzip page", "", HOME);
    serve("/from-chunked.html", "Linked from the chunked page", "", HOME);
    serve("/blog/post.html", "A post", "", HOME, "/docs/guide.html");
    serve(DISALLOWED, "Disallowed by robots.txt", "", HOME);
    serve(ONLY_IN_SITEMAP, "Only in the sitemap", "", HOME);
    serve("/docs/index.html", "Docs", "", "guide.html", "list.html", "list.html?page=2",
        "list.html?sort=name", "list.html?page=2&amp;sort=date", "/blog/post.html");
    serve("/docs/guide.html", "Guide", "", "index.html");
    for (String query : new String[] {"", "?page=2", "?sort=name", "?page=2&sort=date"}) {
      serve(DOCS_LIST + query, "List" + query, "", "index.html");
    }
  }

  private void sitemaps() {
    lastmods.put("/about.html", Instant.parse("2026-09-30T10:00:00Z"));
    lastmods.put(ONLY_IN_SITEMAP, Instant.parse("2026-11-01T12:00:00Z"));
    lastmods.put("/docs/index.html", Instant.parse("2026-10-15T00:00:00Z"));
    lastmods.put("/docs/guide.html", Instant.parse("2026-10-20T08:30:00Z"));
    String pages = urlset(HOME, "/about.html", ONLY_IN_SITEMAP);
    String docs = urlset("/docs/index.html", "/docs/guide.html", DOCS_LIST + "?sort=name");
    replies.put(SITEMAP_GZIP, HttpReply.of(200, "OK", "application/gzip", gzip(utf8(pages))));
    replies.put(SITEMAP_PLAIN, HttpReply.of(200, "OK", "application/xml", utf8(docs)));
    replies.put(SITEMAP_INDEX, HttpReply.of(200, "OK", "application/xml", utf8(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
            + "  <sitemap><loc>" + origin + SITEMAP_GZIP + "</loc></sitemap>\n"
            + "  <sitemap><loc>" + origin + SITEMAP_PLAIN + "</loc></sitemap>\n"
            + "</sitemapindex>\n")));
  }

  /** A urlset of {@code targets}, with their lastmod where {@link #lastmods} has one. */
  private String urlset(String... targets) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for (String target : targets) {
      listed.add(target);
      xml.append("  <url><loc>").append(origin).append(target).append("</loc>");
      Instant lastmod = lastmods.get(target);
      if (lastmod != null) {
        xml.append("<lastmod>").append(lastmod).append("</lastmod>");
      }
      xml.append("</url>\n");
    }
    return xml.append("</urlset>\n").toString();
  }

  private void serve(String target, String title, String extra, String... links) {
    replies.put(target, HttpReply.of(200, "OK", HTML, html(title, extra, links)));
  }

  /** An HTML page: {@code extra} markup, then one link per entry of {@code links}. */
  private static byte[] html(String title, String extra, String... links) {
    StringBuilder html = new StringBuilder("<!doctype html>\n<html><head><title>").append(title)
        .append("</title></head>\n<body><h1>").append(title).append("</h1>\n").append(extra).append('\n');
    for (String link : links) {
      html.append("<a href=\"").append(link).append("\">").append(link).append("</a>\n");
    }
    return utf8(html.append("</body></html>\n").toString());
  }

  /** Markup making {@link AcceptanceSite#BIG}'s body {@code 2 × maxBodyBytes + 1} bytes or more. */
  private static String big(long maxBodyBytes) {
    StringBuilder filler = new StringBuilder("<pre>\n");
    for (int line = 0; filler.length() <= 2 * maxBodyBytes; line++) {
      filler.append(String.format("%08d The quick brown fox jumps over the lazy dog.%n", line));
    }
    return filler.append("</pre>").toString();
  }

  private static byte[] image(String format, int type) {
    BufferedImage image = new BufferedImage(24, 16, type);
    for (int x = 0; x < 24; x++) {
      for (int y = 0; y < 16; y++) {
        image.setRGB(x, y, new Color(x * 10, y * 15, (x * y) % 256).getRGB());
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      if (!ImageIO.write(image, format, out)) {
        throw new IllegalStateException("no ImageIO writer for " + format);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static byte[] gzip(byte[] bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
