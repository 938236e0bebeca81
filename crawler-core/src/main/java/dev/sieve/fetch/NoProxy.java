package dev.sieve.fetch;

import com.google.common.net.InetAddresses;
import java.math.BigInteger;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which hosts are fetched directly although a proxy is set: a {@code NO_PROXY} value as curl reads
 * it. Entries are separated by commas or spaces; {@code *} alone exempts every host; a name
 * exempts itself and its subdomains ({@code example.com} and {@code .example.com} both exempt
 * {@code www.example.com}); an IP address exempts that address and a CIDR range ({@code
 * 10.0.0.0/8}) the addresses in it, matched against the URL's host as written (no name is
 * resolved). A port after an entry is ignored. Nothing else is exempt: unlike the JDK's default
 * {@code http.nonProxyHosts}, loopback and private hosts go through the proxy unless named here.
 * Immutable.
 */
final class NoProxy {
  private static final NoProxy NONE = new NoProxy(false, List.of(), List.of());

  private final boolean all;
  private final List<String> domains;
  private final List<Range> ranges;

  private record Range(BigInteger first, int bits, int prefix) {
    boolean contains(InetAddress address) {
      byte[] bytes = address.getAddress();
      if (bytes.length * 8 != bits) {
        return false;
      }
      int shift = bits - prefix;
      return new BigInteger(1, bytes).shiftRight(shift).equals(first.shiftRight(shift));
    }
  }

  private NoProxy(boolean all, List<String> domains, List<Range> ranges) {
    this.all = all;
    this.domains = domains;
    this.ranges = ranges;
  }

  /** Exempts nothing. */
  static NoProxy none() {
    return NONE;
  }

  /**
   * Parses a {@code NO_PROXY} value given by {@code name}; null or blank exempts nothing.
   *
   * @throws IllegalArgumentException naming {@code name} for a CIDR range that is not one
   */
  static NoProxy parse(String name, String value) {
    if (value == null || value.isBlank()) {
      return NONE;
    }
    boolean all = false;
    List<String> domains = new ArrayList<>();
    List<Range> ranges = new ArrayList<>();
    for (String raw : value.split("[,\\s]+")) {
      String entry = raw.strip().toLowerCase(Locale.ROOT);
      if (entry.isEmpty()) {
        continue;
      }
      if (entry.equals("*")) {
        all = true;
        continue;
      }
      entry = withoutPort(entry);
      int slash = entry.indexOf('/');
      String address = slash < 0 ? entry : entry.substring(0, slash);
      if (InetAddresses.isInetAddress(address)) {
        InetAddress parsed = InetAddresses.forString(address);
        int bits = parsed.getAddress().length * 8;
        int prefix = bits;
        if (slash >= 0) {
          try {
            prefix = Integer.parseInt(entry.substring(slash + 1));
          } catch (NumberFormatException e) {
            prefix = -1;
          }
          if (prefix < 0 || prefix > bits) {
            throw new IllegalArgumentException(
                name + " (" + value + ") has a bad CIDR range: " + raw.strip());
          }
        }
        ranges.add(new Range(new BigInteger(1, parsed.getAddress()), bits, prefix));
      } else {
        domains.add(entry.startsWith(".") ? entry.substring(1) : entry);
      }
    }
    return new NoProxy(all, List.copyOf(domains), List.copyOf(ranges));
  }

  /** {@code entry} without a trailing {@code :port} (an IPv6 address keeps its colons). */
  private static String withoutPort(String entry) {
    if (entry.startsWith("[")) {
      int close = entry.indexOf(']');
      return close < 0 ? entry : entry.substring(1, close) + entry.substring(close + 1).replaceFirst("^:\\d+", "");
    }
    int colon = entry.indexOf(':');
    return colon >= 0 && colon == entry.lastIndexOf(':') ? entry.substring(0, colon) : entry;
  }

  /** Whether {@code host} (a URL's host: a name, an IP address, an IPv6 address in brackets) is exempt. */
  boolean exempts(String host) {
    if (all) {
      return true;
    }
    String h = host.toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    if (h.endsWith(".")) {
      h = h.substring(0, h.length() - 1);
    }
    if (InetAddresses.isInetAddress(h)) {
      InetAddress address = InetAddresses.forString(h);
      for (Range range : ranges) {
        if (range.contains(address)) {
          return true;
        }
      }
      return domains.contains(h);
    }
    for (String domain : domains) {
      if (h.equals(domain) || h.endsWith("." + domain)) {
        return true;
      }
    }
    return false;
  }

  /** Whether nothing is exempt. */
  boolean isEmpty() {
    return !all && domains.isEmpty() && ranges.isEmpty();
  }
}
