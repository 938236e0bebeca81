package dev.sieve.app;

import dev.sieve.fetch.FetchSettings;
import dev.sieve.fetch.ProxyServer;
import dev.sieve.fetch.ProxySettings;
import dev.sieve.fetch.TlsSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code crawl}'s options for how fetches reach servers: the proxy (else the environment's proxy
 * variables) and the certificate authorities trusted besides the system's.
 */
final class TransportOptions {
  @Setting("proxy")
  @Option(names = "--proxy", paramLabel = "URL",
      description = "Fetch everything (robots.txt and sitemaps too) through this proxy: http://, https:// or socks5://, with user:password@ if it wants credentials; hosts named by NO_PROXY go direct. Without it, HTTPS_PROXY, HTTP_PROXY, ALL_PROXY and NO_PROXY (either case) are read as curl reads them. A dead proxy stops the crawl (exit 69).")
  String proxy;

  @Setting("caCert")
  @Option(names = "--ca-cert", paramLabel = "FILE",
      description = "Trust the certificate authorities in this PEM file besides the system's, e.g. a private CA.")
  Path caCert;

  /**
   * Sets the proxies (from {@code --proxy}, else {@code env}) and trust anchors of {@code fetch}.
   *
   * @throws IllegalArgumentException naming the option or variable, for a value that cannot be
   *     used (never showing credentials)
   */
  void applyTo(FetchSettings.Builder fetch, Map<String, String> env) {
    ProxyServer server = proxy == null ? null : ProxyServer.parse("proxy", proxy);
    fetch.proxies(ProxySettings.choose(server, env));
    fetch.tls(caCert == null ? TlsSettings.system() : TlsSettings.withCaCerts(List.of(caCert)));
  }
}
