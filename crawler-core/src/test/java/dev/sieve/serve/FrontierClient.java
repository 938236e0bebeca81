package dev.sieve.serve;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.BatchAck;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredBatch;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.Channel;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** What a test's URL Frontier client needs: items to put, and a PutURLs call that waits. */
public final class FrontierClient {
  private FrontierClient() {}

  /** A discovered item of {@code url}, with no key (queued by host) in the default crawl. */
  public static URLItem discovered(String url) {
    return discovered(url, "", "");
  }

  public static URLItem discovered(String url, String key, String crawlId) {
    return URLItem.newBuilder().setDiscovered(DiscoveredURLItem.newBuilder()
        .setInfo(URLInfo.newBuilder().setUrl(url).setKey(key).setCrawlID(crawlId))).build();
  }

  /** A known item of {@code url}: completed with 0, else to be refetched from that second. */
  public static URLItem known(String url, long refetchFrom) {
    return URLItem.newBuilder().setKnown(KnownURLItem.newBuilder()
        .setInfo(URLInfo.newBuilder().setUrl(url)).setRefetchableFromDate(refetchFrom)).build();
  }

  /** Streams {@code items} through one PutURLs call and returns the acks, in order (60 s at most). */
  public static List<AckMessage> put(Channel channel, List<URLItem> items) {
    return put(channel, items, 60);
  }

  /** As {@link #put(Channel, List)}, waiting at most {@code seconds}. */
  public static List<AckMessage> put(Channel channel, List<URLItem> items, int seconds) {
    return stream(items, acks -> URLFrontierGrpc.newStub(channel).putURLs(acks), seconds);
  }

  /**
   * Streams {@code batches} through one PutDiscovered call (URL Frontier 2.6) and returns the
   * batch acks, in order (60 s at most).
   */
  public static List<BatchAck> putDiscovered(Channel channel, List<DiscoveredBatch> batches) {
    return stream(batches, acks -> URLFrontierGrpc.newStub(channel).putDiscovered(acks), 60);
  }

  /** A batch {@code id} of discovered URLs, with no key, in the default crawl. */
  public static DiscoveredBatch batch(String id, String... urls) {
    DiscoveredBatch.Builder batch = DiscoveredBatch.newBuilder().setID(id);
    for (String url : urls) {
      batch.addItems(URLInfo.newBuilder().setUrl(url));
    }
    return batch.build();
  }

  private static <I, A> List<A> stream(List<I> items,
      java.util.function.Function<StreamObserver<A>, StreamObserver<I>> call, int seconds) {
    List<A> acks = new ArrayList<>();
    CompletableFuture<Void> done = new CompletableFuture<>();
    StreamObserver<I> requests = call.apply(
        new StreamObserver<>() {
          @Override
          public void onNext(A ack) {
            synchronized (acks) {
              acks.add(ack);
            }
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
    items.forEach(requests::onNext);
    requests.onCompleted();
    done.orTimeout(seconds, TimeUnit.SECONDS).join();
    synchronized (acks) {
      return List.copyOf(acks);
    }
  }

  /** A response observer that counts {@code latch} down per message and ignores the end. */
  public static <T> StreamObserver<T> countingDown(CountDownLatch latch) {
    return new StreamObserver<>() {
      @Override
      public void onNext(T value) {
        latch.countDown();
      }

      @Override
      public void onError(Throwable t) { }

      @Override
      public void onCompleted() { }
    };
  }
}
