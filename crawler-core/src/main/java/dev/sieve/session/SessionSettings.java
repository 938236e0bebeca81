package dev.sieve.session;

import dev.sieve.settings.Check;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import okhttp3.Cookie;

/**
 * What a crawl sends beyond the request itself: whether it keeps cookies (and which it starts
 * with), headers of the user's own, and credentials per origin. Immutable; built with {@link
 * #builder()} and validated once in {@link Builder#build()}, which reads the files named. Each
 * default is a constant here.
 */
public final class SessionSettings {
  /** Default {@link Builder#maxCookiesPerDomain}: RFC 6265 asks a jar to keep at least 50. */
  public static final int DEFAULT_MAX_COOKIES_PER_DOMAIN = 50;

  /**
   * Headers {@link Builder#header} refuses, lower case, with the reason: hop-by-hop ones, and
   * those the crawler sets itself.
   */
  private static final Map<String, String> REFUSED = Map.ofEntries(
      Map.entry("host", "the crawler sends each URL's own"),
      Map.entry("cookie", "the cookie jar sends cookies (--cookies FILE loads some)"),
      Map.entry("authorization", "it would go to every origin: use --auth-file, per origin"),
      Map.entry("proxy-authorization", "a hop-by-hop header"),
      Map.entry("user-agent", "use --user-agent, which robots.txt is read for"),
      Map.entry("accept-encoding", "the crawler asks for gzip, the encoding it decodes"),
      Map.entry("content-length", "a GET has no body"),
      Map.entry("connection", "a hop-by-hop header"),
      Map.entry("keep-alive", "a hop-by-hop header"),
      Map.entry("proxy-connection", "a hop-by-hop header"),
      Map.entry("te", "a hop-by-hop header"),
      Map.entry("trailer", "a hop-by-hop header"),
      Map.entry("transfer-encoding", "a hop-by-hop header"),
      Map.entry("upgrade", "a hop-by-hop header"));

  private final boolean cookies;
  private final List<Cookie> initialCookies;
  private final List<String[]> headers;
  private final Credentials credentials;
  private final int maxCookiesPerDomain;

  private SessionSettings(Builder b) {
    this.cookies = b.cookies;
    this.initialCookies = List.copyOf(b.initialCookies);
    this.headers = List.copyOf(b.parsedHeaders);
    this.credentials = b.credentials;
    this.maxCookiesPerDomain = b.maxCookiesPerDomain;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Cookies kept, no headers or credentials of one's own. */
  public static SessionSettings defaults() {
    return builder().build();
  }

  /** Whether the crawl keeps a cookie jar. */
  public boolean cookies() {
    return cookies;
  }

  /** Cookies kept per registrable domain at most. */
  public int maxCookiesPerDomain() {
    return maxCookiesPerDomain;
  }

  /** How many headers of the user's own are sent with every request. */
  public int headerCount() {
    return headers.size();
  }

  /** How many origins have credentials. */
  public int credentialOrigins() {
    return credentials.size();
  }

  List<Cookie> initialCookies() {
    return initialCookies;
  }

  List<String[]> headers() {
    return headers;
  }

  Credentials credentials() {
    return credentials;
  }

  /** Configures {@link SessionSettings}; not thread-safe. */
  public static final class Builder {
    private boolean cookies = true;
    private Path cookieFile;
    private final List<String> headerLines = new ArrayList<>();
    private Path authFile;
    private int maxCookiesPerDomain = DEFAULT_MAX_COOKIES_PER_DOMAIN;
    private List<Cookie> initialCookies = List.of();
    private final List<String[]> parsedHeaders = new ArrayList<>();
    private Credentials credentials = Credentials.NONE;

    private Builder() {}

    /** Keep a cookie jar for the crawl (default true). */
    public Builder cookies(boolean keep) {
      this.cookies = keep;
      return this;
    }

    /** Start the jar with the cookies of a Netscape {@code cookies.txt} (default none). */
    public Builder cookieFile(Path file) {
      this.cookieFile = file;
      return this;
    }

    /**
     * Sends {@code line} ({@code "Name: value"}) with every request; repeatable. {@code Host},
     * {@code Cookie}, {@code Authorization} and hop-by-hop headers are refused.
     */
    public Builder header(String line) {
      headerLines.add(line);
      return this;
    }

    /**
     * Credentials per origin, from a file only its owner may read: {@code https://host[:port]
     * basic user:password} or {@code … bearer TOKEN} lines (default none).
     */
    public Builder authFile(Path file) {
      this.authFile = file;
      return this;
    }

    /** Cookies kept per registrable domain at most (default 50). */
    public Builder maxCookiesPerDomain(int max) {
      this.maxCookiesPerDomain = max;
      return this;
    }

    /**
     * Validates the settings and reads the files.
     *
     * @throws IllegalArgumentException naming the setting ({@code header}, {@code cookieFile},
     *     {@code authFile}…) and the cause, never a secret
     */
    public SessionSettings build() {
      Check.positive("maxCookiesPerDomain", maxCookiesPerDomain);
      parsedHeaders.clear();
      for (String line : headerLines) {
        parsedHeaders.add(parseHeader(line));
      }
      if (cookieFile != null && !cookies) {
        throw new IllegalArgumentException("cookieFile (" + cookieFile + ") needs the cookie jar,"
            + " which is off");
      }
      initialCookies = cookieFile == null ? List.of() : CookieFile.read(cookieFile);
      credentials = authFile == null ? Credentials.NONE : Credentials.read(authFile);
      return new SessionSettings(this);
    }

    private static String[] parseHeader(String line) {
      int colon = line == null ? -1 : line.indexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException("header (" + line + ") must be 'Name: value'");
      }
      String name = line.substring(0, colon).strip();
      String value = line.substring(colon + 1).strip();
      if (!name.chars().allMatch(Builder::isTokenChar) || name.isEmpty()) {
        throw new IllegalArgumentException("header (" + name + ") is not a header name");
      }
      String why = REFUSED.get(name.toLowerCase(Locale.ROOT));
      if (why != null) {
        throw new IllegalArgumentException("header (" + name + ") is refused: " + why);
      }
      if (value.chars().anyMatch(c -> c < 0x20 && c != '\t' || c == 0x7f)) {
        throw new IllegalArgumentException("header (" + name + ") has a control character in"
            + " its value");
      }
      return new String[] {name, value};
    }

    private static boolean isTokenChar(int c) {
      return c > 0x20 && c < 0x7f && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
    }
  }
}
