package dev.sieve.serve;

import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import dev.sieve.frontier.queue.Counters;
import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.FrontierStore;
import dev.sieve.frontier.queue.QueuedUrl;
import dev.sieve.frontier.queue.TakeLimits;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * GetURLs: leases due URLs and streams them. A URL handed out is not handed out again until its
 * lease (delay_requestable, or {@link ServeSettings#leaseSeconds} when 0) has passed or a
 * PutURLs updates it. Nothing while the service is inactive.
 */
final class GetUrls {
  private GetUrls() {}

  static void serve(GetParams request, StreamObserver<URLInfo> responses, FrontierStore crawls,
      ServeSettings settings, Counters counters, long now) {
    // Sends to a client that went away are dropped rather than thrown; their leases expire.
    ((ServerCallStreamObserver<URLInfo>) responses).setOnCancelHandler(() -> { });
    boolean anyCrawl = request.getItemCase() != GetParams.ItemCase.CRAWLID;
    String key = request.getKey().isEmpty() ? null : request.getKey();
    if (key != null && anyCrawl) {
      Protos.fail(responses, counters, Status.INVALID_ARGUMENT,
          "GetURLs: key '" + key + "' needs a crawlID (" + FrontierStore.normalise("")
              + " for the default crawl), not any crawl");
      return;
    }
    if (!crawls.active()) {
      responses.onCompleted();
      return;
    }
    TakeLimits limits = new TakeLimits(
        orUnlimited(request.getMaxUrlsPerQueue()),
        orUnlimited(request.getMaxQueues()),
        settings.maxUrlsPerCall,
        Duration.ofSeconds(request.getDelayRequestable() == 0 ? settings.leaseSeconds
            : Protos.unsigned(request.getDelayRequestable())),
        crawls.defaultDelay());
    List<? extends CrawlStore> visit = anyCrawl
        ? crawls.all()
        : crawls.get(request.getCrawlID()).<List<CrawlStore>>map(List::of).orElse(List.of());
    List<CrawlStore> produced = new ArrayList<>();
    for (CrawlStore crawl : visit) {
      if (limits.maxQueues() <= 0 || limits.maxUrls() <= 0) {
        break;
      }
      List<QueuedUrl> taken = new ArrayList<>();
      int queues = crawl.take(key, limits, now, taken);
      for (QueuedUrl url : taken) {
        responses.onNext(Protos.info(crawl.id(), url));
      }
      if (queues > 0) {
        produced.add(crawl);
      }
      limits = limits.after(taken.size(), queues);
    }
    crawls.served(produced);
    responses.onCompleted();
  }

  private static int orUnlimited(int limit) {
    return limit == 0 ? Integer.MAX_VALUE : Protos.unsigned(limit);
  }
}
