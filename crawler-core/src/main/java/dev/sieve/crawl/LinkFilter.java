package dev.sieve.crawl;

import dev.sieve.fetch.AddressPolicy;
import dev.sieve.scope.UrlRules;
import dev.sieve.url.Url;
import dev.sieve.url.UrlScope;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Decides whether a discovered link (or redirect target, or URL listed in a sitemap) is followed:
 * depth, scope, the {@code --include}/{@code --exclude} rules, and the traps and hazards of the
 * web. Returns the {@link LinkFate} of a refused link, so every refusal is counted. Immutable,
 * thread-safe.
 */
final class LinkFilter {
  private final UrlScope scope;
  private final UrlRules rules;
  private final int maxDepth;
  private final int maxUrlLength;
  private final int maxPathDepth;
  private final int maxRepeatedSegments;
  private final boolean allowPrivate;
  private final Set<String> seedHosts;

  /** Links relative to {@code seeds} (a resumed crawl's, which may differ from the config's). */
  LinkFilter(CrawlConfig config, java.util.List<Url> seeds) {
    this.scope = UrlScope.of(config.scope.scope(), seeds);
    this.rules = config.scope.rules();
    this.maxDepth = config.scope.maxDepth();
    this.maxUrlLength = config.scope.maxUrlLength();
    this.maxPathDepth = config.scope.maxPathDepth();
    this.maxRepeatedSegments = config.scope.maxRepeatedSegments();
    this.allowPrivate = config.scope.allowPrivate();
    this.seedHosts = seeds.stream().map(Url::host).collect(Collectors.toUnmodifiableSet());
  }

  /** Why {@code link} at {@code depth} is not followed, as a fate's label, or null if it is. */
  String refusal(Url link, int depth) {
    LinkFate fate = fate(link, depth);
    return fate == null ? null : fate.label();
  }

  /** The fate of {@code link} at {@code depth} if it is refused, or null if it is followed. */
  LinkFate fate(Url link, int depth) {
    if (depth > maxDepth) {
      return LinkFate.OVER_DEPTH;
    }
    if (!scope.allows(link)) {
      return LinkFate.OUT_OF_SCOPE;
    }
    if (!rules.allows(link.toString())) {
      return LinkFate.EXCLUDED;
    }
    if (link.length() > maxUrlLength) {
      return LinkFate.TOO_LONG;
    }
    if (PathTrap.isTrap(link.path(), maxPathDepth, maxRepeatedSegments)) {
      return LinkFate.PATH_TRAP;
    }
    if (!allowPrivate && !seedHosts.contains(link.host())
        && AddressPolicy.isPrivateHost(link.host())) {
      return LinkFate.PRIVATE_ADDRESS;
    }
    return null;
  }
}
