package dev.sieve.frontier.urlfrontier;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Where a URL Frontier service listens: {@code urlfrontier://HOST:PORT} in plaintext, {@code
 * urlfrontier+tls://HOST:PORT} over TLS.
 */
record ServiceAddress(String host, int port, boolean tls) {
  static final String SCHEME = "urlfrontier";
  static final String TLS_SCHEME = "urlfrontier+tls";

  /**
   * Parses {@code uri}.
   *
   * @throws IllegalArgumentException naming the option when it is not {@code
   *     urlfrontier[+tls]://HOST:PORT}
   */
  static ServiceAddress parse(String uri) {
    try {
      URI parsed = new URI(uri.strip());
      String scheme = parsed.getScheme();
      boolean tls = TLS_SCHEME.equalsIgnoreCase(scheme);
      if ((tls || SCHEME.equalsIgnoreCase(scheme)) && parsed.getHost() != null
          && parsed.getPort() > 0 && (parsed.getPath() == null || parsed.getPath().isEmpty()
              || parsed.getPath().equals("/"))) {
        return new ServiceAddress(parsed.getHost(), parsed.getPort(), tls);
      }
    } catch (URISyntaxException e) {
      // Reported below with the expected form.
    }
    throw new IllegalArgumentException("--frontier (" + uri
        + ") must be urlfrontier://HOST:PORT or urlfrontier+tls://HOST:PORT");
  }

  @Override
  public String toString() {
    return (tls ? TLS_SCHEME : SCHEME) + "://"
        + (host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
  }
}
