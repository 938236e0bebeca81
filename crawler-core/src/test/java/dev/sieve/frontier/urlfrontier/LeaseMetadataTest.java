package dev.sieve.frontier.urlfrontier;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import dev.sieve.frontier.Lease;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A lease survives the trip through URL Frontier metadata; another client's values are data. */
class LeaseMetadataTest {
  @Test
  void writeThenRead_keepsEverythingALeaseCarries() {
    Lease lease = new Lease(Lease.stored("http://a.example/new"), 4, "http://a.example", 2,
        List.of("http://a.example/old", "http://a.example/older"), "http://a.example/older",
        Instant.parse("2025-06-01T12:30:00.5Z"));
    URLInfo.Builder info = URLInfo.newBuilder().setUrl(lease.url().toString()).setKey(lease.hostKey());

    LeaseMetadata.write(info, lease);

    assertThat(LeaseMetadata.read(info.build())).contains(lease);
  }

  @Test
  void read_urlPutByAnotherClient_isASeedsFirstAttempt_andBadValuesReadAsAbsent() {
    URLInfo info = URLInfo.newBuilder().setUrl("http://a.example/").setKey("a.example")
        .putMetadata(LeaseMetadata.DEPTH, StringList.newBuilder().addValues("deep").build())
        .putMetadata(LeaseMetadata.ATTEMPT, StringList.newBuilder().addValues("-3").build())
        .putMetadata(LeaseMetadata.LASTMOD, StringList.newBuilder().addValues("yesterday").build())
        .putMetadata(LeaseMetadata.VIA, StringList.getDefaultInstance())
        .putMetadata("their.own", StringList.newBuilder().addValues("x").build())
        .build();

    Lease lease = LeaseMetadata.read(info).orElseThrow();

    assertThat(lease).isEqualTo(new Lease(Lease.stored("http://a.example/"), 0, "a.example", 0, List.of()));
  }
}
