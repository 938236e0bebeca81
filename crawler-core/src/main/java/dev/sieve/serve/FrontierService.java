package dev.sieve.serve;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.Active;
import crawlercommons.urlfrontier.Urlfrontier.BlockQueueParams;
import crawlercommons.urlfrontier.Urlfrontier.CrawlLimitParams;
import crawlercommons.urlfrontier.Urlfrontier.DeleteCrawlMessage;
import crawlercommons.urlfrontier.Urlfrontier.Empty;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.Local;
import crawlercommons.urlfrontier.Urlfrontier.LogLevelParams;
import crawlercommons.urlfrontier.Urlfrontier.Pagination;
import crawlercommons.urlfrontier.Urlfrontier.QueueDelayParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueList;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.Stats;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import crawlercommons.urlfrontier.Urlfrontier;
import dev.sieve.frontier.FrontierTime;
import dev.sieve.frontier.queue.Counters;
import dev.sieve.frontier.queue.CrawlSnapshot;
import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.FrontierStore;
import dev.sieve.frontier.queue.QueueStats;
import dev.sieve.serve.FrontierServer.LogLevels;
import dev.sieve.serve.limits.Rejections;
import dev.sieve.serve.limits.StoreLimits;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The URL Frontier API 2.6 over a {@link FrontierStore}: the queue and crawl RPCs here, PutURLs
 * in {@link PutUrlsCall}, PutDiscovered in {@link PutDiscoveredCall}, GetURLs in {@link GetUrls}, the URL queries in {@link UrlQueries}. Bad
 * arguments get INVALID_ARGUMENT, a queue or crawl that a change names but that does not exist NOT_FOUND,
 * each counted; queries about an unknown crawl answer empty, as the reference service does.
 */
final class FrontierService extends URLFrontierGrpc.URLFrontierImplBase {
  private final FrontierStore crawls;
  private final ServeSettings settings;
  private final Counters counters = new Counters();
  private final Clock clock;
  private final Supplier<List<String>> nodes;
  private final LogLevels logLevels;
  private final UrlQueries queries;
  private final Rejections rejections = new Rejections(counters);
  private final StoreLimits storeLimits;
  /** The server's pool for calls that wait on a store that batches puts; null for the others. */
  private final Executor storeCalls;

  /** {@code nodes}: what ListNodes answers, the live serve nodes sharing the store, sorted. */
  FrontierService(FrontierStore crawls, ServeSettings settings, Clock clock,
      Supplier<List<String>> nodes, LogLevels logLevels, Executor storeCalls) {
    this.storeCalls = storeCalls;
    this.settings = settings;
    this.crawls = crawls;
    this.clock = clock;
    this.nodes = nodes;
    this.logLevels = logLevels;
    this.queries = new UrlQueries(crawls, settings, counters);
    this.storeLimits = new StoreLimits(settings.limits, rejections);
  }

  /** How calls past a limit are counted and logged. */
  Rejections rejections() {
    return rejections;
  }

  /** The engine's time: epoch milliseconds ({@link FrontierTime}). */
  private long now() {
    return clock.millis();
  }

  @Override
  public StreamObserver<URLItem> putURLs(StreamObserver<AckMessage> responses) {
    return PutUrlsCall.start(responses, crawls, settings, counters, clock, storeLimits,
        storeCalls);
  }

  @Override
  public StreamObserver<Urlfrontier.DiscoveredBatch> putDiscovered(
      StreamObserver<Urlfrontier.BatchAck> responses) {
    return PutDiscoveredCall.start(responses, crawls, settings, counters, clock, storeLimits);
  }

  /**
   * Drops the pending URLs of a queue (or of the crawl, with no key) created more than {@code
   * days} days ago. UNIMPLEMENTED from a store that cannot purge.
   */
  @Override
  public void purgeURLs(Urlfrontier.PurgeUrlParams request,
      StreamObserver<Urlfrontier.Long> responses) {
    long cutoff = now() - Integer.toUnsignedLong(request.getDays()) * 86_400_000L;
    String key = request.getKey();
    try {
      change(() -> crawls.get(request.getCrawlID())
              .map(crawl -> crawl.purge(key.isEmpty() ? null : key, cutoff)).orElse(0L),
          removed -> reply(responses, removed), responses);
    } catch (UnsupportedOperationException e) {
      Protos.fail(responses, counters, Status.UNIMPLEMENTED, "PurgeURLs: " + e.getMessage());
    }
  }

