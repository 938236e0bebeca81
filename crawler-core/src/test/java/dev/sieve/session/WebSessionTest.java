package dev.sieve.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import okhttp3.Cookie;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The session's parts on their own: the jar's RFC 6265 rules and cap, its files, the settings. */
class WebSessionTest {
  private static final Instant NOW = Instant.parse("2026-11-27T09:00:00Z");
  private final MutableClock clock = new MutableClock(NOW);
  private final CookieStore jar = new CookieStore(clock, 3);
  @TempDir Path dir;

  @Test
  void jar_domainCookie_sentToSubdomainsOfItsRegistrableDomainOnly() {
    jar.receive(url("https://www.example.co.uk/"), List.of("id=1; Domain=example.co.uk; Path=/"));

    assertThat(jar.header(url("https://shop.example.co.uk/a"))).isEqualTo("id=1");
    assertThat(jar.header(url("https://example.co.uk/"))).isEqualTo("id=1");
    assertThat(jar.header(url("https://other.co.uk/"))).isNull();
    assertThat(jar.header(url("https://example.com/"))).isNull();
  }

  @Test
  void jar_cookieForAPublicSuffixOrAnotherDomain_rejectedAndCounted() {
    jar.receive(url("https://www.example.co.uk/"), List.of("a=1; Domain=co.uk", "b=2; Domain=evil.com"));

    assertThat(jar.header(url("https://www.example.co.uk/"))).isNull();
    assertThat(jar.header(url("https://evil.com/"))).isNull();
    assertThat(jar.rejected.sum()).isEqualTo(2);
  }

  @Test
  void jar_pathSecureAndHostOnly_obeyed_longerPathFirst() {
    HttpUrl page = url("https://example.com/docs/page");
    jar.receive(page, List.of("root=r; Path=/", "docs=d; Path=/docs", "tls=t; Secure"));

    // tls=t has no Path: its default is the page's directory, /docs.
    assertThat(jar.header(url("https://example.com/docs/x"))).isEqualTo("docs=d; tls=t; root=r");
    assertThat(jar.header(url("https://example.com/x"))).isEqualTo("root=r");
    assertThat(jar.header(url("http://example.com/other"))).isEqualTo("root=r");
    assertThat(jar.header(url("https://www.example.com/"))).as("host-only").isNull();
  }

  @Test
  void jar_expiredByTheClock_notSent_andMaxAgeZeroDeletes() {
    HttpUrl site = url("http://example.com/");
    jar.receive(site, List.of("keep=1; Expires=Fri, 27 Nov 2026 10:00:00 GMT", "gone=1; Max-Age=3600"));
    jar.receive(site, List.of("gone=1; Max-Age=0"));
    assertThat(jar.header(site)).isEqualTo("keep=1");

    clock.advance(Duration.ofHours(2));

    assertThat(jar.header(site)).isNull();
  }

  @Test
  void jar_pastTheCapPerDomain_newCookiesDroppedAndCounted_replacingStillWorks() {
    HttpUrl site = url("http://example.com/");
    jar.receive(site, List.of("a=1", "b=1", "c=1", "d=1"));
    jar.receive(site, List.of("a=2"));

    assertThat(jar.header(site)).isEqualTo("b=1; c=1; a=2");
    assertThat(jar.overCap.sum()).isEqualTo(1);
  }

  @Test
  void cookieFile_writtenAndReadBack_sameCookies_ownerOnly() throws IOException {
    HttpUrl site = url("https://example.com/");
    jar.receive(site, List.of("session=s1; HttpOnly", "pref=p; Domain=example.com; Path=/docs; Secure;"
        + " Expires=Sat, 27 Nov 2027 09:00:00 GMT"));
    Path file = dir.resolve("cookies.txt");

    CookieFile.write(file, jar.all());
    List<Cookie> read = CookieFile.read(file);

    assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(read).extracting(Cookie::name, Cookie::hostOnly, Cookie::secure, Cookie::httpOnly, Cookie::persistent)
        .containsExactlyInAnyOrder(
            org.assertj.core.api.Assertions.tuple("session", true, false, true, false),
            org.assertj.core.api.Assertions.tuple("pref", false, true, false, true));
    assertThat(read).filteredOn(c -> c.name().equals("pref")).singleElement()
        .satisfies(c -> assertThat(c.expiresAt()).isEqualTo(Instant.parse("2027-11-27T09:00:00Z").toEpochMilli()));
  }

