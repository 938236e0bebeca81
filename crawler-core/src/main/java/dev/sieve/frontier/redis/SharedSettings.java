package dev.sieve.frontier.redis;

import dev.sieve.frontier.QueueKey;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The crawl-wide settings stored in Redis when the crawl is created; joiners must match. */
record SharedSettings(long blocks, int hashes, long expectedUrls, double fpp, long segmentBits,
    QueueKey queueKey, long delayMs, int maxInFlightPerHost, long maxUrlsPerHost) {

  /** The version of this layout, stored with it. */
  static final int FORMAT = 1;

  Map<String, String> toMap() {
    Map<String, String> map = new LinkedHashMap<>();
    map.put("format", Integer.toString(FORMAT));
    map.put("blocks", Long.toString(blocks));
    map.put("hashes", Integer.toString(hashes));
    map.put("expected-urls", Long.toString(expectedUrls));
    map.put("fpp", Double.toString(fpp));
    map.put("segment-bits", Long.toString(segmentBits));
    map.put("queue-key", queueKey.name().toLowerCase(Locale.ROOT));
    map.put("delay-ms", Long.toString(delayMs));
    map.put("per-host", Integer.toString(maxInFlightPerHost));
    map.put("max-pages-per-host", Long.toString(maxUrlsPerHost));
    return map;
  }

  static SharedSettings fromMap(Map<String, String> map) {
    if (!Integer.toString(FORMAT).equals(map.get("format"))) {
      throw new RedisFrontierException("the crawl's settings in Redis are of format "
          + map.get("format") + ", this build reads " + FORMAT);
    }
    return new SharedSettings(Long.parseLong(map.get("blocks")), Integer.parseInt(map.get("hashes")),
        Long.parseLong(map.get("expected-urls")), Double.parseDouble(map.get("fpp")),
        Long.parseLong(map.get("segment-bits")),
        QueueKey.valueOf(map.get("queue-key").toUpperCase(Locale.ROOT)),
        Long.parseLong(map.get("delay-ms")), Integer.parseInt(map.get("per-host")),
        Long.parseLong(map.get("max-pages-per-host")));
  }
}
