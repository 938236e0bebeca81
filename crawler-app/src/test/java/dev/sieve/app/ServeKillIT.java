package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.CountUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.ListUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLStatusRequest;
import dev.sieve.serve.FrontierClient;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16's acceptance: {@code serve --state DIR} killed with SIGKILL at a random moment under a
 * stream of PutURLs (discovered URLs, and completions of what GetURLs handed out), started again
 * on DIR: every URL that was acknowledged is pending, leased-then-expired (pending again) or
 * completed; none is lost, and every acknowledged completion is still completed.
 */
class ServeKillIT {
  private static final int HOSTS = 20;

  @TempDir Path dir;

  @Test
  void killDashNine_underPutsAndGets_losesNoAcknowledgedUrl() throws Exception {
    long seed = System.nanoTime();
    long started = System.nanoTime();
    long startedEpoch = java.time.Instant.now().getEpochSecond();
    Random random = new Random(seed);
    int killAfter = 2_000 + random.nextInt(15_000);
    Path state = dir.resolve("state");
    CrawlerJar jar = new CrawlerJar(dir);
    CrawlerJar.Started first = jar.start("serve", "--port", "0", "--state", state.toString(),
        "--checkpoint-interval", "1");
    Set<String> acked = ConcurrentHashMap.newKeySet();
    Set<String> completedAcked = ConcurrentHashMap.newKeySet();
    Set<String> leased = ConcurrentHashMap.newKeySet();
    AtomicBoolean stop = new AtomicBoolean();
    ManagedChannel channel = ManagedChannelBuilder
        .forAddress("127.0.0.1", ServeIT.awaitPort(first)).usePlaintext().build();
    Thread putter = new Thread(() -> streamDiscovered(channel, acked, stop), "putter");
    Thread getter = new Thread(() -> leaseAndComplete(channel, leased, completedAcked, stop),
        "getter");
    try {
      putter.start();
      getter.start();
      // Killed once there is something of each kind to lose: acked puts, acked completions, and
      // URLs leased but not completed (on a loaded machine the getter may start late).
      ServeIT.await(() -> acked.size() >= killAfter && !completedAcked.isEmpty()
              && !completedAcked.containsAll(leased) || !first.process().isAlive(),
          killAfter + " URLs acked, some completed, some leased");
      System.out.printf("ServeKillIT: %d acked in %d ms, killing%n", acked.size(),
          (System.nanoTime() - started) / 1_000_000);
      first.process().destroyForcibly(); // SIGKILL
      assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      stop.set(true);
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      putter.join(30_000);
      getter.join(30_000);
    }
    assertThat(first.finish().exitCode()).as("killed, seed " + seed).isEqualTo(137);
    long killedAt = System.nanoTime();
    long killedEpoch = java.time.Instant.now().getEpochSecond();

    CrawlerJar.Started second = jar.start("serve", "--port", "0", "--state", state.toString());
    ManagedChannel again = ManagedChannelBuilder
        .forAddress("127.0.0.1", ServeIT.awaitPort(second)).usePlaintext().build();
    try {
      CrawlerJar.Run refused = jar.run("serve", "--port", "0", "--state", state.toString());
      assertThat(refused.exitCode()).isEqualTo(2);
      assertThat(refused.stderr().strip())
          .isEqualTo("serve: state directory " + state + " is in use by another serve");

      URLFrontierGrpc.URLFrontierBlockingStub client = URLFrontierGrpc.newBlockingStub(again)
          .withDeadlineAfter(120, TimeUnit.SECONDS);
      // Pending: listed by ListURLs (as many as CountURLs counts); any other acked URL must be
      // completed, as GetURLStatus says.
      long count = client.countURLs(CountUrlParams.newBuilder().build()).getValue();
      // ListURLs lists completed URLs too (refetch date 0): pending ones are the others.
      Set<String> listed = new HashSet<>();
      Set<String> listedPending = new HashSet<>();
      List<Long> created = new ArrayList<>();
      client.listURLs(ListUrlParams.newBuilder().setSize((int) count + 10).build())
          .forEachRemaining(item -> {
            listed.add(info(item));
            if (item.getKnown().getRefetchableFromDate() != 0) {
              listedPending.add(info(item));
              created.add(item.getCreationDate());
            }
          });
      assertThat(listed).as("ListURLs lists what CountURLs counts").hasSize((int) count);
      assertThat(created).as("creation dates (URL Frontier 2.6) survive kill -9, from"
          + " checkpoints and the journal").isNotEmpty()
          .allSatisfy(date -> assertThat(date).isBetween(startedEpoch, killedEpoch));
      Set<String> pending = new HashSet<>(acked);
      pending.retainAll(listedPending);
      List<String> lost = new ArrayList<>();
      for (String url : acked) {
        if (pending.contains(url)) {
          continue;
        }
        try {
          long refetch = client.getURLStatus(URLStatusRequest.newBuilder().setUrl(url).build())
              .getKnown().getRefetchableFromDate();
          if (refetch != 0 || !leased.contains(url)) {
            lost.add(url + " neither pending nor completed after a lease (" + refetch + ")");
          }
        } catch (io.grpc.StatusRuntimeException e) {
          lost.add(url + " " + e.getStatus().getCode());
        }
      }
      assertThat(lost).as("acked URLs lost after kill -9 (seed " + seed + ", " + acked.size()
          + " acked)").isEmpty();
      assertThat(pending).as("acked completions stay completed").doesNotContainAnyElementsOf(
          completedAcked);

      Set<String> handedOut = new HashSet<>();
      client.getURLs(GetParams.newBuilder().setCrawlID("DEFAULT").setDelayRequestable(60).build())
          .forEachRemaining(info -> handedOut.add(info.getUrl()));
      Set<String> leasedNotDone = new HashSet<>(leased);
      leasedNotDone.retainAll(pending);
      assertThat(handedOut).as("leased before the kill, not completed: pending again")
          .containsAll(leasedNotDone);
      assertThat(leasedNotDone).as("the kill came while URLs were leased").isNotEmpty();
      System.out.printf("ServeKillIT (seed %d): killed after %d URLs acked, %d completions acked,"
          + " %d leased; after the restart %d pending, %d handed out again; checked in %d ms%n",
          seed, acked.size(), completedAcked.size(), leased.size(), pending.size(),
          handedOut.size(), (System.nanoTime() - killedAt) / 1_000_000);
    } finally {
      again.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      second.process().destroy();
    }
    assertThat(second.finish().exitCode()).isEqualTo(143);
  }

