package dev.sieve.frontier.spill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.LastFetch;
import dev.sieve.frontier.Lease;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The compact form of a pending URL keeps its referrer and lastmod, in few bytes. */
class PendingCodecTest {
  private static final String URL = "http://a.example/docs/page-2.html";

  @Test
  void roundTrip_viaLastmodAndChain_kept() {
    Lease lease = new Lease(Lease.stored(URL), 3, "a.example", 2, List.of("http://a.example/r1"),
        "http://b.example/sitemap.xml", Instant.parse("1969-12-31T23:59:58.25Z"));

    assertThat(PendingCodec.decode(PendingCodec.encode(lease), "a.example")).isEqualTo(lease)
        .usingRecursiveComparison().isEqualTo(lease);
  }

  @Test
  void roundTrip_lastFetchOfARecrawl_kept() {
    Lease lease = new Lease(Lease.stored(URL), 1, "a.example", 0, List.of(), "http://a.example/", null,
        new LastFetch(3, Instant.parse("2026-11-27T08:00:01.5Z"), "W/\"5f-\u00e9\"",
            "Fri, 27 Nov 2026 07:00:00 GMT", "0b2a9a52-60a8-4f43-a0f5-0e4fb0e9a0f1",
            Instant.parse("2026-11-27T07:59:59Z")));
    Lease noValidators = lease.fetched(new LastFetch(1, Instant.EPOCH, null, null, null, null));

    assertThat(PendingCodec.decode(PendingCodec.encode(lease), "a.example").last())
        .isEqualTo(lease.last());
    assertThat(PendingCodec.decode(PendingCodec.encode(noValidators), "a.example").last())
        .isEqualTo(noValidators.last());
  }

  @Test
  void encode_seed_isTheFormWrittenBeforeReferrersWereKept() {
    byte[] url = URL.getBytes(StandardCharsets.UTF_8);
    byte[] before = new byte[4 + url.length];
    before[0] = 0; // depth
    before[1] = 1; // attempt
    before[2] = 0; // no redirect chain
    before[3] = (byte) url.length;
    System.arraycopy(url, 0, before, 4, url.length);

    Lease read = PendingCodec.decode(before, "a.example");

    assertThat(PendingCodec.encode(new Lease(Lease.stored(URL), 0, "a.example", 1, List.of()))).isEqualTo(before);
    assertThat(read.via()).isNull();
    assertThat(read.lastmod()).isNull();
    assertThat(read.url().toString()).isEqualTo(URL);
  }

  @Test
  void encode_linkFromItsOwnSite_storesOnlyTheTailTheReferrerDoesNotShare() {
    Lease seed = new Lease(Lease.stored(URL), 1, "a.example", 0, List.of());
    Lease link = new Lease(Lease.stored(URL), 1, "a.example", 0, List.of(), "http://a.example/docs/", null);

    int extra = PendingCodec.encode(link).length - PendingCodec.encode(seed).length;

    assertThat(extra).as("flags, shared length, tail length; no tail").isEqualTo(3);
  }

  @Test
  void encode_redirectTarget_referrerIsTheChainsLastUrlAndCostsOneByte() {
    Lease target = new Lease(Lease.stored(URL), 1, "a.example", 0, List.of("http://x.example/old"),
        "http://x.example/old", null);
    Lease noVia = new Lease(Lease.stored(URL), 1, "a.example", 0, List.of("http://x.example/old"));

    assertThat(PendingCodec.encode(target)).hasSize(PendingCodec.encode(noVia).length + 1);
    assertThat(PendingCodec.decode(PendingCodec.encode(target), "a.example").via())
        .isEqualTo("http://x.example/old");
  }
}