  @Override
  public void getURLs(GetParams request, StreamObserver<URLInfo> responses) {
    GetUrls.serve(request, responses, crawls, settings, counters, now());
  }

  @Override
  public void listNodes(Empty request, StreamObserver<StringList> responses) {
    Protos.reply(responses, StringList.newBuilder().addAllValues(nodes.get()).build());
  }

  @Override
  public void listCrawls(Local request, StreamObserver<StringList> responses) {
    Protos.reply(responses, StringList.newBuilder().addAllValues(crawls.ids()).build());
  }

  @Override
  public void deleteCrawl(DeleteCrawlMessage request, StreamObserver<Urlfrontier.Long> responses) {
    change(() -> crawls.delete(request.getValue()),
        removed -> reply(responses, Math.max(removed, 0)), responses);
  }

  @Override
  public void listQueues(Pagination request, StreamObserver<QueueList> responses) {
    String crawlId = FrontierStore.normalise(request.getCrawlID());
    List<String> keys = crawls.get(crawlId)
        .map(crawl -> crawl.queueKeys(request.getIncludeInactive(), now()))
        .orElse(List.of());
    int start = (int) Math.min(Integer.toUnsignedLong(request.getStart()), keys.size());
    long size = request.getSize() == 0 ? 100
        : Math.min(Integer.toUnsignedLong(request.getSize()), settings.maxUrlsPerCall);
    List<String> page = keys.subList(start, (int) Math.min(keys.size(), start + size));
    Protos.reply(responses, QueueList.newBuilder().addAllValues(page).setTotal(keys.size())
        .setStart(start).setSize(page.size()).setCrawlID(crawlId).build());
  }

  /** Every crawl's totals now, for monitoring. */
  List<CrawlSnapshot> snapshots() {
    long now = now();
    List<CrawlSnapshot> out = new ArrayList<>();
    for (CrawlStore crawl : crawls.all()) {
      out.add(crawl.snapshot(now));
    }
    return out;
  }

  /** The service-wide counters, to count in. */
  Counters counterSet() {
    return counters;
  }

  /** The service-wide counters by name. */
  Map<String, Long> counters() {
    return counters.snapshot("");
  }

  @Override
  public void getStats(QueueWithinCrawlParams request, StreamObserver<Stats> responses) {
    String crawlId = FrontierStore.normalise(request.getCrawlID());
    String key = request.getKey().isEmpty() ? null : request.getKey();
    Stats.Builder stats = Stats.newBuilder().setCrawlID(crawlId);
    crawls.get(crawlId).ifPresent(crawl -> {
      QueueStats totals = crawl.stats(key, now());
      stats.setSize(totals.size())
          .setInProcess((int) Math.min(totals.inFlight(), Integer.MAX_VALUE))
          .setNumberOfQueues(totals.queues())
          .putCounts("completed", totals.completed())
          .putCounts("active_queues", totals.activeQueues())
          .putAllCounts(crawl.filterStats())
          .putAllCounts(prefixed("crawl.", crawl.counters()));
    });
    stats.putAllCounts(counters.snapshot("service."));
    Protos.reply(responses, stats.build());
  }

  @Override
  public void deleteQueue(QueueWithinCrawlParams request,
      StreamObserver<Urlfrontier.Long> responses) {
    if (missingKey("DeleteQueue", request.getKey(), responses)) {
      return;
    }
    change(() -> crawls.get(request.getCrawlID())
            .map(crawl -> crawl.deleteQueue(request.getKey())).orElse(-1L),
        removed -> reply(responses, Math.max(removed, 0)), responses);
  }

  @Override
  public void blockQueueUntil(BlockQueueParams request, StreamObserver<Empty> responses) {
    if (!missingKey("BlockQueueUntil", request.getKey(), responses)) {
      changeQueue("BlockQueueUntil", request.getCrawlID(), request.getKey(), CrawlStore.BLOCK,
          FrontierTime.millisOfSeconds(Protos.unsigned64(request.getTime())), responses);
    }
  }

