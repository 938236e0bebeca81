package dev.sieve.serve.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class CidrTest {
  @Test
  void contains_addressesInsideTheNetworkOnly() throws Exception {
    Cidr tenEight = Cidr.parse("--allow-insecure-from", "10.0.0.0/8");
    assertThat(tenEight.contains(InetAddress.getByName("10.255.3.4"))).isTrue();
    assertThat(tenEight.contains(InetAddress.getByName("11.0.0.1"))).isFalse();
    assertThat(tenEight.contains(InetAddress.getByName("127.0.0.1"))).isFalse();
    Cidr odd = Cidr.parse("--allow-insecure-from", "192.168.1.128/25");
    assertThat(odd.contains(InetAddress.getByName("192.168.1.200"))).isTrue();
    assertThat(odd.contains(InetAddress.getByName("192.168.1.127"))).isFalse();
    Cidr six = Cidr.parse("--allow-insecure-from", "fd00::/8");
    assertThat(six.contains(InetAddress.getByName("fd12::1"))).isTrue();
    assertThat(six.contains(InetAddress.getByName("10.0.0.1"))).isFalse();
    assertThat(Cidr.parse("x", "127.0.0.1").contains(InetAddress.getByName("127.0.0.2")))
        .as("an address alone is a network of one").isFalse();
  }

  @Test
  void parse_refusesHostNamesAndBadPrefixes() {
    for (String bad : new String[] {"example.com/8", "10.0.0.0/33", "10.0.0.0/x", "", "::/129"}) {
      assertThatThrownBy(() -> Cidr.parse("--allow-insecure-from", bad))
          .hasMessageStartingWith("--allow-insecure-from (" + bad + ") must be CIDR networks");
    }
  }
}
