package dev.sieve.app.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostTalliesTest {
  @Test
  void add_pastTheCap_countsLaterHostsTogetherSoTotalsStillAddUp() {
    HostTallies tallies = new HostTallies(2);
    tallies.add("http://a.test/1", false, 10);
    tallies.add("http://b.test:8080/2", true, 20);
    tallies.add("http://c.test/3", true, 30);
    tallies.add("http://d.test/4", false, 40);
    tallies.add("http://a.test/5", false, 50);

    assertThat(tallies.size()).isEqualTo(2);
    assertThat(tallies.capped()).isTrue();
    assertThat(tallies.top(10, HostTallies.Counts::pages)).extracting(t -> t.host() + "=" + t.pages())
        .containsExactly("(other hosts)=2", "a.test=2", "b.test:8080=1");
    assertThat(tallies.top(10, HostTallies.Counts::errors)).extracting(t -> t.host() + "=" + t.errors())
        .containsExactly("(other hosts)=1", "b.test:8080=1");
    assertThat(tallies.top(1, HostTallies.Counts::bytes)).extracting(t -> t.host() + "=" + t.bytes())
        .containsExactly("(other hosts)=70");
  }

  @Test
  void authority_dropsUserInfoPathQueryAndFragment() {
    assertThat(HostTallies.authority("https://user:secret@h.test:8443/p?q#f")).isEqualTo("h.test:8443");
    assertThat(HostTallies.authority("http://h.test?q")).isEqualTo("h.test");
    assertThat(HostTallies.authority("http://h.test#f@x")).isEqualTo("h.test");
    assertThat(HostTallies.authority("not a url")).isEqualTo("not a url");
  }
}
