package dev.sieve.frontier;

import dev.sieve.url.Url;
import dev.sieve.url.UrlScope;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** What a politeness queue is keyed by: the spacing and in-flight limits hold per key. */
public enum QueueKey {
  /** One queue per host name (ports of one host share it: they are one server). */
  HOST,
  /** One queue per registrable domain: {@code a.example.com} and {@code b.example.com} share. */
  DOMAIN,
  /**
   * One queue per IP address: many host names served by one machine share its politeness. The
   * host is resolved when a URL is queued (the JVM caches answers); a host that does not resolve
   * keys by its name, and its fetch reports the DNS failure.
   */
  IP;

  String of(Url url) {
    return switch (this) {
      case HOST -> url.host();
      case DOMAIN -> UrlScope.registrableDomain(url.host());
      case IP -> address(url.host());
    };
  }

  private static String address(String host) {
    String name = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    try {
      return InetAddress.getByName(name).getHostAddress();
    } catch (UnknownHostException | SecurityException e) {
      return host;
    }
  }
}
