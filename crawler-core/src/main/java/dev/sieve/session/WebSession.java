package dev.sieve.session;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import okhttp3.Cookie;
import okhttp3.Interceptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One crawl's session: its cookie jar (when cookies are on), the user's headers and the
 * credentials per origin, applied to every request by {@link #requestStep()}. With a state
 * directory the jar is saved there ({@value #STATE_FILE}) at each checkpoint and read back on
 * resume, so a resumed crawl sends what it would have sent. Thread-safe.
 */
public final class WebSession {
  /** The jar's file in the state directory. */
  public static final String STATE_FILE = "cookies.txt";
  private static final Logger log = LoggerFactory.getLogger(WebSession.class);

  /** Null when cookies are off. */
  private final CookieStore jar;
  private final SessionStep step;
  /** Null without a state directory. */
  private final Path stateFile;

  private WebSession(SessionSettings settings, Clock clock, Path stateFile) {
    this.jar = settings.cookies() ? new CookieStore(clock, settings.maxCookiesPerDomain()) : null;
    this.step = new SessionStep(settings.headers(), settings.credentials(), jar);
    this.stateFile = stateFile;
  }

  /**
   * The session of a crawl with {@code settings}: its jar starts with the cookies the state
   * directory kept when {@code resumed}, else with the settings' cookie file.
   *
   * @param stateDir the crawl's state directory, or null
   * @throws UncheckedIOException if the kept jar cannot be read
   */
  public static WebSession open(SessionSettings settings, Clock clock, Path stateDir,
      boolean resumed) {
    Path stateFile = stateDir == null || !settings.cookies() ? null : stateDir.resolve(STATE_FILE);
    WebSession session = new WebSession(settings, clock, stateFile);
    if (session.jar == null) {
      return session;
    }
    List<Cookie> start = settings.initialCookies();
    if (resumed && stateFile != null && Files.exists(stateFile)) {
      try {
        start = CookieFile.read(stateFile);
      } catch (IllegalArgumentException e) {
        throw new UncheckedIOException(new IOException("the crawl's cookie jar: " + e.getMessage()));
      }
    }
    start.forEach(session.jar::add);
    if (!start.isEmpty()) {
      log.info("Cookie jar starts with {} cookie(s)", session.jar.all().size());
    }
    return session;
  }

  /** The step that decorates every request; give it to the fetcher. */
  public Interceptor requestStep() {
    return step;
  }

  /** The jar, null when cookies are off. */
  CookieStore jar() {
    return jar;
  }

  /** Whether cookies are kept. */
  public boolean keepsCookies() {
    return jar != null;
  }

  /** Whether cookies are kept and a response with this head (as on the wire) set one. */
  public boolean setCookie(ByteBuffer head) {
    if (jar == null || head == null) {
      return false;
    }
    String text = StandardCharsets.ISO_8859_1.decode(head).toString().toLowerCase(Locale.ROOT);
    return text.contains("\nset-cookie:");
  }

  /**
   * Saves the jar to the state directory, if the crawl has one (before each checkpoint).
   *
   * @throws UncheckedIOException naming the file, if it cannot be written
   */
  public void save() {
    if (stateFile == null) {
      return;
    }
    try {
      CookieFile.write(stateFile, jar.all());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot save the cookie jar to " + stateFile + ": " + e, e);
    }
  }

  /** Cookies not kept: {@code cookie-rejected} and {@code cookie-over-cap}, those above 0. */
  public Map<String, Long> counts() {
    Map<String, Long> counts = new TreeMap<>();
    if (jar != null) {
      put(counts, "cookie-rejected", jar.rejected.sum());
      put(counts, "cookie-over-cap", jar.overCap.sum());
    }
    return counts;
  }

  private static void put(Map<String, Long> counts, String name, long value) {
    if (value > 0) {
      counts.put(name, value);
    }
  }
}
