package dev.sieve.bench;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.BatchAck;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredBatch;
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
 * (sent to acked, acks come in order) in a {@link Latencies}. Items are sent from one thread. With
 * a batch size, discovered items go instead as PutDiscovered batches of that many URLs (URL
 * Frontier 2.6), each URL's latency being its batch's.
 */
final class PutStream {
  private final Semaphore window;
  private final int size;
  private final long[] sentAt;
  private final Latencies latencies;
  private final StreamObserver<URLItem> requests;
  /** PutDiscovered's stream, or null for PutURLs. */
  private final StreamObserver<DiscoveredBatch> batches;
  private final int batchSize;
  private DiscoveredBatch.Builder batch;
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  final AtomicLong ok = new AtomicLong();
  final AtomicLong skipped = new AtomicLong();
  final AtomicLong failed = new AtomicLong();
  private long sent;
  private long acked;

  PutStream(Channel channel, int window, Latencies latencies) {
    this(channel, window, latencies, 0);
  }

  /** {@code batchSize} 0: PutURLs; else PutDiscovered batches of that many discovered URLs. */
  PutStream(Channel channel, int window, Latencies latencies, int batchSize) {
    this.size = window;
    this.window = new Semaphore(window);
    this.sentAt = new long[window];
    this.latencies = latencies;
    this.batchSize = batchSize;
    this.batches = batchSize == 0 ? null : URLFrontierGrpc.newStub(channel).putDiscovered(
        new StreamObserver<>() {
          @Override
          public void onNext(BatchAck ack) {
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
    this.requests = batchSize != 0 ? null : URLFrontierGrpc.newStub(channel).putURLs(
        new StreamObserver<>() {
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

  /** Sends one item (into the batch being filled, with a batch size), waiting while the window is full. */
  void send(URLItem item) throws InterruptedException {
    window.acquire();
    if (batches != null) {
      if (batch == null) {
        batch = DiscoveredBatch.newBuilder();
      }
      batch.addItems(item.getDiscovered().getInfo());
      if (batch.getItemsCount() == batchSize) {
        sendBatch();
      }
      return;
    }
    synchronized (sentAt) {
      sentAt[(int) (sent++ % size)] = System.nanoTime();
    }
    requests.onNext(item);
  }

  private void sendBatch() {
    synchronized (sentAt) {
      sentAt[(int) (sent++ % size)] = System.nanoTime();
    }
    batches.onNext(batch.build());
    batch = null;
  }

  private void acked(BatchAck ack) {
    long started;
    synchronized (sentAt) {
      started = sentAt[(int) (acked++ % size)];
    }
    long latency = System.nanoTime() - started;
    for (AckMessage.Status status : ack.getStatusesList()) {
      latencies.record(latency);
      count(status);
    }
    window.release(ack.getStatusesCount());
  }

  private void count(AckMessage.Status status) {
    switch (status) {
      case OK -> ok.incrementAndGet();
      case SKIPPED -> skipped.incrementAndGet();
      default -> failed.incrementAndGet();
    }
  }

  private void acked(AckMessage ack) {
    long started;
    synchronized (sentAt) {
      started = sentAt[(int) (acked++ % size)];
    }
    latencies.record(System.nanoTime() - started);
    count(ack.getStatus());
    window.release();
  }

  /** Ends the stream and waits for every ack (at most 10 minutes). */
  void finish() throws Exception {
    if (batches != null) {
      if (batch != null) {
        sendBatch();
      }
      batches.onCompleted();
    } else {
      requests.onCompleted();
    }
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
