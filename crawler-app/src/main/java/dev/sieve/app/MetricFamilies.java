package dev.sieve.app;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds one scrape's metric families from counters the core already keeps (read once per
 * scrape, so the families agree with each other). A family is named without {@code _total}: the
 * text format adds it to counters.
 */
final class MetricFamilies {
  private final Map<String, CounterSnapshot.Builder> counters = new LinkedHashMap<>();
  private final Map<String, GaugeSnapshot.Builder> gauges = new LinkedHashMap<>();

  /** Adds a counter's data point; {@code labels} are name, value pairs. */
  MetricFamilies counter(String name, String help, double value, String... labels) {
    counters.computeIfAbsent(name, n -> CounterSnapshot.builder().name(n).help(help))
        .dataPoint(CounterDataPointSnapshot.builder().value(value).labels(Labels.of(labels))
            .build());
    return this;
  }

  /** Adds one data point per entry, the key as the value of label {@code label}. */
  MetricFamilies counters(String name, String help, String label, Map<String, Long> byLabel,
      String... labels) {
    byLabel.forEach((value, count) -> counter(name, help, count, with(labels, label, value)));
    return this;
  }

  /** Adds a gauge's data point; {@code labels} are name, value pairs. */
  MetricFamilies gauge(String name, String help, double value, String... labels) {
    gauges.computeIfAbsent(name, n -> GaugeSnapshot.builder().name(n).help(help))
        .dataPoint(GaugeDataPointSnapshot.builder().value(value).labels(Labels.of(labels))
            .build());
    return this;
  }

  MetricSnapshots build() {
    List<MetricSnapshot> all = new ArrayList<>();
    counters.values().forEach(b -> all.add(b.build()));
    gauges.values().forEach(b -> all.add(b.build()));
    return new MetricSnapshots(all);
  }

  private static String[] with(String[] labels, String name, String value) {
    String[] out = Arrays.copyOf(labels, labels.length + 2);
    out[labels.length] = name;
    out[labels.length + 1] = value;
    return out;
  }
}
