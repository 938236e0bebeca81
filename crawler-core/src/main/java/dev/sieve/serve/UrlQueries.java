package dev.sieve.serve;

import crawlercommons.urlfrontier.Urlfrontier.CountUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLStatusRequest;
import crawlercommons.urlfrontier.Urlfrontier;
import dev.sieve.frontier.queue.Counters;
import dev.sieve.frontier.queue.FrontierStore;
import dev.sieve.frontier.queue.QueuedUrl;
import dev.sieve.url.Url;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.Optional;

/**
 * GetURLStatus and CountURLs (ListURLs streams in {@link ListUrlsCall}). Pending URLs are answered
 * from their queues; GetURLStatus answers "completed" (refetch date 0) when the crawl's Sieve says
 * the URL was seen in that queue and it is not pending; CountURLs counts what ListURLs lists:
 * completed URLs (from the crawl's log on disk) and pending ones.
 */
final class UrlQueries {
  private final FrontierStore crawls;
  private final ServeSettings settings;
  private final Counters counters;

  UrlQueries(FrontierStore crawls, ServeSettings settings, Counters counters) {
    this.crawls = crawls;
    this.settings = settings;
    this.counters = counters;
  }

  void status(URLStatusRequest request, StreamObserver<URLItem> responses) {
    String url = request.getUrl();
    Optional<Url> parsed = Url.parse(url);
    if (url.isBlank() || parsed.isEmpty()) {
      Protos.fail(responses, counters, Status.INVALID_ARGUMENT,
          "GetURLStatus: URL '" + url + "' is not an absolute http(s) URL");
      return;
    }
    String key = request.getKey().isEmpty() ? PutItem.defaultKey(parsed.get()) : request.getKey();
    String crawlId = FrontierStore.normalise(request.getCrawlID());
    Optional<QueuedUrl> state = crawls.get(crawlId).flatMap(crawl -> crawl.status(key, url));
    if (state.isEmpty()) {
      Protos.fail(responses, counters, Status.NOT_FOUND,
          "GetURLStatus: " + url + " is not in queue '" + key + "' of crawl '" + crawlId + "'");
      return;
    }
    Protos.reply(responses, Protos.known(crawlId, state.get()));
  }

  void count(CountUrlParams request, StreamObserver<Urlfrontier.Long> responses) {
    long count = crawls.get(request.getCrawlID())
        .map(crawl -> crawl.count(keyOrNull(request.getKey()), request.getFilter(),
            request.getIgnoreCase()))
        .orElse(0L);
    Protos.reply(responses, Urlfrontier.Long.newBuilder().setValue(count).build());
  }

  private static String keyOrNull(String key) {
    return key.isEmpty() ? null : key;
  }
}
