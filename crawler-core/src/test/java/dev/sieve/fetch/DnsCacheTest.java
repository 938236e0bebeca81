package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.base.Ticker;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DnsCacheTest {
  private final AtomicLong now = new AtomicLong();
  private final Ticker ticker = new Ticker() {
    @Override
    public long read() {
      return now.get();
    }
  };
  private final List<String> asked = new ArrayList<>();

  private DnsCache cache(int maxHosts) {
    return new DnsCache(host -> {
      asked.add(host);
      if (host.endsWith(".invalid")) {
        throw new UnknownHostException(host);
      }
      return List.of(InetAddress.getByName("127.0.1." + (asked.size() % 250 + 1)));
    }, 1_000, maxHosts, ticker);
  }

  @Test
  void lookup_withinTtl_asksOnce_thenAgainAfterIt() throws Exception {
    DnsCache dns = cache(10);

    List<InetAddress> first = dns.lookup("a.test");
    now.set(999);
    assertThat(dns.lookup("a.test")).isEqualTo(first);
    assertThat(asked).containsExactly("a.test");

    now.set(1_000);
    dns.lookup("a.test");
    assertThat(asked).containsExactly("a.test", "a.test");
  }

  @Test
  void lookup_failure_notKept() {
    DnsCache dns = cache(10);

    assertThatThrownBy(() -> dns.lookup("gone.invalid")).isInstanceOf(UnknownHostException.class);
    assertThatThrownBy(() -> dns.lookup("gone.invalid")).isInstanceOf(UnknownHostException.class);
    assertThat(asked).containsExactly("gone.invalid", "gone.invalid");
  }

  @Test
  void lookup_pastMaxHosts_keepsAtMostMaxHosts() throws Exception {
    DnsCache dns = cache(3);

    for (int i = 0; i < 10; i++) {
      dns.lookup("h" + i + ".test");
    }
    assertThat(dns.size()).isBetween(1, 3);
  }
}
