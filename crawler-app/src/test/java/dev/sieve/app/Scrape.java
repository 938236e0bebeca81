package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * One scrape of a metrics endpoint on loopback, as Prometheus reads it: the text format's samples
 * by series, {@code name{label="value",...}} exactly as written (labels in name order).
 */
record Scrape(String text, Map<String, Double> samples) {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** GETs {@code http://127.0.0.1:PORT/metrics}. */
  static Scrape of(int port) {
    try {
      HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
          HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new AssertionError("scrape answered " + response.statusCode());
      }
      return parse(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  static Scrape parse(String text) {
    Map<String, Double> samples = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int space = line.lastIndexOf(' ');
      samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
    }
    return new Scrape(text, samples);
  }

  /**
   * Scrapes {@code port} every 50 ms until {@code done} holds (30 s at most; fails if {@code
   * process} ends first).
   */
  static Scrape await(int port, CrawlerJar.Started process, Predicate<Scrape> done) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    Scrape last = null;
    while (true) {
      assertThat(process.process().isAlive()).as("still running").isTrue();
      try {
        last = Scrape.of(port);
        if (done.test(last)) {
          return last;
        }
      } catch (UncheckedIOException notYetListening) {
        // the endpoint starts after the JVM does
      }
      assertThat(System.nanoTime()).as("within 30 s; last scrape:\n"
          + (last == null ? "none" : last.text())).isLessThan(deadline);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
  }

  /** The sample's value; 0 when the series is absent (a counter not yet moved). */
  double value(String series) {
    return samples.getOrDefault(series, 0.0);
  }
}