  @Test
  void cookieFile_curlsFormat_read() throws IOException {
    Path file = dir.resolve("curl.txt");
    Files.writeString(file, "# Netscape HTTP Cookie File\n\n"
        + ".example.com\tTRUE\t/\tFALSE\t0\tsid\tabc\n"
        + "#HttpOnly_shop.example.com\tFALSE\t/cart\tTRUE\t1893456000\tcart\txyz\n");

    List<Cookie> cookies = CookieFile.read(file);

    assertThat(cookies).extracting(Cookie::name, Cookie::domain, Cookie::path, Cookie::httpOnly)
        .containsExactly(org.assertj.core.api.Assertions.tuple("sid", "example.com", "/", false),
            org.assertj.core.api.Assertions.tuple("cart", "shop.example.com", "/cart", true));
  }

  @Test
  void cookieFile_badLine_refusedByLineWithoutItsValue() throws IOException {
    Path file = dir.resolve("bad.txt");
    Files.writeString(file, "example.com\tMAYBE\t/\tFALSE\t0\tsid\tsecret-value\n");

    assertThatThrownBy(() -> SessionSettings.builder().cookieFile(file).build())
        .hasMessageStartingWith("cookieFile (" + file + ") line 1 ")
        .hasMessageNotContaining("secret-value");
  }

  @Test
  void session_resumed_startsWithTheJarItSaved() {
    SessionSettings settings = SessionSettings.defaults();
    WebSession first = WebSession.open(settings, clock, dir, false);
    first.jar().receive(url("http://example.com/"), List.of("consent=yes"));
    first.save();

    WebSession resumed = WebSession.open(settings, clock, dir, true);
    WebSession fresh = WebSession.open(settings, clock, dir, false);

    assertThat(Files.exists(dir.resolve(WebSession.STATE_FILE))).isTrue();
    assertThat(resumed.jar().header(url("http://example.com/"))).isEqualTo("consent=yes");
    assertThat(fresh.jar().header(url("http://example.com/"))).isNull();
  }

  @Test
  void authFile_readableByOthers_refusedNamingTheFile() throws IOException {
    Path file = dir.resolve("auth");
    Files.writeString(file, "https://example.com basic u:p\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

    assertThatThrownBy(() -> SessionSettings.builder().authFile(file).build())
        .hasMessage("authFile (" + file + ") is readable by group or others (rw-r--r--): it holds"
            + " credentials; chmod 600 it");
  }

  @Test
  void authFile_perOrigin_defaultPortsAndBearer_badLineNamedWithoutSecret() throws IOException {
    Path file = ownerOnly("auth", "# comment\nhttps://example.com basic u:p\nhttp://api.example.com:8080 bearer T0K\n");
    Credentials credentials = SessionSettings.builder().authFile(file).build().credentials();

    assertThat(credentials.authorization(url("https://example.com:443/x"))).isEqualTo("Basic dTpw");
    assertThat(credentials.authorization(url("http://example.com/x"))).isNull();
    assertThat(credentials.authorization(url("http://api.example.com:8080/"))).isEqualTo("Bearer T0K");
    assertThat(credentials.authorization(url("http://api.example.com/"))).isNull();

    Path bad = ownerOnly("bad", "https://example.com/path basic u:hunter2\n");
    assertThatThrownBy(() -> SessionSettings.builder().authFile(bad).build())
        .hasMessageStartingWith("authFile (" + bad + ") line 1: ").hasMessageNotContaining("hunter2");
  }

  @Test
  void header_hostCookieAndHopByHop_refusedNamingTheHeader() {
    for (String refused : List.of("Host: x", "cookie: a=1", "Connection: close", "Transfer-Encoding: x",
        "Authorization: Basic x")) {
      assertThatThrownBy(() -> SessionSettings.builder().header(refused).build())
          .hasMessageStartingWith("header (" + refused.substring(0, refused.indexOf(':')) + ") is refused: ");
    }
    assertThatThrownBy(() -> SessionSettings.builder().header("no colon").build())
        .hasMessage("header (no colon) must be 'Name: value'");
    assertThat(SessionSettings.builder().header("Accept-Language: fr, en;q=0.5").build().headers())
        .singleElement().satisfies(h -> assertThat(h).containsExactly("Accept-Language", "fr, en;q=0.5"));
  }

  private Path ownerOnly(String name, String text) throws IOException {
    Path file = dir.resolve(name);
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, text);
    return file;
  }

  private static HttpUrl url(String url) {
    return HttpUrl.get(url);
  }

  /** A clock tests move by hand. */
  private static final class MutableClock extends Clock {
    private Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }
}
