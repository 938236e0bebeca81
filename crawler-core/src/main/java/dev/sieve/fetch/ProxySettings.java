package dev.sieve.fetch;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which proxy, if any, each fetch goes through: one proxy for every URL ({@link #of}), or the
 * proxies the environment names ({@link #fromEnvironment}), with curl's meanings; in both cases
 * hosts named by {@code NO_PROXY} are fetched directly. robots.txt and sitemaps are fetched the
 * same way as pages. Immutable.
 */
public final class ProxySettings {
  private static final ProxySettings NONE = new ProxySettings(null, null, NoProxy.none(), "");

  /** For http:// URLs, or null: direct. */
  private final ProxyServer http;
  /** For https:// URLs, or null: direct. */
  private final ProxyServer https;
  private final NoProxy noProxy;
  private final String noProxyText;

  private ProxySettings(ProxyServer http, ProxyServer https, NoProxy noProxy, String noProxyText) {
    this.http = http;
    this.https = https;
    this.noProxy = noProxy;
    this.noProxyText = noProxyText;
  }

  /** Every fetch direct. */
  public static ProxySettings none() {
    return NONE;
  }

  /**
   * Every fetch through {@code proxy} except to the hosts {@code noProxy} names (a {@code
   * NO_PROXY} value, null for none).
   *
   * @throws IllegalArgumentException for a {@code noProxy} range that is not one
   */
  public static ProxySettings of(ProxyServer proxy, String noProxy) {
    return new ProxySettings(proxy, proxy, NoProxy.parse("NO_PROXY", noProxy), text(noProxy));
  }

  /**
   * The proxies of {@code env}, as curl reads them: {@code https_proxy} for https URLs, {@code
   * http_proxy} for http ones, {@code all_proxy} for either when its own is unset, {@code
   * no_proxy} for the exempt hosts; each name lower-case or upper-case (the lower-case one wins
   * when both are set), an empty value as unset.
   *
   * @throws IllegalArgumentException naming the variable whose value is not a proxy URL
   */
  public static ProxySettings fromEnvironment(Map<String, String> env) {
    ProxyServer all = proxy(env, "all_proxy");
    ProxyServer http = Optional.ofNullable(proxy(env, "http_proxy")).orElse(all);
    ProxyServer https = Optional.ofNullable(proxy(env, "https_proxy")).orElse(all);
    String noProxy = variable(env, "no_proxy").map(Map.Entry::getValue).orElse(null);
    if (http == null && https == null) {
      return NONE;
    }
    return new ProxySettings(http, https, NoProxy.parse(name(env, "no_proxy"), noProxy), text(noProxy));
  }

  /**
   * The proxy {@code env}'s {@link #fromEnvironment} would use: {@code --proxy} when given,
   * else the variables.
   */
  public static ProxySettings choose(ProxyServer option, Map<String, String> env) {
    String noProxy = variable(env, "no_proxy").map(Map.Entry::getValue).orElse(null);
    return option != null ? of(option, noProxy) : fromEnvironment(env);
  }

  private static ProxyServer proxy(Map<String, String> env, String lower) {
    return variable(env, lower).map(v -> ProxyServer.parse(v.getKey(), v.getValue())).orElse(null);
  }

  private static String name(Map<String, String> env, String lower) {
    return variable(env, lower).map(Map.Entry::getKey).orElse(lower.toUpperCase(Locale.ROOT));
  }

  /** The variable named {@code lower} or its upper-case form, whichever is set and not empty. */
  private static Optional<Map.Entry<String, String>> variable(Map<String, String> env, String lower) {
    for (String name : new String[] {lower, lower.toUpperCase(Locale.ROOT)}) {
      String value = env.get(name);
      if (value != null && !value.isBlank()) {
        return Optional.of(Map.entry(name, value));
      }
    }
    return Optional.empty();
  }

  private static String text(String noProxy) {
    return noProxy == null ? "" : noProxy.strip();
  }

  /**
   * The proxy a fetch of a URL with this {@code scheme} ({@code http} or {@code https}) and
   * {@code host} goes through, or empty: direct.
   */
  public Optional<ProxyServer> forUrl(String scheme, String host) {
    ProxyServer proxy = "https".equalsIgnoreCase(scheme) ? https : http;
    if (proxy == null || noProxy.exempts(host)) {
      return Optional.empty();
    }
    return Optional.of(proxy);
  }

  /** The proxies fetches may go through: none, one or two. */
  Set<ProxyServer> servers() {
    Set<ProxyServer> servers = new LinkedHashSet<>();
    if (http != null) {
      servers.add(http);
    }
    if (https != null) {
      servers.add(https);
    }
    return servers;
  }

  /** Whether every fetch is direct. */
  public boolean isDirect() {
    return http == null && https == null;
  }

  /** The proxies in use, without credentials: for the crawl's first log line. */
  @Override
  public String toString() {
    if (isDirect()) {
      return "direct";
    }
    String proxies = http != null && http.equals(https)
        ? "all URLs via " + http
        : (https == null ? "https direct" : "https via " + https) + ", "
            + (http == null ? "http direct" : "http via " + http);
    return noProxyText.isEmpty() ? proxies : proxies + ", except NO_PROXY " + noProxyText;
  }
}
