package dev.sieve.serve.access;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** A network, {@code 10.0.0.0/8} or {@code fd00::/8}: an address and how many leading bits count. */
record Cidr(byte[] network, int bits, String text) {
  /**
   * Parses {@code text} (an address alone is a network of one).
   *
   * @throws IllegalArgumentException naming {@code option} when it is not ADDRESS[/BITS] of a
   *     literal IPv4 or IPv6 address
   */
  static Cidr parse(String option, String text) {
    String spec = text.strip();
    int slash = spec.indexOf('/');
    String address = slash < 0 ? spec : spec.substring(0, slash);
    if (!address.matches("[0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
      throw bad(option, text);
    }
    byte[] network;
    try {
      network = InetAddress.getByName(address).getAddress();
    } catch (UnknownHostException e) {
      throw bad(option, text);
    }
    int bits;
    try {
      bits = slash < 0 ? network.length * 8 : Integer.parseInt(spec.substring(slash + 1));
    } catch (NumberFormatException e) {
      throw bad(option, text);
    }
    if (bits < 0 || bits > network.length * 8) {
      throw bad(option, text);
    }
    return new Cidr(network, bits, spec);
  }

  private static IllegalArgumentException bad(String option, String text) {
    return new IllegalArgumentException(option + " (" + text + ") must be CIDR networks,"
        + " ADDRESS/BITS[,ADDRESS/BITS...], e.g. 10.0.0.0/8");
  }

  /** Whether {@code address} is in this network (an IPv4 one never holds an IPv6 address). */
  boolean contains(InetAddress address) {
    byte[] bytes = address.getAddress();
    if (bytes.length != network.length) {
      return false;
    }
    for (int i = 0; i < bits; i++) {
      int mask = 0x80 >>> (i % 8);
      if ((bytes[i / 8] & mask) != (network[i / 8] & mask)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return text;
  }
}
