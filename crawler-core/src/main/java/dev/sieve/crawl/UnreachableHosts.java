package dev.sieve.crawl;

import dev.sieve.fetch.FetchResult;
import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.Lease;
import dev.sieve.robots.RobotsVerdict;
import dev.sieve.url.Url;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;

/**
 * What the crawl does about authorities that do not answer: notes each fetch's connection failures
 * ({@link HostHealth}); once an authority is unreachable, or its robots.txt stays unreachable past
 * the retries, records its URL and those queued behind it at once instead of fetching them.
 * Thread-safe.
 */
final class UnreachableHosts {
  private final HostHealth health;
  private final Frontier frontier;
  private final Recorder recorder;
  /** The crawl's --max-pages permits: each URL recorded here takes one. */
  private final Semaphore pageBudget;
  private final int retries;
  private final Clock clock;

  UnreachableHosts(CrawlConfig config, Frontier frontier, Recorder recorder, Semaphore pageBudget) {
    this.health = new HostHealth(config.fetch.hostFailureLimit());
    this.frontier = frontier;
    this.recorder = recorder;
    this.pageBudget = pageBudget;
    this.retries = config.fetch.retries();
    this.clock = config.clock;
  }

  /** Notes the outcome of a fetch of {@code url} against its authority; returns it unchanged. */
  FetchResult observe(Url url, FetchResult result) {
    return health.observe(url, result);
  }

  /** Once the URL's authority is unreachable, records it and its queued URLs; returns whether. */
  boolean failIfUnreachable(Recorder.Outcome outcome, Url url) {
    Optional<String> cause = health.unreachable(url);
    cause.ifPresent(c -> failAuthority(outcome, url, "host-unreachable", c));
    return cause.isPresent();
  }

  /**
   * RFC 9309: disallow while robots.txt is unreachable. Its fetch is retried once per authority
   * when its cached failure expires, the host's URLs waiting in the frontier (no worker waits);
   * after {@code retries} retries, or once the authority is unreachable, its URLs are recorded.
   */
  void robotsUnreachable(Recorder.Outcome outcome, Url url, RobotsVerdict verdict) {
    if (failIfUnreachable(outcome, url)) {
      return;
    }
    if (verdict.failuresInARow() > retries) {
      failAuthority(outcome, url, "robots-unreachable", verdict.failure().orElse(null));
      return;
    }
    Lease lease = outcome.lease();
    pageBudget.release();
    frontier.putBack(lease);
    verdict.retryAt()
        .map(at -> Duration.between(clock.instant(), at))
        .filter(wait -> !wait.isNegative() && !wait.isZero())
        .ifPresent(wait -> frontier.delayHost(lease.hostKey(), wait));
  }

  /**
   * Records the URL with {@code error} and {@code cause}, then the URLs of its authority queued
   * behind it, at once: they are leased together rather than each waiting for the host's
   * politeness slot. URLs of other authorities sharing the queue (domain or ip keys) go back.
   */
  private void failAuthority(Recorder.Outcome outcome, Url url, String error, String cause) {
    outcome.record(null, 0, 0, error, cause, null);
    outcome.finish();
    String hostKey = outcome.lease().hostKey();
    List<Lease> back = new ArrayList<>();
    while (back.isEmpty()) {
      List<Lease> batch = frontier.takeAll(hostKey, 1024);
      if (batch.isEmpty()) {
        break;
      }
      for (Lease queued : batch) {
        boolean same = queued.url().origin().equals(url.origin());
        if (back.isEmpty() && same && pageBudget.tryAcquire()) {
          Recorder.Outcome queuedOutcome = recorder.of(queued);
          queuedOutcome.record(null, 0, 0, error, cause, null);
          queuedOutcome.finish();
        } else {
          back.add(queued);
        }
      }
    }
    for (int i = back.size() - 1; i >= 0; i--) {
      frontier.putBack(back.get(i));
    }
  }
}
