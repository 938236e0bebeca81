package dev.sieve.frontier;

import dev.sieve.url.Url;
import dev.sieve.url.UrlScope;

/** What a politeness queue is keyed by: the spacing and in-flight limits hold per key. */
public enum QueueKey {
  /** One queue per host name (ports of one host share it: they are one server). */
  HOST,
  /** One queue per registrable domain: {@code a.example.com} and {@code b.example.com} share. */
  DOMAIN;

  String of(Url url) {
    return this == HOST ? url.host() : UrlScope.registrableDomain(url.host());
  }
}