  private static String info(URLItem item) {
    return item.hasKnown() ? item.getKnown().getInfo().getUrl()
        : item.getDiscovered().getInfo().getUrl();
  }

  /** Streams discovered URLs over {@link #HOSTS} hosts, at most 2,000 unacked, until stopped. */
  private static void streamDiscovered(ManagedChannel channel, Set<String> acked,
      AtomicBoolean stop) {
    Semaphore window = new Semaphore(2_000);
    AtomicBoolean ended = new AtomicBoolean();
    StreamObserver<URLItem> items = URLFrontierGrpc.newStub(channel).putURLs(
        new StreamObserver<>() {
          @Override
          public void onNext(AckMessage ack) {
            if (ack.getStatus() == AckMessage.Status.OK) {
              acked.add(ack.getID());
            }
            window.release();
          }

          @Override
          public void onError(Throwable t) {
            ended.set(true);
            window.release(2_000);
          }

          @Override
          public void onCompleted() {
            ended.set(true);
          }
        });
    for (int i = 0; !stop.get() && !ended.get(); i++) {
      window.acquireUninterruptibly();
      items.onNext(FrontierClient.discovered("http://h" + (i % HOSTS) + ".test/p" + i));
    }
  }

  /** Leases URLs for 2 s and completes every other one, until stopped. */
  private static void leaseAndComplete(ManagedChannel channel, Set<String> leased,
      Set<String> completedAcked, AtomicBoolean stop) {
    try {
      while (!stop.get()) {
        List<URLItem> done = new ArrayList<>();
        URLFrontierGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
            .getURLs(GetParams.newBuilder().setCrawlID("DEFAULT").setMaxUrlsPerQueue(50)
                .setDelayRequestable(2).build())
            .forEachRemaining(info -> {
              leased.add(info.getUrl());
              if (leased.size() % 2 == 0) {
                done.add(FrontierClient.known(info.getUrl(), 0));
              }
            });
        if (done.isEmpty()) {
          // Queues produce once a second: pace the polling rather than spin (not a wait for
          // anything in particular).
          LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
          continue;
        }
        for (AckMessage ack : FrontierClient.put(channel, done)) {
          if (ack.getStatus() == AckMessage.Status.OK) {
            completedAcked.add(ack.getID());
          }
        }
      }
    } catch (RuntimeException e) {
      // the server was killed, or the channel closed: the test goes on with what was acked
    }
  }
}
