package dev.sieve.serve;

import crawlercommons.urlfrontier.Urlfrontier.ListUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.frontier.queue.Counters;
import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.FrontierStore;
import dev.sieve.frontier.queue.ListCursor;
import dev.sieve.frontier.queue.QueuedUrl;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Optional;

/**
 * One ListURLs call: streams the crawl's URLs ({@link CrawlStore#listNext}: completed, then
 * pending) a page at a time, the next page only once the client has taken the last one (flow
 * control), so that a listing of any {@code size} holds at most a page of the server's heap.
 * {@code size} and {@code start} are unsigned; {@code size} 0 means 100, as the reference's, and
 * no other cap applies. A client that goes away ends the listing.
 */
final class ListUrlsCall {
  /** URLs in one page at most. */
  static final int PAGE_URLS = 1_024;
  /** Bytes of URLs and metadata in one page, about. */
  static final long PAGE_BYTES = 1 << 20;
  /** What {@code size} 0 asks for. */
  static final long DEFAULT_SIZE = 100;

  private final ServerCallStreamObserver<URLItem> responses;
  private final CrawlStore crawl;
  private final ListCursor cursor;
  private final Counters counters;
  private long remaining;
  private boolean finished;

  private ListUrlsCall(ServerCallStreamObserver<URLItem> responses, CrawlStore crawl,
      ListCursor cursor, long size, Counters counters) {
    this.responses = responses;
    this.crawl = crawl;
    this.cursor = cursor;
    this.remaining = size;
    this.counters = counters;
  }

  static void start(ListUrlParams request, StreamObserver<URLItem> responses,
      FrontierStore crawls, Counters counters) {
    Optional<? extends CrawlStore> crawl = crawls.get(request.getCrawlID());
    if (crawl.isEmpty()) {
      responses.onCompleted();
      return;
    }
    long size = request.getSize() == 0 ? DEFAULT_SIZE : Integer.toUnsignedLong(request.getSize());
    ListCursor cursor = new ListCursor(request.getKey().isEmpty() ? null : request.getKey(),
        request.getFilter(), request.getIgnoreCase(), Integer.toUnsignedLong(request.getStart()));
    ServerCallStreamObserver<URLItem> observer = (ServerCallStreamObserver<URLItem>) responses;
    ListUrlsCall call = new ListUrlsCall(observer, crawl.get(), cursor, size, counters);
    observer.setOnCancelHandler(call::cancelled);
    observer.setOnReadyHandler(call::drain);
    call.drain();
  }

  /** Sends pages while the client takes them; ends the call when the listing or size is done. */
  private synchronized void drain() {
    try {
      while (!finished && responses.isReady()) {
        List<QueuedUrl> page = crawl.listNext(cursor, (int) Math.min(PAGE_URLS, remaining),
            PAGE_BYTES);
        for (QueuedUrl url : page) {
          responses.onNext(Protos.known(crawl.id(), url));
        }
        remaining -= page.size();
        if (cursor.done() || remaining <= 0) {
          finished = true;
          responses.onCompleted();
        }
      }
    } catch (RuntimeException e) {
      finished = true;
      Protos.fail(responses, counters, Status.UNAVAILABLE, "ListURLs of crawl '" + crawl.id()
          + "' stopped after " + cursor.listed() + " URLs: " + e.getMessage());
    }
  }

  private synchronized void cancelled() {
    finished = true;
  }
}
