package dev.sieve.url;

import java.util.Locale;
import java.util.Optional;

/** How far a crawl may wander from its seeds; see {@link UrlScope} for the check itself. */
public enum Scope {
  /** Same origin as a seed: same scheme, host and port. */
  HOST,
  /**
   * Same registrable domain as a seed, e.g. {@code a.example.co.uk} and {@code b.example.co.uk};
   * IP addresses, {@code localhost} and hosts without a public suffix must match exactly.
   */
  DOMAIN,
  /** Anywhere. */
  ANY;

  /** Parses {@code "host"}, {@code "domain"} or {@code "any"}, ignoring case and surrounding space. */
  public static Optional<Scope> fromString(String name) {
    if (name == null) {
      return Optional.empty();
    }
    switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "host":
        return Optional.of(HOST);
      case "domain":
        return Optional.of(DOMAIN);
      case "any":
        return Optional.of(ANY);
      default:
        return Optional.empty();
    }
  }
}
