package dev.sieve.serve.access;

import java.util.Set;

/**
 * The role each URL Frontier RPC needs. The calls that only look (list, count, stats, the active
 * flag, a URL's status) need {@link Role#READ}; every other, known or added by a later API
 * version, needs {@link Role#WRITE}. GetURLs needs a write token: it leases the URLs it returns,
 * taking them from every other client until the lease ends.
 */
final class RpcRoles {
  private static final Set<String> READ_ONLY = Set.of("ListNodes", "ListCrawls", "ListQueues",
      "ListURLs", "CountURLs", "GetStats", "GetActive", "GetURLStatus");

  private RpcRoles() {}

  /** The role {@code method} (its bare name, {@code PutURLs}) needs. */
  static Role needed(String method) {
    return READ_ONLY.contains(method) ? Role.READ : Role.WRITE;
  }
}
