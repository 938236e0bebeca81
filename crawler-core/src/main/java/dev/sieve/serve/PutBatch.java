package dev.sieve.serve;

import dev.sieve.frontier.queue.Counters;
import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.FrontierStore;
import dev.sieve.frontier.queue.PutResult;
import dev.sieve.serve.limits.StoreLimits;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.StatusRuntimeException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The items of one PutURLs stream into a store that batches ({@link FrontierStore#batchesPuts}):
 * buffered up to {@link #SIZE}, or until every item asked of the client has come (it waits for
 * acks), or until the stream pauses {@link #LINGER_MICROS} µs; then applied crawl by crawl with
 * one {@link CrawlStore#putAll} each and acked in the order they came. An item the store could not
 * apply is acked FAIL, a bad one SKIPPED, as one at a time. An item past a crawl or queue limit
 * ({@link StoreLimits}) ends the stream as one at a time does: the items before it are applied and
 * acked, it and those after it are not. A batch applied after a pause runs on the server's pool for
 * store calls, not on the one timer thread, so streams that pause (clients sending a few URLs at a
 * time) are applied side by side rather than one after another. Thread-safe.
 */
final class PutBatch {
  private static final Logger log = LoggerFactory.getLogger(PutBatch.class);
  /** Items applied at most in one batch. */
  static final int SIZE = 512;
  /** Items a stream may have asked for and not acked: two batches, one filling while one runs. */
  static final int WINDOW = 2 * SIZE;
  /** How long a batch waits for more items of a stream that paused before it is applied. */
  static final long LINGER_MICROS = 1_000;
  private static final int MAX_ATTEMPTS = 100;
  private static final ScheduledExecutorService linger =
      Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "serve-put-linger");
        thread.setDaemon(true);
        return thread;
      });

  private final PutUrlsCall call;
  private final FrontierStore crawls;
  private final ServeSettings settings;
  private final Counters counters;
  private final Clock clock;
  private final StoreLimits limits;
  private final LongAdder itemCount;
  /** Where a batch that lingered is applied: the server's pool for calls that wait on the store. */
  private final Executor storeCalls;
  /** Items come and not applied yet; guarded by this. */
  private List<URLItem> waiting = new ArrayList<>();
  private boolean lingering;

  PutBatch(PutUrlsCall call, FrontierStore crawls, ServeSettings settings, Counters counters,
      Clock clock, StoreLimits limits, Executor storeCalls) {
    this.storeCalls = Objects.requireNonNull(storeCalls, "storeCalls");
    this.limits = limits;
    this.call = call;
    this.crawls = crawls;
    this.settings = settings;
    this.counters = counters;
    this.clock = clock;
    this.itemCount = counters.adder("put.items");
  }

  /** Takes an item: applies the batch if it is full or the client can send no more for now. */
  synchronized void add(URLItem item) {
    waiting.add(item);
    if (waiting.size() >= SIZE || waiting.size() >= call.outstanding()) {
      flush();
    } else if (!lingering) {
      lingering = true;
      linger.schedule(this::handOff, LINGER_MICROS, TimeUnit.MICROSECONDS);
    }
  }

  /** On the timer's thread: applies the batch on the store's pool (inline once it is shut down). */
  private void handOff() {
    try {
      storeCalls.execute(this::lingered);
    } catch (RejectedExecutionException e) {
      lingered(); // the server is stopping: ack what came rather than leave it unanswered
    }
  }

  private synchronized void lingered() {
    lingering = false;
    flush();
  }

  /**
   * Applies and acks every item come so far; if the store cannot be reached, none of them is
   * acked and the stream ends UNAVAILABLE (on whichever thread this runs).
   */
  synchronized void flush() {
    if (waiting.isEmpty()) {
      return;
    }
    if (call.refused()) {
      // An item that came while the batch before was being refused: neither applied nor acked.
      waiting = new ArrayList<>();
      return;
    }
    List<URLItem> items = waiting;
    waiting = new ArrayList<>();
    try {
      flush(items);
    } catch (UncheckedIOException e) {
      call.unavailable(e);
    }
  }

  private void flush(List<URLItem> items) {
    AckMessage.Status[] status = new AckMessage.Status[items.size()];
    Map<String, List<Integer>> byCrawl = new LinkedHashMap<>();
    List<PutItem> read = new ArrayList<>(items.size());
    int end = items.size();
    StoreLimits.Batch checks = limits.batch();
    for (int i = 0; i < end; i++) {
      itemCount.increment();
      PutItem put = PutItem.read(items.get(i), settings);
      read.add(put);
      if (put.rejection() != null) {
        call.reject(put.rejection(), PutItem.ackId(items.get(i)));
        status[i] = AckMessage.Status.SKIPPED;
        continue;
      }
      StatusRuntimeException refusal = checks.check(crawls, put.crawlId(), put.key());
      if (refusal != null) {
        call.refuse(refusal);
        end = i;
      } else {
        byCrawl.computeIfAbsent(put.crawlId(), id -> new ArrayList<>()).add(i);
      }
    }
    long now = clock.millis();
    byCrawl.forEach((crawlId, positions) ->
        apply(crawls, counters, crawlId, positions, read, now, status));
    for (int i = 0; i < end; i++) {
      call.ack(PutItem.ackId(items.get(i)), status[i]);
    }
    if (end < items.size()) {
      call.ack(PutItem.ackId(items.get(end)), null); // ends the stream refused
    }
  }

  /**
   * Puts the items at {@code positions} of {@code read} into crawl {@code crawlId} with one {@link
   * CrawlStore#putAll} (again into the crawl created anew if it was deleted meanwhile), setting
   * their ack status: OK, SKIPPED when already known, FAIL (counted and logged) when the store
   * failed.
   *
   * @throws UncheckedIOException when the store cannot be reached: the caller ends its stream
   */
  static void apply(FrontierStore crawls, Counters counters, String crawlId,
      List<Integer> positions, List<PutItem> read, long now, AckMessage.Status[] status) {
    List<Integer> todo = positions;
    try {
      for (int attempt = 0; !todo.isEmpty(); attempt++) {
        if (attempt == MAX_ATTEMPTS) {
          throw new IllegalStateException("crawl '" + crawlId + "' kept being deleted under "
              + todo.size() + " puts");
        }
        List<PutItem> batch = new ArrayList<>(todo.size());
        todo.forEach(i -> batch.add(read.get(i)));
        PutResult[] results = crawls.getOrCreate(crawlId).putAll(batch, now);
        List<Integer> again = new ArrayList<>();
        for (int j = 0; j < results.length; j++) {
          if (results[j] == null) {
            again.add(todo.get(j));
          } else {
            status[todo.get(j)] = results[j].changedQueue() ? AckMessage.Status.OK
                : AckMessage.Status.SKIPPED;
          }
        }
        todo = again;
      }
    } catch (UncheckedIOException e) {
      throw e;
    } catch (RuntimeException e) {
      long failed = positions.stream().filter(i -> status[i] == null).count();
      counters.adder("put.failed").add(failed);
      log.error("{} URLs put into crawl '{}' failed: {}", failed, crawlId, e.getMessage());
      positions.forEach(i -> {
        if (status[i] == null) {
          status[i] = AckMessage.Status.FAIL;
        }
      });
    }
  }
}
