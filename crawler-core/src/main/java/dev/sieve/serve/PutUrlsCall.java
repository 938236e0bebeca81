package dev.sieve.serve;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.frontier.queue.Counters;
import dev.sieve.frontier.queue.FrontierStore;
import dev.sieve.frontier.queue.PutResult;
import dev.sieve.serve.limits.StoreLimits;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One PutURLs stream: each item is applied and acknowledged in order, and the next one is read
 * only while the client reads its acks (flow control), so a client streaming millions of items
 * holds a bounded amount of the server's memory. An item is acked only once the store says its
 * change is durable ({@link FrontierStore#afterDurable}: with a state directory, once journaled;
 * acks then come from the journal's writer, still in order). A bad item is acked SKIPPED (do not resend) and counted by reason; an item the
 * service could not apply is acked FAIL (may be resent). A client that vanishes mid-stream ends
 * its call; what was acked stays applied. Into a store that batches, items are applied a batch at
 * a time ({@link PutBatch}), still acked in order. An item that would pass a crawl or queue limit
 * ({@link StoreLimits}) ends the stream RESOURCE_EXHAUSTED after the acks of the items before it;
 * items after it are neither applied nor acked.
 */
final class PutUrlsCall implements StreamObserver<URLItem> {
  private static final Logger log = LoggerFactory.getLogger(PutUrlsCall.class);
  /** Items read ahead and not acked yet while the client reads acks: keeps the transport busy. */
  private static final int WINDOW = 256;
  /** Prefix of the counters of acks sent, by status: {@code put.acked.ok}, {@code .skipped}, {@code .fail}. */
  static final String ACKED = "put.acked.";

  private final ServerCallStreamObserver<AckMessage> acks;
  private final FrontierStore crawls;
  private final ServeSettings settings;
  private final Counters counters;
  private final Clock clock;
  private final StoreLimits limits;
  /** Why the stream ends refused, set when an item passes a limit; guarded by this. */
  private StatusRuntimeException refusal;
  private boolean closed;
  /** Counted per item and ack: held rather than looked up by name each time. */
  private final LongAdder items;
  private final LongAdder ackedOk;
  private final LongAdder ackedSkipped;
  private final LongAdder ackedFail;
  /** Items asked of the client and not acked yet (at most {@link #window}); guarded by this. */
  private int outstanding;
  /** The batch items wait in, or null when each is applied as it comes. */
  private final PutBatch batch;
  private final int window;

  private PutUrlsCall(ServerCallStreamObserver<AckMessage> acks, FrontierStore crawls,
      ServeSettings settings, Counters counters, Clock clock, StoreLimits limits,
      Executor storeCalls) {
    this.acks = acks;
    this.limits = limits;
    this.crawls = crawls;
    this.settings = settings;
    this.counters = counters;
    this.clock = clock;
    this.items = counters.adder("put.items");
    this.ackedOk = counters.adder(ACKED + "ok");
    this.ackedSkipped = counters.adder(ACKED + "skipped");
    this.ackedFail = counters.adder(ACKED + "fail");
    this.batch = crawls.batchesPuts()
        ? new PutBatch(this, crawls, settings, counters, clock, limits, storeCalls) : null;
    this.window = batch == null ? WINDOW : PutBatch.WINDOW;
  }

  static StreamObserver<URLItem> start(StreamObserver<AckMessage> responses, FrontierStore crawls,
      ServeSettings settings, Counters counters, Clock clock, StoreLimits limits,
      Executor storeCalls) {
    ServerCallStreamObserver<AckMessage> acks = (ServerCallStreamObserver<AckMessage>) responses;
    PutUrlsCall call = new PutUrlsCall(acks, crawls, settings, counters, clock, limits,
        storeCalls);
    acks.disableAutoRequest();
    acks.setOnReadyHandler(call::topUp);
    // With a cancel handler, acks to a vanished client are dropped instead of thrown; onError
    // counts the vanishing.
    acks.setOnCancelHandler(() -> { });
    counters.increment("put.streams");
    return call;
  }

  /**
   * Tops the read-ahead up to the window while the client takes acks, once half of it was
   * acked: asking for one item per ack would cost a transport round per item.
   */
  private synchronized void topUp() {
    if (!closed && outstanding <= window / 2 && acks.isReady()) {
      acks.request(window - outstanding);
      outstanding = window;
    }
  }

  /** Items asked of the client and not acked yet. */
  synchronized int outstanding() {
    return outstanding;
  }

  synchronized void ack(String id, AckMessage.Status status) {
    if (status == null) {
      if (!closed && !acks.isCancelled()) {
        acks.onError(refusal);
      }
      closed = true;
      return;
    }
    if (!closed && !acks.isCancelled()) {
      acks.onNext(AckMessage.newBuilder().setID(id).setStatus(status).build());
      (switch (status) {
        case OK -> ackedOk;
        case SKIPPED -> ackedSkipped;
        default -> ackedFail;
      }).increment();
    }
    outstanding--;
    topUp();
  }

  @Override
  public void onNext(URLItem item) {
    if (refused()) {
      return; // the stream is ending refused: items after the refused one are not applied
    }
    if (batch != null) {
      batch.add(item);
      return;
    }
    String id = PutItem.ackId(item);
    AckMessage.Status status = apply(item);
    try {
      crawls.afterDurable(() -> ack(id, status));
    } catch (RuntimeException e) {
      if (status != AckMessage.Status.FAIL) { // a failed apply was counted and logged already
        counters.increment("put.failed");
        log.error("PutURLs: item {} failed: {}", id, e.getMessage());
      }
      ack(id, AckMessage.Status.FAIL);
    }
  }

  /**
   * Applies an item; returns its ack status, null when it passes a limit (the stream ends
   * refused).
   */
  private AckMessage.Status apply(URLItem item) {
    try {
      items.increment();
      PutItem put = PutItem.read(item, settings);
      if (put.rejection() != null) {
        reject(put.rejection(), PutItem.ackId(item));
        return AckMessage.Status.SKIPPED;
      }
      StatusRuntimeException refused = limits.check(crawls, put.crawlId(), put.key());
      if (refused != null) {
        refuse(refused);
        return null;
      }
      long now = clock.millis(); // no Instant per item
      PutResult result;
      do {
        result = crawls.getOrCreate(put.crawlId()).put(put.key(), put.url(), put.discovered(),
            put.refetchFrom(), put.metadata(), now);
      } while (result == null);
      return result.changedQueue() ? AckMessage.Status.OK : AckMessage.Status.SKIPPED;
    } catch (RuntimeException e) {
      counters.increment("put.failed");
      log.error("PutURLs: item {} failed: {}", PutItem.ackId(item), e.toString());
      return AckMessage.Status.FAIL;
    }
  }

  synchronized void refuse(StatusRuntimeException refused) {
    refusal = refused;
  }

  /**
   * Ends the stream UNAVAILABLE: the store could not be reached ({@code e}), so no item after the
   * last ack is known to be kept; the client sends them again.
   */
  void unavailable(UncheckedIOException e) {
    refuse(StoreFailures.unavailable("PutURLs", e, counters).asRuntimeException());
    ack(null, null);
  }

  /** True once the stream is ending refused: no item after that is applied or acked. */
  synchronized boolean refused() {
    return refusal != null;
  }

  void reject(String reason, String id) {
    reject("PutURLs", counters, reason, id);
  }

  /**
   * Counts a bad item of {@code rpc} as {@code put.rejected.REASON}, logging the first of each
   * reason at WARN and the others at DEBUG.
   */
  static void reject(String rpc, Counters counters, String reason, String id) {
    String counter = "put.rejected." + reason;
    counters.increment(counter);
    if (counters.get(counter) == 1) {
      log.warn("{}: item {} skipped: {} (further ones are counted as {} in GetStats)",
          rpc, id, reason.replace('_', ' '), counter);
    } else {
      log.debug("{}: item {} skipped: {}", rpc, id, reason.replace('_', ' '));
    }
  }

  @Override
  public void onError(Throwable t) {
    // The client went away or broke the stream: nothing to answer; acked items stay applied.
    counters.increment("put.streams_broken");
    if (batch != null) {
      batch.flush();
    }
    log.debug("PutURLs stream ended by the client: {}", Status.fromThrowable(t));
  }

  @Override
  public void onCompleted() {
    if (batch != null) {
      batch.flush();
    }
    try {
      crawls.afterDurable(this::complete); // after the acks still to come
    } catch (RuntimeException e) {
      complete();
    }
  }

  private synchronized void complete() {
    if (!closed && !acks.isCancelled()) {
      closed = true;
      acks.onCompleted();
    }
  }
}
