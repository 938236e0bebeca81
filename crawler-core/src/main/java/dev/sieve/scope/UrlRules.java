package dev.sieve.scope;

import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * The crawl's {@code --include} and {@code --exclude} regular expressions, matched with {@link
 * java.util.regex.Matcher#find()} against a normalized URL: a URL must match some include, if any
 * is given, and no exclude (an exclude wins). Immutable, thread-safe.
 */
public final class UrlRules {
  /** No rules: every URL passes. */
  public static final UrlRules NONE = new UrlRules(List.of(), List.of());

  private final List<Pattern> include;
  private final List<Pattern> exclude;

  private UrlRules(List<Pattern> include, List<Pattern> exclude) {
    this.include = include;
    this.exclude = exclude;
  }

  /**
   * The rules of {@code include} and {@code exclude} expressions.
   *
   * @throws IllegalArgumentException naming the setting ({@code include} or {@code exclude}), the
   *     expression and what is wrong with it, for the first that does not compile
   */
  public static UrlRules of(List<String> include, List<String> exclude) {
    return new UrlRules(compile("include", include), compile("exclude", exclude));
  }

  private static List<Pattern> compile(String setting, List<String> regexes) {
    return regexes.stream().map(regex -> {
      try {
        return Pattern.compile(regex);
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException(setting + " (" + regex + ") is not a regular expression: "
            + e.getDescription() + " near index " + e.getIndex());
      }
    }).toList();
  }

  /** Whether {@code url} matches some include (or none is given) and no exclude. */
  public boolean allows(String url) {
    for (Pattern pattern : exclude) {
      if (pattern.matcher(url).find()) {
        return false;
      }
    }
    if (include.isEmpty()) {
      return true;
    }
    for (Pattern pattern : include) {
      if (pattern.matcher(url).find()) {
        return true;
      }
    }
    return false;
  }

  /** Whether there is no rule at all. */
  public boolean isEmpty() {
    return include.isEmpty() && exclude.isEmpty();
  }

  /** The include expressions, as given. */
  public List<String> include() {
    return include.stream().map(Pattern::pattern).toList();
  }

  /** The exclude expressions, as given. */
  public List<String> exclude() {
    return exclude.stream().map(Pattern::pattern).toList();
  }

  /**
   * The rules in one line, for the settings a resume compares: {@code include=[a, b]
   * exclude=[c]}; the expressions' order is kept (it does not change the outcome, but a resume
   * with the same rules gives them the same way).
   */
  @Override
  public String toString() {
    return "include=" + include.stream().map(Pattern::pattern).collect(Collectors.toList())
        + " exclude=" + exclude.stream().map(Pattern::pattern).collect(Collectors.toList());
  }
}
