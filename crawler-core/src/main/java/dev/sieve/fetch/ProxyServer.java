package dev.sieve.fetch;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;

/**
 * One proxy a fetch may go through: {@code http://}, {@code https://} (TLS to the proxy) or
 * {@code socks5://} (also {@code socks5h://}: the proxy resolves names either way), with optional
 * {@code user:password@} credentials, percent-encoded as in a URL. As curl reads it: no scheme means
 * {@code http://}, no port means 1080 (443 for {@code https://}). Immutable; {@link #toString()}
 * never shows the credentials.
 */
public final class ProxyServer {
  /** How the crawler talks to the proxy. */
  public enum Kind {
    /** An HTTP proxy: absolute-form requests for http, CONNECT tunnels for https. */
    HTTP,
    /** An HTTP proxy reached over TLS. */
    HTTPS,
    /** A SOCKS5 proxy (RFC 1928), with username/password authentication (RFC 1929) if given. */
    SOCKS5
  }

  private static final int DEFAULT_PORT = 1080;

  private final Kind kind;
  private final String host;
  private final int port;
  private final String user;
  private final String password;

  private ProxyServer(Kind kind, String host, int port, String user, String password) {
    this.kind = kind;
    this.host = host;
    this.port = port;
    this.user = user;
    this.password = password;
  }

  /**
   * Parses a proxy URL given by {@code name} (an option or variable, named in the message).
   *
   * @throws IllegalArgumentException naming {@code name}, never showing the credentials
   */
  public static ProxyServer parse(String name, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " (" + value + ") must be a proxy URL");
    }
    String text = value.strip();
    String shown = masked(text);
    if (!text.contains("://")) {
      text = "http://" + text;
    }
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(name + " (" + shown + ") is not a URL: " + reason(e));
    }
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    Kind kind = switch (scheme) {
      case "http" -> Kind.HTTP;
      case "https" -> Kind.HTTPS;
      case "socks5", "socks5h" -> Kind.SOCKS5;
      default -> throw new IllegalArgumentException(name + " (" + shown
          + ") must be an http://, https:// or socks5:// URL");
    };
    String host = uri.getHost();
    if (host == null || host.isEmpty()) {
      throw new IllegalArgumentException(name + " (" + shown + ") names no proxy host");
    }
    if (uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/")
        || uri.getRawQuery() != null) {
      throw new IllegalArgumentException(name + " (" + shown + ") must not have a path or query");
    }
    int port = uri.getPort() >= 0 ? uri.getPort() : kind == Kind.HTTPS ? 443 : DEFAULT_PORT;
    if (port == 0) {
      throw new IllegalArgumentException(name + " (" + shown + ") must have a port in [1, 65535]");
    }
    String user = null;
    String password = null;
    String userInfo = uri.getRawUserInfo();
    if (userInfo != null) {
      int colon = userInfo.indexOf(':');
      user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
      password = colon < 0 ? "" : decode(userInfo.substring(colon + 1));
    }
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    return new ProxyServer(kind, host.toLowerCase(Locale.ROOT), port, user, password);
  }

  /** The URL with its credentials replaced by {@code ***}, for messages about a bad value. */
  private static String masked(String text) {
    int at = text.lastIndexOf('@');
    if (at < 0) {
      return text;
    }
    int start = text.indexOf("://");
    return (start < 0 ? "" : text.substring(0, start + 3)) + "***" + text.substring(at);
  }

  private static String reason(URISyntaxException e) {
    // The message quotes the input, credentials included: only the reason is kept.
    return e.getReason();
  }

  private static String decode(String part) {
    return URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  public Kind kind() {
    return kind;
  }

  /** The proxy's host name or IP address (an IPv6 address without brackets). */
  public String host() {
    return host;
  }

  public int port() {
    return port;
  }

  /** Whether the proxy is given credentials. */
  public boolean hasCredentials() {
    return user != null;
  }

  /** The user name, or null without credentials. */
  String user() {
    return user;
  }

  /** The password, or null without credentials. */
  String password() {
    return password;
  }

  /** The proxy's URL without credentials, e.g. {@code socks5://127.0.0.1:1080}. */
  @Override
  public String toString() {
    String shownHost = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
    return kind.name().toLowerCase(Locale.ROOT) + "://" + shownHost + ":" + port;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ProxyServer p && kind == p.kind && host.equals(p.host) && port == p.port
        && Objects.equals(user, p.user) && Objects.equals(password, p.password);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, host, port, user);
  }
}
