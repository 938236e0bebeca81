package dev.sieve.url;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UrlScopeTest {

  private static Url url(String raw) {
    return Url.parse(raw).orElseThrow(() -> new AssertionError("rejected: " + raw));
  }

  private static UrlScope scope(Scope scope, String... seeds) {
    return UrlScope.of(scope, java.util.Arrays.stream(seeds).map(UrlScopeTest::url).toList());
  }

  @Test
  void host_sameOrigin_allowed() {
    UrlScope scope = scope(Scope.HOST, "https://www.example.com/start");

    assertThat(scope.allows(url("https://WWW.example.com:443/other?q"))).isTrue();
  }

  @ParameterizedTest
  @CsvSource({
    "http://www.example.com/",
    "https://www.example.com:8443/",
    "https://example.com/",
    "https://sub.www.example.com/",
    "https://www.example.org/",
  })
  void host_differentSchemePortOrHost_rejected(String candidate) {
    UrlScope scope = scope(Scope.HOST, "https://www.example.com/start");

    assertThat(scope.allows(url(candidate))).isFalse();
  }

  @Test
  void host_severalSeeds_anySeedOriginAllowed() {
    UrlScope scope = scope(Scope.HOST, "http://a.test/", "http://b.test:8080/");

    assertThat(scope.allows(url("http://a.test/x"))).isTrue();
    assertThat(scope.allows(url("http://b.test:8080/y"))).isTrue();
    assertThat(scope.allows(url("http://b.test/y"))).isFalse();
  }

  @ParameterizedTest
  @CsvSource({
    "http://b.example.co.uk/",
    "https://example.co.uk/",
    "http://deep.sub.example.co.uk:8080/x",
  })
  void domain_siblingSubdomainUnderMultiLabelSuffix_allowed(String candidate) {
    UrlScope scope = scope(Scope.DOMAIN, "http://a.example.co.uk/");

    assertThat(scope.allows(url(candidate))).isTrue();
  }

  @ParameterizedTest
  @CsvSource({
    "http://other.co.uk/",
    "http://co.uk/",
    "http://example.com/",
    "http://a.example.co.uk.evil.com/",
    "http://notexample.co.uk/",
  })
  void domain_otherRegistrableDomain_rejected(String candidate) {
    UrlScope scope = scope(Scope.DOMAIN, "http://a.example.co.uk/");

    assertThat(scope.allows(url(candidate))).isFalse();
  }

  @Test
  void domain_ipSeed_onlyThatIpAllowed() {
    UrlScope scope = scope(Scope.DOMAIN, "http://192.168.1.10/", "http://[::1]:8080/");

    assertThat(scope.allows(url("https://192.168.1.10:8443/x"))).isTrue();
    assertThat(scope.allows(url("http://192.168.1.11/"))).isFalse();
    assertThat(scope.allows(url("http://10.192.168.1.10.example/"))).isFalse();
    assertThat(scope.allows(url("http://[::1]/"))).isTrue();
    assertThat(scope.allows(url("http://[::2]/"))).isFalse();
  }

  @Test
  void domain_localhostSeed_onlyLocalhostAllowed() {
    UrlScope scope = scope(Scope.DOMAIN, "http://localhost:8080/");

    assertThat(scope.allows(url("http://localhost:9090/"))).isTrue();
    assertThat(scope.allows(url("http://foo.localhost/"))).isFalse();
  }

  @Test
  void domain_privateSuffixSeed_subdomainsAreOtherSites() {
    UrlScope scope = scope(Scope.DOMAIN, "https://alice.github.io/");

    assertThat(scope.allows(url("https://alice.github.io/repo"))).isTrue();
    assertThat(scope.allows(url("https://bob.github.io/"))).isFalse();
  }

  @Test
  void any_anyHttpUrl_allowed() {
    UrlScope scope = UrlScope.of(Scope.ANY, List.of());

    assertThat(scope.allows(url("https://anything.example.net:1234/x"))).isTrue();
  }

  @Test
  void hostAndDomain_noSeeds_allowNothing() {
    assertThat(UrlScope.of(Scope.HOST, List.of()).allows(url("http://a.com/"))).isFalse();
    assertThat(UrlScope.of(Scope.DOMAIN, List.of()).allows(url("http://a.com/"))).isFalse();
  }

  @ParameterizedTest
  @CsvSource({
    "www.example.co.uk, example.co.uk",
    "a.b.example.com, example.com",
    "example.com, example.com",
    "alice.github.io, alice.github.io",
    "192.168.0.1, 192.168.0.1",
    "'[::1]', '[::1]'",
    "localhost, localhost",
    "intranet, intranet",
    "host.internal-only, host.internal-only",
    "co.uk, co.uk",
  })
  void registrableDomain_host_topPrivateDomainOrHostItself(String host, String expected) {
    assertThat(UrlScope.registrableDomain(host)).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource({"host, HOST", "DOMAIN, DOMAIN", "' Any ', ANY"})
  void fromString_knownNameAnyCase_parsed(String name, Scope expected) {
    assertThat(Scope.fromString(name)).contains(expected);
  }

  @Test
  void fromString_unknownOrNull_empty() {
    assertThat(Scope.fromString("subdomain")).isEmpty();
    assertThat(Scope.fromString("")).isEmpty();
    assertThat(Scope.fromString(null)).isEmpty();
  }
}
