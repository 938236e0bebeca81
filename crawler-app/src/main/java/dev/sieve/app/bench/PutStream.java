package dev.sieve.app.bench;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.Channel;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One PutURLs stream of {@code bench serve}: at most {@code window} items unacknowledged, so the
 * client never buffers more than that; counts acks by status and records each item's latency
 * (sent to acked, acks come in order) in a {@link Latencies}. Items are sent from one thread.
 */
final class PutStream {
  private final Semaphore window;
  private final int size;
  private final long[] sentAt;
  private final Latencies latencies;
  private final StreamObserver<URLItem> requests;
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  final AtomicLong ok = new AtomicLong();
  final AtomicLong skipped = new AtomicLong();
  final AtomicLong failed = new AtomicLong();
  private long sent;
  private long acked;

  PutStream(Channel channel, int window, Latencies latencies) {
    this.size = window;
    this.window = new Semaphore(window);
    this.sentAt = new long[window];
    this.latencies = latencies;
    this.requests = URLFrontierGrpc.newStub(channel).putURLs(new StreamObserver<>() {
      @Override
      public void onNext(AckMessage ack) {
        acked(ack);
      }

      @Override
      public void onError(Throwable t) {
        done.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
        done.complete(null);
      }
    });
  }

  /** Sends one item, waiting while the window is full. */
  void send(URLItem item) throws InterruptedException {
    window.acquire();
    synchronized (sentAt) {
      sentAt[(int) (sent++ % size)] = System.nanoTime();
    }
    requests.onNext(item);
  }

  private void acked(AckMessage ack) {
    long started;
    synchronized (sentAt) {
      started = sentAt[(int) (acked++ % size)];
    }
    latencies.record(System.nanoTime() - started);
    switch (ack.getStatus()) {
      case OK -> ok.incrementAndGet();
      case SKIPPED -> skipped.incrementAndGet();
      default -> failed.incrementAndGet();
    }
    window.release();
  }

  /** Ends the stream and waits for every ack (at most 10 minutes). */
  void finish() throws Exception {
    requests.onCompleted();
    done.get(10, TimeUnit.MINUTES);
  }

  /** True when every item sent was acknowledged. */
  boolean idle() {
    return window.availablePermits() == size;
  }

  /** Acks received so far. */
  long acked() {
    synchronized (sentAt) {
      return acked;
    }
  }
}
