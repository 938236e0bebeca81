package dev.sieve.serve;

import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.frontier.FrontierTime;
import dev.sieve.frontier.queue.FrontierStore;
import dev.sieve.frontier.queue.UrlPut;
import dev.sieve.url.PlainUrl;
import dev.sieve.url.Url;
import java.util.Optional;

/**
 * One PutURLs item read and checked: its crawl, queue key (the client's, or the URL's host), URL
 * string as the client sent it, kind, refetch date and metadata; or, when it cannot be taken, the
 * reason (a counter name: {@code malformed_url}, {@code url_too_long}, {@code key_too_long},
 * {@code metadata_too_large}, {@code metadata_too_many_entries}, {@code empty_item}).
 */
record PutItem(String crawlId, String key, String url, boolean discovered, long refetchFrom,
    byte[] metadata, String rejection) implements UrlPut {

  /** The ID the ack carries: the client's, or the URL when it gave none. */
  static String ackId(URLItem item) {
    return item.getID().isEmpty() ? info(item).getUrl() : item.getID();
  }

  static PutItem read(URLItem item, ServeSettings settings) {
    if (!item.hasDiscovered() && !item.hasKnown()) {
      return rejected("empty_item");
    }
    boolean discovered = item.hasDiscovered();
    long refetchFrom = discovered ? 0 : Protos.unsigned64(item.getKnown().getRefetchableFromDate());
    return read(info(item), discovered, FrontierTime.millisOfSeconds(refetchFrom), settings);
  }

  /** One URL of a PutDiscovered batch, read and checked as a discovered PutURLs item. */
  static PutItem discovered(URLInfo info, ServeSettings settings) {
    return read(info, true, 0, settings);
  }

  private static PutItem read(URLInfo info, boolean discovered, long refetchFrom,
      ServeSettings settings) {
    String url = info.getUrl();
    if (url.length() > settings.maxUrlLength) {
      return rejected("url_too_long");
    }
    String host = PlainUrl.host(url);
    if (host == null) {
      Optional<Url> parsed = Url.parse(url);
      if (url.isBlank() || parsed.isEmpty()) {
        return rejected("malformed_url");
      }
      host = defaultKey(parsed.get());
    }
    String key = info.getKey().isBlank() ? host : info.getKey();
    int longest = Math.max(key.length(), info.getCrawlID().length());
    if (longest > settings.maxKeyLength) {
      return rejected("key_too_long");
    }
    if (metadataEntries(info) > settings.limits.maxMetadataEntries) {
      return rejected("metadata_too_many_entries");
    }
    byte[] metadata = Protos.metadataOf(info);
    if (metadata != null && metadata.length > settings.maxMetadataBytes) {
      return rejected("metadata_too_large");
    }
    return new PutItem(FrontierStore.normalise(info.getCrawlID()), key, url, discovered, refetchFrom,
        metadata, null);
  }

  /** Metadata entries: values over every key, a key without values counting one. */
  private static long metadataEntries(URLInfo info) {
    long entries = 0;
    for (var values : info.getMetadataMap().values()) {
      entries += Math.max(1, values.getValuesCount());
    }
    return entries;
  }

  /** The key of a URL whose client gave none: its host, as the reference service keys it. */
  static String defaultKey(Url url) {
    return url.host();
  }

  private static URLInfo info(URLItem item) {
    return item.hasKnown() ? item.getKnown().getInfo() : item.getDiscovered().getInfo();
  }

  private static PutItem rejected(String reason) {
    return new PutItem(null, null, null, false, 0, null, reason);
  }
}
