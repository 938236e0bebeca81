package dev.sieve.app;

import dev.sieve.scope.ScopeSettings;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code crawl}'s URL rules: regular expressions a followed URL must match ({@code --include}) or
 * must not ({@code --exclude}). Repeatable; one value may also hold several separated by white
 * space (a normalized URL holds none, so no rule needs a literal space), which is how a config
 * file, one value per key, gives several.
 */
final class UrlRuleOptions {
  @Setting("include")
  @Option(names = "--include", paramLabel = "REGEX", split = "\\s+",
      description = "Follow only links, redirect targets and sitemap URLs whose normalized URL"
          + " matches (find) one of these (default: none); repeatable, or several separated by"
          + " spaces. Seeds are always fetched.")
  List<String> include = new ArrayList<>();

  @Setting("exclude")
  @Option(names = "--exclude", paramLabel = "REGEX", split = "\\s+",
      description = "Never follow a URL matching one of these; an exclude wins over an include;"
          + " counted excluded; repeatable (default: none).")
  List<String> exclude = new ArrayList<>();

  /** Sets the rules of {@code scope}; its builder checks each expression. */
  ScopeSettings.Builder applyTo(ScopeSettings.Builder scope) {
    return scope.include(include).exclude(exclude);
  }
}
