package dev.sieve.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;

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

  /** The sample's value; 0 when the series is absent (a counter not yet moved). */
  double value(String series) {
    return samples.getOrDefault(series, 0.0);
  }
}
