package dev.sieve.frontier.urlfrontier;

import java.net.URI;
import java.net.URISyntaxException;

/** Where a URL Frontier service listens: {@code urlfrontier://HOST:PORT}. */
record ServiceAddress(String host, int port) {
  static final String SCHEME = "urlfrontier";

  /**
   * Parses {@code uri}.
   *
   * @throws IllegalArgumentException naming the option when it is not {@code
   *     urlfrontier://HOST:PORT}
   */
  static ServiceAddress parse(String uri) {
    try {
      URI parsed = new URI(uri.strip());
      if (SCHEME.equalsIgnoreCase(parsed.getScheme()) && parsed.getHost() != null
          && parsed.getPort() > 0 && (parsed.getPath() == null || parsed.getPath().isEmpty()
              || parsed.getPath().equals("/"))) {
        return new ServiceAddress(parsed.getHost(), parsed.getPort());
      }
    } catch (URISyntaxException e) {
      // Reported below with the expected form.
    }
    throw new IllegalArgumentException("--frontier (" + uri + ") must be urlfrontier://HOST:PORT");
  }

  @Override
  public String toString() {
    return SCHEME + "://" + (host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host)
        + ":" + port;
  }
}