  @Override
  public void setDelay(QueueDelayParams request, StreamObserver<Empty> responses) {
    Duration delay = Duration.ofSeconds(Protos.unsigned(request.getDelayRequestable()));
    if (request.getKey().isEmpty()) {
      change(() -> {
        crawls.defaultDelay(delay);
        return true;
      }, done -> Protos.reply(responses, Empty.getDefaultInstance()), responses);
    } else {
      changeQueue("SetDelay", request.getCrawlID(), request.getKey(), CrawlStore.DELAY,
          FrontierTime.millis(delay), responses);
    }
  }

  @Override
  public void setCrawlLimit(CrawlLimitParams request, StreamObserver<Empty> responses) {
    if (!missingKey("SetCrawlLimit", request.getKey(), responses)) {
      changeQueue("SetCrawlLimit", request.getCrawlID(), request.getKey(), CrawlStore.LIMIT,
          Integer.toUnsignedLong(request.getLimit()), responses);
    }
  }

  @Override
  public void setActive(Active request, StreamObserver<Empty> responses) {
    change(() -> {
      crawls.active(request.getState());
      return true;
    }, done -> Protos.reply(responses, Empty.getDefaultInstance()), responses);
  }

  @Override
  public void getActive(Local request, StreamObserver<Urlfrontier.Boolean> responses) {
    Protos.reply(responses, Urlfrontier.Boolean.newBuilder().setState(crawls.active()).build());
  }

  @Override
  public void setLogLevel(LogLevelParams request, StreamObserver<Empty> responses) {
    if (logLevels == null) {
      Protos.fail(responses, counters, Status.UNIMPLEMENTED,
          "SetLogLevel: this server has no logging backend");
      return;
    }
    String name = request.getPackage().isBlank() ? "ROOT" : request.getPackage();
    logLevels.set(name, request.getLevel().name());
    Protos.reply(responses, Empty.getDefaultInstance());
  }

  @Override
  public void getURLStatus(Urlfrontier.URLStatusRequest request,
      StreamObserver<URLItem> responses) {
    queries.status(request, responses);
  }

  @Override
  public void listURLs(Urlfrontier.ListUrlParams request, StreamObserver<URLItem> responses) {
    ListUrlsCall.start(request, responses, crawls, counters);
  }

  @Override
  public void countURLs(Urlfrontier.CountUrlParams request,
      StreamObserver<Urlfrontier.Long> responses) {
    queries.count(request, responses);
  }

  /** Applies a queue control to an existing queue, or answers NOT_FOUND. */
  private void changeQueue(String rpc, String crawlId, String key, byte op, long value,
      StreamObserver<Empty> responses) {
    change(() -> crawls.get(crawlId).map(crawl -> crawl.control(key, op, value)).orElse(false),
        found -> {
          if (found) {
            Protos.reply(responses, Empty.getDefaultInstance());
          } else {
            Protos.fail(responses, counters, Status.NOT_FOUND, rpc + ": no queue '" + key
                + "' in crawl '" + FrontierStore.normalise(crawlId) + "'");
          }
        }, responses);
  }

  /**
   * Changes the store, answering once the change is durable ({@link FrontierStore#afterDurable});
   * UNAVAILABLE if it cannot be.
   */
  private <T> void change(Supplier<T> change, Consumer<T> answer, StreamObserver<?> responses) {
    try {
      T done = change.get();
      crawls.afterDurable(() -> answer.accept(done));
    } catch (IllegalStateException e) {
      Protos.fail(responses, counters, Status.UNAVAILABLE, e.getMessage());
    }
  }

  private static void reply(StreamObserver<Urlfrontier.Long> responses, long value) {
    Protos.reply(responses, Urlfrontier.Long.newBuilder().setValue(value).build());
  }

  private static Map<String, Long> prefixed(String prefix, Map<String, Long> counters) {
    Map<String, Long> out = new java.util.TreeMap<>();
    counters.forEach((name, value) -> out.put(prefix + name, value));
    return out;
  }

  private boolean missingKey(String rpc, String key, StreamObserver<?> responses) {
    if (key.isEmpty()) {
      Protos.fail(responses, counters, Status.INVALID_ARGUMENT, rpc + ": key must not be empty");
    }
    return key.isEmpty();
  }
}
