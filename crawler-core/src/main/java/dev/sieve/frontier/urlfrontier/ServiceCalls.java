package dev.sieve.frontier.urlfrontier;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.BatchAck;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredBatch;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.BlockQueueParams;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueDelayParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.Stats;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RPCs a crawl makes of a URL Frontier service, for one crawl ID, each with a deadline. A call
 * that fails surfaces as an {@link UncheckedIOException} naming the service and the RPC, which the
 * crawl treats as its frontier's storage failing; a queue that does not exist (NOT_FOUND) is an
 * answer, not a failure.
 */
final class ServiceCalls implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ServiceCalls.class);
  /** Seconds any one call may take before it counts as the service failing. */
  private static final long DEADLINE_SECONDS = 60;

  private final ServiceAddress address;
  private final String crawlId;
  private final ManagedChannel channel;
  /** False once the service answered PutDiscovered UNIMPLEMENTED (API before 2.6). */
  private volatile boolean putDiscovered = true;

  ServiceCalls(ServiceAddress address, String crawlId) {
    this(address, crawlId, ServiceCredentials.of(address, null, null));
  }

  ServiceCalls(ServiceAddress address, String crawlId, ServiceCredentials credentials) {
    this.address = address;
    this.crawlId = crawlId;
    this.channel = NettyChannelBuilder.forAddress(address.host(), address.port(),
        credentials.channel()).intercept(credentials.interceptors()).build();
  }

  private URLFrontierGrpc.URLFrontierBlockingStub blocking() {
    return URLFrontierGrpc.newBlockingStub(channel)
        .withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
  }

  /** Streams {@code items} through one PutURLs call; their acks' statuses, in order. */
  List<AckMessage.Status> put(List<URLItem> items) {
    Acks acks = new Acks(items.size());
    StreamObserver<URLItem> requests = URLFrontierGrpc.newStub(channel)
        .withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS).putURLs(acks);
    items.forEach(requests::onNext);
    requests.onCompleted();
    return await("PutURLs", acks.all);
  }

  /**
   * Sends discovered URLs as one PutDiscovered batch (URL Frontier 2.6); to a service that answers
   * UNIMPLEMENTED (before 2.6), as discovered items of a PutURLs call, then and from then on.
   * Their statuses, in order.
   */
  List<AckMessage.Status> discover(List<URLInfo> urls) {
    if (putDiscovered) {
      CompletableFuture<List<AckMessage.Status>> acks = new CompletableFuture<>();
      StreamObserver<DiscoveredBatch> requests = URLFrontierGrpc.newStub(channel)
          .withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS).putDiscovered(
              new BatchAcks(urls.size(), acks));
      requests.onNext(DiscoveredBatch.newBuilder().addAllItems(urls).build());
      requests.onCompleted();
      try {
        return await("PutDiscovered", acks);
      } catch (UncheckedIOException e) {
        if (!(e.getCause().getCause() instanceof StatusRuntimeException s)
            || s.getStatus().getCode() != Status.Code.UNIMPLEMENTED) {
          throw e;
        }
        putDiscovered = false;
        log.info("URL Frontier at {} has no PutDiscovered (API before 2.6): discovered URLs go"
            + " by PutURLs", address);
      }
    }
    List<URLItem> items = new ArrayList<>(urls.size());
    urls.forEach(info -> items.add(URLItem.newBuilder()
        .setDiscovered(DiscoveredURLItem.newBuilder().setInfo(info)).build()));
    return put(items);
  }

  /** Whether discovered URLs still go by PutDiscovered. */
  boolean usesPutDiscovered() {
    return putDiscovered;
  }

  private <T> T await(String rpc, CompletableFuture<T> answer) {
    try {
      return answer.get(DEADLINE_SECONDS + 5, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw failure(rpc, e.getCause());
    } catch (TimeoutException e) {
      throw failure(rpc, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure(rpc, e);
    }
  }

  /** The ack of one PutDiscovered call of one batch: its statuses once the call ended. */
  private record BatchAcks(int expected, CompletableFuture<List<AckMessage.Status>> all)
      implements StreamObserver<BatchAck> {
    @Override
    public void onNext(BatchAck ack) {
      if (ack.getStatusesCount() == expected) {
        all.complete(List.copyOf(ack.getStatusesList()));
      } else {
        all.completeExceptionally(new IOException(
            ack.getStatusesCount() + " statuses for " + expected + " URLs"));
      }
    }

    @Override
    public void onError(Throwable t) {
      all.completeExceptionally(t);
    }

    @Override
    public void onCompleted() {
      all.completeExceptionally(new IOException("no ack for a batch of " + expected + " URLs"));
    }
  }

  /** The acks of one PutURLs call: complete once every item is acked and the call ended. */
  private static final class Acks implements StreamObserver<AckMessage> {
    private final int expected;
    private final List<AckMessage.Status> statuses;
    final CompletableFuture<List<AckMessage.Status>> all = new CompletableFuture<>();

    Acks(int expected) {
      this.expected = expected;
      this.statuses = new ArrayList<>(expected);
    }

    @Override
    public synchronized void onNext(AckMessage ack) {
      statuses.add(ack.getStatus());
    }

    @Override
    public void onError(Throwable t) {
      all.completeExceptionally(t);
    }

    @Override
    public synchronized void onCompleted() {
      if (statuses.size() == expected) {
        all.complete(List.copyOf(statuses));
      } else {
        all.completeExceptionally(new IOException(
            statuses.size() + " acks for " + expected + " items"));
      }
    }
  }

  /** One GetURLs call of this crawl: the URLs it leased, read to the end of its stream. */
  List<URLInfo> get(int maxQueues, int maxPerQueue, int leaseSeconds) {
    try {
      List<URLInfo> out = new ArrayList<>();
      blocking().getURLs(GetParams.newBuilder().setCrawlID(crawlId).setMaxQueues(maxQueues)
          .setMaxUrlsPerQueue(maxPerQueue).setDelayRequestable(leaseSeconds).build())
          .forEachRemaining(out::add);
      return out;
    } catch (StatusRuntimeException e) {
      throw failure("GetURLs", e);
    }
  }

  /** GetStats over every queue of this crawl. */
  Stats stats() {
    try {
      return blocking().getStats(QueueWithinCrawlParams.newBuilder().setCrawlID(crawlId).build());
    } catch (StatusRuntimeException e) {
      throw failure("GetStats", e);
    }
  }

  /** SetDelay of queue {@code key}; false if the service has no such queue. */
  boolean setDelay(String key, int seconds) {
    return queueCall("SetDelay", () -> blocking().setDelay(QueueDelayParams.newBuilder()
        .setCrawlID(crawlId).setKey(key).setDelayRequestable(seconds).build()));
  }

  /** BlockQueueUntil {@code epochSecond}; false if the service has no such queue. */
  boolean blockUntil(String key, long epochSecond) {
    return queueCall("BlockQueueUntil", () -> blocking().blockQueueUntil(BlockQueueParams
        .newBuilder().setCrawlID(crawlId).setKey(key).setTime(epochSecond).build()));
  }

  /** DeleteQueue {@code key}: how many URLs it held. */
  long deleteQueue(String key) {
    try {
      return blocking().deleteQueue(QueueWithinCrawlParams.newBuilder().setCrawlID(crawlId)
          .setKey(key).build()).getValue();
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return 0;
      }
      throw failure("DeleteQueue", e);
    }
  }

  private boolean queueCall(String rpc, Runnable call) {
    try {
      call.run();
      return true;
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return false;
      }
      throw failure(rpc, e);
    }
  }

  /** A one-line failure naming the service, the RPC and the cause. */
  UncheckedIOException failure(String rpc, Throwable cause) {
    String why = cause instanceof StatusRuntimeException s
        ? s.getStatus().getCode() + (s.getStatus().getDescription() == null ? ""
            : ": " + s.getStatus().getDescription())
        : cause.toString();
    String message = "URL Frontier at " + address + ": " + rpc + " failed (" + why + ")";
    return new UncheckedIOException(message, new IOException(message, cause));
  }

  @Override
  public void close() {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
