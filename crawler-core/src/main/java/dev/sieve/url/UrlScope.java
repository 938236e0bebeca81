package dev.sieve.url;

import com.google.common.collect.ImmutableSet;
import com.google.common.net.InetAddresses;
import com.google.common.net.InternetDomainName;
import java.util.Collection;
import java.util.Objects;

/**
 * Decides whether a URL is within a {@link Scope} of a fixed set of seed URLs. Immutable and
 * thread-safe; the seeds' origins or registrable domains are precomputed so that {@link #allows}
 * costs hash lookups.
 */
public final class UrlScope {

  private final Scope scope;
  /** Seed origins for {@link Scope#HOST}, seed registrable domains for {@link Scope#DOMAIN}. */
  private final ImmutableSet<String> keys;

  private UrlScope(Scope scope, ImmutableSet<String> keys) {
    this.scope = scope;
    this.keys = keys;
  }

  /** A scope around {@code seeds}; with no seeds, only {@link Scope#ANY} allows anything. */
  public static UrlScope of(Scope scope, Collection<Url> seeds) {
    Objects.requireNonNull(scope, "scope");
    ImmutableSet.Builder<String> keys = ImmutableSet.builder();
    for (Url seed : seeds) {
      if (scope == Scope.HOST) {
        keys.add(seed.origin());
      } else if (scope == Scope.DOMAIN) {
        keys.add(registrableDomain(seed.host()));
      }
    }
    return new UrlScope(scope, keys.build());
  }

  /** True if {@code url} is within this scope of the seeds. */
  public boolean allows(Url url) {
    switch (scope) {
      case HOST:
        return keys.contains(url.origin());
      case DOMAIN:
        return mayShareDomain(url.host()) && keys.contains(registrableDomain(url.host()));
      default:
        return true;
    }
  }

  /**
   * The registrable domain of a lower-case host: the public suffix plus one label, e.g. {@code
   * example.co.uk} for {@code www.example.co.uk}. IP addresses (IPv6 in brackets), {@code
   * localhost}, public suffixes themselves and hosts without a public suffix map to themselves.
   */
  public static String registrableDomain(String host) {
    if (host.equals("localhost") || InetAddresses.isUriInetAddress(host)) {
      return host;
    }
    try {
      InternetDomainName name = InternetDomainName.from(host);
      return name.isUnderPublicSuffix() ? name.topPrivateDomain().toString() : host;
    } catch (IllegalArgumentException | IllegalStateException e) {
      return host;
    }
  }

  /**
   * Cheap pre-check: a host's registrable domain is the host itself or one of its parent domains,
   * so unless one of those is a seed domain, the costlier {@link #registrableDomain} is skipped.
   */
  private boolean mayShareDomain(String host) {
    int from = 0;
    while (true) {
      if (keys.contains(from == 0 ? host : host.substring(from))) {
        return true;
      }
      int dot = host.indexOf('.', from);
      if (dot < 0) {
        return false;
      }
      from = dot + 1;
    }
  }
}
