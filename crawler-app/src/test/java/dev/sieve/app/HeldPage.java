package dev.sieve.app;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import mockwebserver3.MockResponse;

/** A page whose response waits for a latch (60 s at most), to hold a fetch in flight. */
final class HeldPage {
  private HeldPage() {}

  /** A small HTML page answered once {@code release} is counted down. */
  static Supplier<MockResponse> until(CountDownLatch release) {
    return () -> {
      try {
        release.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
          .body("<p>slow</p>").build();
    };
  }
}
