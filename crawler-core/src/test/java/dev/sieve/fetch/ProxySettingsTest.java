package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which proxy a URL goes through, from --proxy or the environment, with curl's meanings. */
class ProxySettingsTest {
  @Test
  void parse_schemesPortsAndCredentials_asCurlReadsThem() {
    ProxyServer socks = ProxyServer.parse("proxy", "socks5://bob:p%40ss@proxy.example:1081");
    ProxyServer bare = ProxyServer.parse("proxy", "proxy.example");
    ProxyServer https = ProxyServer.parse("proxy", "https://proxy.example");

    assertThat(socks.kind()).isEqualTo(ProxyServer.Kind.SOCKS5);
    assertThat(socks.user()).isEqualTo("bob");
    assertThat(socks.password()).isEqualTo("p@ss");
    assertThat(socks.toString()).isEqualTo("socks5://proxy.example:1081");
    assertThat(bare.kind()).isEqualTo(ProxyServer.Kind.HTTP);
    assertThat(bare.port()).isEqualTo(1080);
    assertThat(bare.hasCredentials()).isFalse();
    assertThat(https.port()).isEqualTo(443);
  }

  @Test
  void parse_badValue_messageNamesTheOptionNeverTheCredentials() {
    assertThatThrownBy(() -> ProxyServer.parse("proxy", "ftp://bob:hunter2@proxy.example:21"))
        .hasMessage("proxy (ftp://***@proxy.example:21) must be an http://, https:// or socks5:// URL")
        .hasMessageNotContaining("hunter2");
    assertThatThrownBy(() -> ProxyServer.parse("HTTPS_PROXY", "http://bob:hunter2@proxy.example/path"))
        .hasMessageStartingWith("HTTPS_PROXY (").hasMessageNotContaining("hunter2");
  }

  @Test
  void fromEnvironment_eachSchemeItsVariable_allProxyForTheRest() {
    ProxySettings proxies = ProxySettings.fromEnvironment(Map.of(
        "HTTPS_PROXY", "http://secure.example:3128", "all_proxy", "socks5://any.example:1080"));

    assertThat(proxies.forUrl("https", "a.example").orElseThrow().host()).isEqualTo("secure.example");
    assertThat(proxies.forUrl("http", "a.example").orElseThrow().host()).isEqualTo("any.example");
  }

  @Test
  void fromEnvironment_lowerCaseWins_emptyIsUnset() {
    ProxySettings proxies = ProxySettings.fromEnvironment(Map.of(
        "http_proxy", "lower.example:1", "HTTP_PROXY", "upper.example:2", "https_proxy", ""));

    assertThat(proxies.forUrl("http", "a.example").orElseThrow().host()).isEqualTo("lower.example");
    assertThat(proxies.forUrl("https", "a.example")).isEmpty();
    assertThat(ProxySettings.fromEnvironment(Map.of()).isDirect()).isTrue();
  }

  @Test
  void forUrl_loopbackAndPrivateHosts_goThroughTheProxyUnlessNamed() {
    ProxySettings proxies = ProxySettings.of(ProxyServer.parse("proxy", "proxy.example:3128"), null);

    for (String host : new String[] {"localhost", "127.0.0.1", "[::1]", "10.1.2.3", "a.example"}) {
      assertThat(proxies.forUrl("http", host)).as(host).isPresent();
    }
  }

  @Test
  void forUrl_noProxy_namesDomainsAddressesRangesOrStar() {
    ProxyServer proxy = ProxyServer.parse("proxy", "proxy.example:3128");
    ProxySettings proxies = ProxySettings.of(proxy, "example.com, .corp.test 10.0.0.0/8,::1,localhost:8080");

    assertThat(proxies.forUrl("http", "example.com")).isEmpty();
    assertThat(proxies.forUrl("http", "www.example.com")).isEmpty();
    assertThat(proxies.forUrl("http", "notexample.com")).isPresent();
    assertThat(proxies.forUrl("https", "a.corp.test")).isEmpty();
    assertThat(proxies.forUrl("http", "10.200.0.1")).isEmpty();
    assertThat(proxies.forUrl("http", "11.0.0.1")).isPresent();
    assertThat(proxies.forUrl("http", "[::1]")).isEmpty();
    assertThat(proxies.forUrl("http", "localhost")).isEmpty();
    assertThat(ProxySettings.of(proxy, "*").forUrl("http", "a.example")).isEmpty();
  }

  @Test
  void choose_optionWinsOverTheEnvironment_noProxyStillApplies() {
    ProxySettings proxies = ProxySettings.choose(ProxyServer.parse("proxy", "option.example:1"),
        Map.of("HTTP_PROXY", "env.example:2", "NO_PROXY", "skip.example"));

    assertThat(proxies.forUrl("http", "a.example").orElseThrow().host()).isEqualTo("option.example");
    assertThat(proxies.forUrl("https", "a.example").orElseThrow().host()).isEqualTo("option.example");
    assertThat(proxies.forUrl("http", "skip.example")).isEmpty();
    assertThat(proxies.toString()).isEqualTo("all URLs via http://option.example:1, except NO_PROXY skip.example");
  }

  @Test
  void noProxy_badRange_refusedNamingTheVariable() {
    assertThatThrownBy(() -> ProxySettings.fromEnvironment(
        Map.of("HTTP_PROXY", "p.example:1", "no_proxy", "10.0.0.0/40")))
        .hasMessage("no_proxy (10.0.0.0/40) has a bad CIDR range: 10.0.0.0/40");
  }
}
