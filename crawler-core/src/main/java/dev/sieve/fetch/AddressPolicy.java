package dev.sieve.fetch;

import com.google.common.net.InetAddresses;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which resolved addresses a fetch may connect to. A crawl that starts from public seeds must not
 * be steered by a link, a redirect or a DNS answer into the crawler's own network: loopback
 * (127.0.0.0/8, ::1), private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local and cloud
 * metadata (169.254/16, fe80::/10), and unspecified (0.0.0.0/8, ::) addresses. Immutable.
 */
public final class AddressPolicy {
  private static final AddressPolicy ALLOW_ALL = new AddressPolicy(true, Set.of());

  private final boolean allowPrivate;
  private final Set<String> exemptHosts;

  private AddressPolicy(boolean allowPrivate, Set<String> exemptHosts) {
    this.allowPrivate = allowPrivate;
    this.exemptHosts = exemptHosts.stream().map(AddressPolicy::unbracketed).collect(Collectors.toUnmodifiableSet());
  }

  /** Every address is allowed. */
  public static AddressPolicy allowAll() {
    return ALLOW_ALL;
  }

  /**
   * Only public addresses, except for the named hosts (e.g. the crawl's seeds), whose addresses
   * are allowed whatever they are.
   */
  public static AddressPolicy publicOnlyExcept(Set<String> exemptHosts) {
    return new AddressPolicy(false, exemptHosts);
  }

  /** Whether {@code host}, resolved to {@code address}, may be connected to. */
  public boolean allows(String host, InetAddress address) {
    return exempts(host) || !isPrivate(address);
  }

  /**
   * Whether the host name is exempt, or this policy allows private addresses at all. An IPv6
   * literal may be given with or without its brackets.
   */
  public boolean exempts(String host) {
    return allowPrivate || exemptHosts.contains(unbracketed(host));
  }

  /**
   * Whether a fetch from {@code host} would be refused for its addresses, resolving the name now
   * (an IP literal is parsed, not looked up). A name that does not resolve is not refused here:
   * its fetch reports it.
   */
  public boolean refuses(String host) {
    if (exempts(host)) {
      return false;
    }
    try {
      resolve(host);
      return false;
    } catch (BlockedAddressException e) {
      return true;
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /**
   * The addresses of {@code host} that may be connected to: every one for an exempt host, the
   * public ones otherwise. Resolves with the system resolver; an IP literal is parsed.
   *
   * @throws BlockedAddressException if the policy refuses every address
   * @throws UnknownHostException if the name does not resolve
   */
  List<InetAddress> resolve(String host) throws UnknownHostException {
    List<InetAddress> all = Arrays.asList(InetAddress.getAllByName(unbracketed(host)));
    if (exempts(host)) {
      return all;
    }
    List<InetAddress> allowed = new ArrayList<>(all.size());
    for (InetAddress address : all) {
      if (!isPrivate(address)) {
        allowed.add(address);
      }
    }
    if (allowed.isEmpty()) {
      throw new BlockedAddressException(InetAddresses.isInetAddress(unbracketed(host))
          ? host + " is a private address"
          : host + " resolves only to private addresses " + all);
    }
    return allowed;
  }

  private static String unbracketed(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  /** Whether {@code address} is loopback, private, link-local, unique-local or unspecified. */
  public static boolean isPrivate(InetAddress address) {
    byte[] bytes = address.getAddress();
    boolean uniqueLocal = bytes.length == 16 && (bytes[0] & 0xfe) == 0xfc;
    boolean zeroNet = bytes.length == 4 && bytes[0] == 0;
    return address.isLoopbackAddress()
        || address.isSiteLocalAddress()
        || address.isLinkLocalAddress()
        || address.isAnyLocalAddress()
        || uniqueLocal
        || zeroNet;
  }

  /**
   * Whether a URL's host is, without resolving it, a private address: {@code localhost} (and its
   * subdomains) or an IP literal ({@code [::1]} bracketed) in a private range.
   */
  public static boolean isPrivateHost(String host) {
    if (host.equals("localhost") || host.endsWith(".localhost")) {
      return true;
    }
    String literal = unbracketed(host);
    // IPv4-mapped IPv6 literals come back as Inet4Address.
    return InetAddresses.isInetAddress(literal) && isPrivate(InetAddresses.forString(literal));
  }
}
