package dev.sieve.app;

import dev.sieve.testing.HttpReply;
import dev.sieve.testing.WireServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;

/**
 * The site of issue 15's acceptance, served on 127.0.0.1 by a {@link WireServer} that records the
 * exact bytes of every reply, so a test can compare them with what a WARC holds.
 *
 * <p>From {@code /}, links reach: HTML pages linking each other, a PNG and a JPEG, a 301 chain
 * {@link #REDIRECT_A} → {@link #REDIRECT_B} → {@link #REDIRECT_END}, a 404 ({@link #MISSING}), a
 * body of {@code 2 × maxBodyBytes + 1} bytes ({@link #BIG}), two pages with identical bodies
 * ({@link #SAME_1}, {@link #SAME_2}), a gzip-encoded page ({@link #GZIP}) and a chunked one
 * ({@link #CHUNKED}), each linking a page found only through it, the {@code /docs/} section with
 * sorted listings ({@code ?sort=}) for {@link #INCLUDE_DOCS} and {@link #EXCLUDE_SORT}, and a
 * page robots.txt disallows. robots.txt names a sitemap index listing a gzip sitemap and a plain
 * one; {@link #ONLY_IN_SITEMAP} is listed there (with a lastmod) and linked from nowhere.
 * Replies carry no {@code Date}: the same target always gets the same bytes.
 */
public final class AcceptanceSite implements AutoCloseable {
  public static final String ROBOTS = "/robots.txt";
  public static final String HOME = "/";
  public static final String REDIRECT_A = "/redirect/a";
  public static final String REDIRECT_B = "/redirect/b";
  public static final String REDIRECT_END = "/c.html";
  public static final String MISSING = "/missing.html";
  public static final String BIG = "/big.html";
  public static final String SAME_1 = "/same/one.html";
  public static final String SAME_2 = "/same/two.html";
  public static final String GZIP = "/gzip.html";
  public static final String CHUNKED = "/chunked.html";
  public static final String PNG = "/img/logo.png";
  public static final String JPEG = "/img/photo.jpg";
  public static final String DISALLOWED = "/private/secret.html";
  public static final String ONLY_IN_SITEMAP = "/only-in-sitemap.html";
  public static final String SITEMAP_INDEX = "/sitemap-index.xml";
  public static final String SITEMAP_GZIP = "/sitemap-pages.xml.gz";
  public static final String SITEMAP_PLAIN = "/sitemap-docs.xml";
  /** An {@code --include} rule: the docs section only. */
  public static final String INCLUDE_DOCS = "/docs/";
  /** An {@code --exclude} rule: no sorted listing, wherever it is linked or listed. */
  public static final String EXCLUDE_SORT = "[?&]sort=";

  private final WireServer server;
  private final Map<String, HttpReply> replies = new ConcurrentHashMap<>();
  private final Set<String> listed;
  private final Map<String, Instant> lastmods;

  private AcceptanceSite(long maxBodyBytes) throws IOException {
    server = WireServer.start(request -> reply(request.target()));
    try {
      AcceptanceContent content = new AcceptanceContent(server.url(""), maxBodyBytes);
      replies.putAll(content.replies());
      listed = content.listed();
      lastmods = content.lastmods();
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** Starts the site; {@link #BIG}'s body is longer than {@code maxBodyBytes} (at least 1). */
  public static AcceptanceSite start(long maxBodyBytes) throws IOException {
    if (maxBodyBytes < 1 || maxBodyBytes > 64 * 1024 * 1024) {
      throw new IllegalArgumentException("maxBodyBytes (" + maxBodyBytes + ") must be in [1, 64 MiB]");
    }
    return new AcceptanceSite(maxBodyBytes);
  }

  /** {@code http://127.0.0.1:PORT}. */
  public String origin() {
    return server.url("");
  }

  /** The absolute URL of {@code target} (path and query). */
  public String url(String target) {
    return server.url(target);
  }

  /** What the site sends for {@code target}: the 404 reply for a target it does not serve. */
  public HttpReply reply(String target) {
    return replies.getOrDefault(target, AcceptanceContent.NOT_FOUND);
  }

  /** Every target served with something other than the 404. */
  public Set<String> targets() {
    return Set.copyOf(replies.keySet());
  }

  /** Every exchange so far: each request's exact head and the exact bytes sent back. */
  public List<WireServer.Exchange> exchanges() {
    return server.exchanges();
  }

  public List<WireServer.Exchange> exchanges(String target) {
    return server.exchanges(target);
  }

  /** The requests per target so far. */
  public int requests(String target) {
    return exchanges(target).size();
  }

  /**
   * The targets links and redirects reach from {@link #HOME} that robots.txt allows, decoding
   * gzip pages: what a crawl of {@code /} fetches without sitemaps or rules, robots.txt aside.
   */
  public Set<String> linked() {
    Set<String> reached = new LinkedHashSet<>();
    Deque<String> queue = new ArrayDeque<>(List.of(HOME));
    while (!queue.isEmpty()) {
      String target = queue.removeFirst();
      if (disallowed().contains(target) || !reached.add(target)) {
        continue;
      }
      HttpReply reply = reply(target);
      reply.field("Location").map(l -> sameOrigin(URI.create(url(target)).resolve(l)))
          .ifPresent(queue::addLast);
      if (reply.status() == 200 && reply.field("Content-Type").orElse("").startsWith("text/html")) {
        for (Element a : Jsoup.parse(html(reply), url(target)).select("a[href]")) {
          String next = sameOrigin(URI.create(a.absUrl("href")));
          if (next != null) {
            queue.addLast(next);
          }
        }
      }
    }
    return reached;
  }

  /** Targets linked from the site that robots.txt disallows. */
  public Set<String> disallowed() {
    return Set.of(DISALLOWED);
  }

  /** The sitemap files: robots.txt's index and the two sitemaps it lists. */
  public Set<String> sitemaps() {
    return Set.of(SITEMAP_INDEX, SITEMAP_GZIP, SITEMAP_PLAIN);
  }

  /** The targets the two sitemaps list. */
  public Set<String> listed() {
    return listed;
  }

  /** The lastmod the sitemaps give, for the listed targets that have one. */
  public Map<String, Instant> lastmods() {
    return lastmods;
  }

  /** Listed in a sitemap and linked from nowhere. */
  public Set<String> sitemapOnly() {
    return Set.of(ONLY_IN_SITEMAP);
  }

  private String sameOrigin(URI uri) {
    if (!uri.getScheme().equals("http") || !uri.getHost().equals("127.0.0.1") || uri.getPort() != server.port()) {
      return null;
    }
    return uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
  }

  private static String html(HttpReply reply) {
    byte[] body = reply.body();
    if (reply.field("Content-Encoding").filter("gzip"::equalsIgnoreCase).isPresent()) {
      try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
        body = in.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new String(body, StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    server.close();
  }
}
