package dev.sieve.frontier;

import dev.sieve.url.Url;
import dev.sieve.url.UrlScope;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * What a politeness queue is keyed by: the spacing and in-flight limits hold per key. Every key
 * keeps the port apart, so that a dead {@code 127.0.0.1:9} never holds up a live {@code
 * 127.0.0.1:18001}: each port is its own server, as robots.txt (RFC 9309) treats it.
 */
public enum QueueKey {
  /**
   * One queue per authority (scheme, host, port), spelled as {@link Url#origin()}, e.g. {@code
   * http://example.com} or {@code http://127.0.0.1:8080}.
   */
  HOST,
  /**
   * One queue per registrable domain and port: {@code a.example.com} and {@code b.example.com}
   * share {@code example.com:443}.
   */
  DOMAIN,
  /**
   * One queue per IP address and port: many host names served by one machine share its
   * politeness, e.g. {@code 127.0.0.1:8080}. The host is resolved when a URL is queued (the JVM
   * caches answers); a host that does not resolve keys by its name, and its fetch reports the DNS
   * failure.
   */
  IP;

  public String of(Url url) {
    return switch (this) {
      case HOST -> url.origin();
      case DOMAIN -> UrlScope.registrableDomain(url.host()) + ":" + url.port();
      case IP -> address(url.host()) + ":" + url.port();
    };
  }

  private static String address(String host) {
    String name = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    try {
      String address = InetAddress.getByName(name).getHostAddress();
      return address.indexOf(':') >= 0 ? "[" + address + "]" : address;
    } catch (UnknownHostException | SecurityException e) {
      return host;
    }
  }
}
