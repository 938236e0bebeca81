package dev.sieve.frontier.urlfrontier;

import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import dev.sieve.frontier.Lease;
import dev.sieve.url.Url;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a {@link Lease} keeps besides its URL and key, as URL Frontier metadata: {@code
 * sieve.depth}, {@code sieve.attempt}, {@code sieve.via}, {@code sieve.lastmod} (ISO-8601) and
 * {@code sieve.redirects} (oldest first). A URL put by another client without them is a seed's
 * lease: depth 0, first attempt. The crawl in process keeps them so too, in the engine's metadata
 * bytes ({@link #toBytes}, the form {@code serve} stores a PutURLs item's metadata in), so that a
 * URL put through either face reads the same through the other.
 */
public final class LeaseMetadata {
  static final String DEPTH = "sieve.depth";
  static final String ATTEMPT = "sieve.attempt";
  static final String VIA = "sieve.via";
  static final String LASTMOD = "sieve.lastmod";
  static final String REDIRECTS = "sieve.redirects";

  private LeaseMetadata() {}

  /** The metadata of a URL at {@code depth}, {@code attempt}, with its chain, via and lastmod. */
  static void write(URLInfo.Builder info, int depth, int attempt, List<String> chain, String via,
      Instant lastmod) {
    info.putMetadata(DEPTH, one(Integer.toString(depth)));
    if (attempt > 0) {
      info.putMetadata(ATTEMPT, one(Integer.toString(attempt)));
    }
    if (via != null) {
      info.putMetadata(VIA, one(via));
    }
    if (lastmod != null) {
      info.putMetadata(LASTMOD, one(lastmod.toString()));
    }
    if (!chain.isEmpty()) {
      info.putMetadata(REDIRECTS, StringList.newBuilder().addAllValues(chain).build());
    }
  }

  /** {@link #write} of everything {@code lease} keeps. */
  static void write(URLInfo.Builder info, Lease lease) {
    write(info, lease.depth(), lease.attempt(), lease.redirectChain(), lease.via(), lease.lastmod());
  }

  /**
   * The engine's metadata bytes of a URL at {@code depth}, {@code attempt}, with its chain, via
   * and lastmod: a URLInfo holding the metadata alone, as {@code serve} stores a put's.
   */
  public static byte[] toBytes(int depth, int attempt, List<String> chain, String via,
      Instant lastmod) {
    URLInfo.Builder info = URLInfo.newBuilder();
    write(info, depth, attempt, chain, via, lastmod);
    return info.build().toByteArray();
  }

  /** {@link #toBytes} of everything {@code lease} keeps. */
  public static byte[] toBytes(Lease lease) {
    return toBytes(lease.depth(), lease.attempt(), lease.redirectChain(), lease.via(),
        lease.lastmod());
  }

  /**
   * The lease of {@code url} in queue {@code key} with the engine's metadata bytes {@code
   * metadata} (null: none); empty when the URL is not an http(s) URL. Metadata that does not
   * parse reads as none: it is data.
   */
  public static Optional<Lease> fromBytes(String url, String key, byte[] metadata) {
    URLInfo.Builder info = URLInfo.newBuilder().setUrl(url).setKey(key);
    if (metadata != null) {
      try {
        info.mergeFrom(metadata);
      } catch (com.google.protobuf.InvalidProtocolBufferException e) {
        info.clearMetadata();
      }
      info.setUrl(url).setKey(key);
    }
    return read(info.build());
  }

  /**
   * The lease of a URL GetURLs handed out; empty when the URL is not an http(s) URL. Bad metadata
   * reads as absent: it is data.
   */
  static Optional<Lease> read(URLInfo info) {
    Map<String, StringList> meta = info.getMetadataMap();
    List<String> chain = meta.containsKey(REDIRECTS) ? meta.get(REDIRECTS).getValuesList() : List.of();
    return Url.parse(info.getUrl()).map(url -> new Lease(url, number(meta, DEPTH), info.getKey(),
        number(meta, ATTEMPT), chain, first(meta, VIA), instant(first(meta, LASTMOD))));
  }

  private static StringList one(String value) {
    return StringList.newBuilder().addValues(value).build();
  }

  private static String first(Map<String, StringList> meta, String name) {
    StringList values = meta.get(name);
    return values == null || values.getValuesCount() == 0 ? null : values.getValues(0);
  }

  private static int number(Map<String, StringList> meta, String name) {
    String value = first(meta, name);
    try {
      return value == null ? 0 : Math.max(0, Integer.parseInt(value));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static Instant instant(String value) {
    try {
      return value == null ? null : Instant.parse(value);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
