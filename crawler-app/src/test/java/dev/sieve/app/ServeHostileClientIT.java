package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.CountUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.ListUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.Pagination;
import crawlercommons.urlfrontier.Urlfrontier.QueueList;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.serve.FrontierClient;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27's hostile client: {@code serve} in a JVM whose -Xmx is its documented heap bound for
 * the limits it runs with (docs/serve.md, Limits: 2 crawls, 10,000 queues, 64 open calls, 8 MiB
 * pending memory: 256 MiB), exiting on OutOfMemoryError, takes 10⁶ distinct keys in one stream,
 * a 100 MB message, 2³²−1 in every paged call and 1,000 streams opened and abandoned (three
 * times): each is answered with its named status or a correct answer, and a call after each
 * succeeds.
 */
class ServeHostileClientIT {
  private static final int QUEUES = 10_000;
  private static final int PER_CONNECTION = 32;

  @TempDir Path dir;

  @Test
  void hostileClient_eachAbuseAnsweredByName_andServeKeepsServingWithinItsHeapBound()
      throws Exception {
    CrawlerJar.Started serve = new CrawlerJar(dir).heap("256m").start("serve", "--port", "0",
        "--max-crawls", "2", "--max-queues-per-crawl", "" + QUEUES,
        "--max-calls-per-connection", "" + PER_CONNECTION, "--max-open-calls", "64",
        "--pending-memory", "8388608", "--expected-urls", "100000");
    int port = ServeIT.awaitPort(serve);
    ManagedChannel good = channel(port);
    try {
      Outcome keys = stream(good, 1_000_000,
          i -> FrontierClient.discovered("http://h" + i + ".test/"));
      assertThat(keys.status().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
      assertThat(keys.status().getDescription())
          .contains("--max-queues-per-crawl (" + QUEUES + ")");
      assertThat(keys.acked()).isEqualTo(QUEUES);
      assertThat(stats(good, "service.limit.queues_per_crawl")).isEqualTo(1);

      String hundredMegabytes = "x".repeat(100_000_000);
      Outcome huge = stream(good, 1, i -> URLItem.newBuilder().setDiscovered(
          DiscoveredURLItem.newBuilder().setInfo(URLInfo.newBuilder().setUrl("http://big.test/")
              .putMetadata("m", StringList.newBuilder().addValues(hundredMegabytes).build())))
          .build());
      assertThat(huge.status().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
      assertThat(huge.status().getDescription()).contains("exceeds maximum size 1048576");
      assertThat(stats(good, "service.limit.message_bytes")).isEqualTo(1);

      pagedCallsWithLargestSizes_answerInFull(good);

      for (int round = 0; round < 3; round++) {
        abandonedStreams_refusedPastTheLimit_andReleasedWithTheirConnection(port, good);
      }
      assertThat(serve.process().isAlive()).as("serve within its 256 MiB bound").isTrue();
      String output = Files.readString(serve.stdout()) + Files.readString(serve.stderr());
      assertThat(output).as("no stack trace for a client's input").doesNotContain("\tat ");
      assertThat(output).as("each kind logged once").containsOnlyOnce("--max-queues-per-crawl")
          .containsOnlyOnce("--max-calls-per-connection");
    } finally {
      good.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      serve.process().destroy();
      serve.process().waitFor(30, TimeUnit.SECONDS);
    }
  }

  private static void pagedCallsWithLargestSizes_answerInFull(ManagedChannel channel) {
    URLFrontierGrpc.URLFrontierBlockingStub client = blocking(channel);
    QueueList queues = client.listQueues(Pagination.newBuilder().setSize(-1).build());
    assertThat(queues.getValuesCount()).isEqualTo(QUEUES);
    assertThat(queues.getTotal()).isEqualTo(QUEUES);
    assertThat(client.listQueues(Pagination.newBuilder().setStart(-1).setSize(-1).build())
        .getValuesCount()).isZero();
    long[] listed = {0};
    client.listURLs(ListUrlParams.newBuilder().setSize(-1).build())
        .forEachRemaining(item -> listed[0]++);
    assertThat(listed[0]).isEqualTo(QUEUES);
    assertThat(client.listURLs(ListUrlParams.newBuilder().setStart(-1).setSize(-1).build()))
        .isExhausted();
    assertThat(client.countURLs(CountUrlParams.getDefaultInstance()).getValue())
        .isEqualTo(QUEUES);
    long[] leased = {0};
    client.getURLs(GetParams.newBuilder().setMaxUrlsPerQueue(-1).setMaxQueues(-1)
        .setDelayRequestable(-1).build()).forEachRemaining(url -> leased[0]++);
    assertThat(leased[0]).isEqualTo(QUEUES);
  }

  /**
   * A connection opens 1,000 PutURLs streams and never sends, half-closes or cancels them: those
   * past --max-calls-per-connection are refused by name, others still get answers, and closing
   * the connection gives every place back.
   */
  private static void abandonedStreams_refusedPastTheLimit_andReleasedWithTheirConnection(
      int port, ManagedChannel good) {
    ManagedChannel hostile = channel(port);
    List<CompletableFuture<Status>> ends = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      CompletableFuture<Status> end = new CompletableFuture<>();
      ends.add(end);
      URLFrontierGrpc.newStub(hostile).putURLs(new StreamObserver<AckMessage>() {
        @Override
        public void onNext(AckMessage ack) { }

        @Override
        public void onError(Throwable t) {
          end.complete(Status.fromThrowable(t));
        }

        @Override
        public void onCompleted() {
          end.complete(Status.OK);
        }
      });
    }
    ServeIT.await(() -> ends.stream().filter(CompletableFuture::isDone).count()
        >= 1_000 - PER_CONNECTION, "the streams past the limit refused");
    List<Status> refused = ends.stream().filter(CompletableFuture::isDone)
        .map(CompletableFuture::join).toList();
    assertThat(refused).hasSize(1_000 - PER_CONNECTION).allSatisfy(status -> {
      assertThat(status.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
      assertThat(status.getDescription())
          .contains("--max-calls-per-connection (" + PER_CONNECTION + ")");
    });
    assertThat(stats(good, "service.calls.open")).as("the abandoned ones and this GetStats")
        .isEqualTo(PER_CONNECTION + 1);

    hostile.shutdownNow();
    ServeIT.await(() -> stats(good, "service.calls.open") == 1,
        "the abandoned streams released with their connection");
  }

  private record Outcome(long acked, Status status) {}

  /** Streams {@code count} items as the server takes them (client flow control) until its end. */
  private static Outcome stream(ManagedChannel channel, int count, IntFunction<URLItem> item)
      throws Exception {
    CompletableFuture<Status> end = new CompletableFuture<>();
    AtomicLong acked = new AtomicLong();
    URLFrontierGrpc.newStub(channel).putURLs(new ClientResponseObserver<URLItem, AckMessage>() {
      private ClientCallStreamObserver<URLItem> requests;
      private int next;

      @Override
      public void beforeStart(ClientCallStreamObserver<URLItem> requests) {
        this.requests = requests;
        requests.setOnReadyHandler(this::send);
      }

      private synchronized void send() {
        while (requests.isReady() && next < count && !end.isDone()) {
          requests.onNext(item.apply(next++));
          if (next == count) {
            requests.onCompleted();
          }
        }
      }

      @Override
      public void onNext(AckMessage ack) {
        if (ack.getStatus() == AckMessage.Status.OK) {
          acked.incrementAndGet();
        }
      }

      @Override
      public void onError(Throwable t) {
        end.complete(Status.fromThrowable(t));
      }

      @Override
      public void onCompleted() {
        end.complete(Status.OK);
      }
    });
    Status status = end.get(300, TimeUnit.SECONDS);
    return new Outcome(acked.get(), status);
  }

  private static long stats(ManagedChannel channel, String counter) {
    return blocking(channel).getStats(QueueWithinCrawlParams.getDefaultInstance())
        .getCountsOrDefault(counter, -1);
  }

  private static URLFrontierGrpc.URLFrontierBlockingStub blocking(ManagedChannel channel) {
    return URLFrontierGrpc.newBlockingStub(channel).withDeadlineAfter(120, TimeUnit.SECONDS);
  }

  private static ManagedChannel channel(int port) {
    return ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
  }
}
