package dev.sieve.serve;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.BatchAck;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredBatch;
import dev.sieve.frontier.queue.Counters;
import dev.sieve.frontier.queue.FrontierStore;
import dev.sieve.serve.limits.StoreLimits;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One PutDiscovered stream (URL Frontier 2.6): each batch of discovered URLs is applied and
 * answered by one BatchAck holding a status per URL in the batch's order: OK when created, SKIPPED
 * when already known (a duplicate, also within the batch) or bad (counted by reason as PutURLs
 * counts it), FAIL when the service could not apply it. A batch goes into each of its crawls
 * with one {@link dev.sieve.frontier.queue.CrawlStore#putAll} (in memory, one Sieve pass), and is
 * acked once the store says those changes are durable ({@link FrontierStore#afterDurable}). At
 * most {@link #WINDOW} batches are read ahead of their acks (flow control).
 */
final class PutDiscoveredCall implements StreamObserver<DiscoveredBatch> {
  private static final Logger log = LoggerFactory.getLogger(PutDiscoveredCall.class);
  /** Batches read and not acked yet. */
  static final int WINDOW = 8;
  /** Prefix of the counters of URL statuses sent: {@code discovered.acked.ok}, {@code .skipped}… */
  static final String ACKED = "discovered.acked.";

  private final ServerCallStreamObserver<BatchAck> acks;
  private final FrontierStore crawls;
  private final ServeSettings settings;
  private final Counters counters;
  private final Clock clock;
  private final StoreLimits limits;
  /** Set once a batch was refused: the stream has ended, later batches are ignored. */
  private volatile boolean refused;
  /** Statuses sent, by {@link AckMessage.Status} ordinal (OK, SKIPPED, FAIL). */
  private final LongAdder[] acked = new LongAdder[3];

  private PutDiscoveredCall(ServerCallStreamObserver<BatchAck> acks, FrontierStore crawls,
      ServeSettings settings, Counters counters, Clock clock, StoreLimits limits) {
    this.acks = acks;
    this.limits = limits;
    this.crawls = crawls;
    this.settings = settings;
    this.counters = counters;
    this.clock = clock;
    for (AckMessage.Status status : List.of(AckMessage.Status.OK, AckMessage.Status.SKIPPED,
        AckMessage.Status.FAIL)) {
      acked[status.ordinal()] = counters.adder(ACKED + status.name().toLowerCase(Locale.ROOT));
    }
  }

  static StreamObserver<DiscoveredBatch> start(StreamObserver<BatchAck> responses,
      FrontierStore crawls, ServeSettings settings, Counters counters, Clock clock,
      StoreLimits limits) {
    ServerCallStreamObserver<BatchAck> acks = (ServerCallStreamObserver<BatchAck>) responses;
    PutDiscoveredCall call =
        new PutDiscoveredCall(acks, crawls, settings, counters, clock, limits);
    acks.disableAutoRequest();
    acks.setOnCancelHandler(() -> { }); // acks to a vanished client are dropped, not thrown
    counters.increment("discovered.streams");
    acks.request(WINDOW);
    return call;
  }

  @Override
  public void onNext(DiscoveredBatch batch) {
    if (refused) {
      return;
    }
    try {
      apply(batch);
    } catch (UncheckedIOException e) {
      // The store cannot be reached: this batch is not acked, and the stream ends UNAVAILABLE.
      refused = true;
      acks.onError(StoreFailures.unavailable("PutDiscovered", e, counters).asRuntimeException());
    }
  }

  private void apply(DiscoveredBatch batch) {
    counters.increment("discovered.batches");
    counters.adder("discovered.items").add(batch.getItemsCount());
    AckMessage.Status[] status = new AckMessage.Status[batch.getItemsCount()];
    List<PutItem> read = new ArrayList<>(status.length);
    Map<String, List<Integer>> byCrawl = new LinkedHashMap<>();
    StoreLimits.Batch checks = limits.batch();
    for (int i = 0; i < status.length; i++) {
      PutItem put = PutItem.discovered(batch.getItems(i), settings);
      read.add(put);
      if (put.rejection() != null) {
        PutUrlsCall.reject("PutDiscovered", counters, put.rejection(), batch.getItems(i).getUrl());
        status[i] = AckMessage.Status.SKIPPED;
      } else {
        // As PutURLs: a crawl or queue past its limit ends the stream; the batch is refused whole
        // (the new queues of its earlier items counted).
        StatusRuntimeException refusal = checks.check(crawls, put.crawlId(), put.key());
        if (refusal != null) {
          refused = true;
          acks.onError(refusal);
          return;
        }
        byCrawl.computeIfAbsent(put.crawlId(), id -> new ArrayList<>()).add(i);
      }
    }
    long now = clock.millis();
    byCrawl.forEach((crawlId, positions) ->
        PutBatch.apply(crawls, counters, crawlId, positions, read, now, status));
    try {
      crawls.afterDurable(() -> ack(batch.getID(), status));
    } catch (RuntimeException e) {
      // Not durable: what was applied may be lost, so the client may send it again.
      counters.increment("discovered.failed");
      log.error("PutDiscovered: batch {} failed: {}", batch.getID(), e.getMessage());
      Arrays.setAll(status, i -> status[i] == AckMessage.Status.OK ? AckMessage.Status.FAIL
          : status[i]);
      ack(batch.getID(), status);
    }
  }

  private synchronized void ack(String id, AckMessage.Status[] status) {
    if (refused) {
      return; // the stream ended RESOURCE_EXHAUSTED: no ack can follow
    }
    if (acks.isCancelled()) {
      return;
    }
    BatchAck.Builder ack = BatchAck.newBuilder().setID(id);
    for (AckMessage.Status each : status) {
      ack.addStatuses(each);
      acked[each.ordinal()].increment();
    }
    acks.onNext(ack.build());
    acks.request(1);
  }

  @Override
  public void onError(Throwable t) {
    counters.increment("discovered.streams_broken");
    log.debug("PutDiscovered stream ended by the client: {}", Status.fromThrowable(t));
  }

  @Override
  public void onCompleted() {
    try {
      crawls.afterDurable(this::complete); // after the acks still to come
    } catch (RuntimeException e) {
      complete();
    }
  }

  private synchronized void complete() {
    if (!acks.isCancelled() && !refused) {
      acks.onCompleted();
    }
  }
}
