package dev.sieve.app;

import dev.sieve.crawl.CrawlConfig;
import dev.sieve.frontier.FrontierSettings;
import dev.sieve.frontier.SeenFilter;
import java.util.Locale;
import picocli.CommandLine.Option;

/** {@code crawl}'s options for the Sieve, the filter of URLs already seen: its size and kind. */
final class SieveOptions {
  @Setting({"expectedUrls", "expectedInsertions"})
  @Option(names = "--expected-urls", defaultValue = "" + FrontierSettings.DEFAULT_EXPECTED_URLS, paramLabel = "N",
      description = "Sieve capacity in distinct URLs (default ${DEFAULT-VALUE}).")
  long expectedUrls;

  @Setting("falsePositiveRate")
  @Option(names = "--fpp", defaultValue = FrontierSettings.DEFAULT_FALSE_POSITIVE_RATE, paramLabel = "P",
      description = "Sieve false-positive rate (default ${DEFAULT-VALUE}).")
  double fpp;

  @Setting("seenFilter")
  @Option(names = "--filter", defaultValue = "blocked", paramLabel = "blocked|classic|cuckoo",
      converter = OptionConverters.SeenFilterConverter.class,
      description = "The Sieve's structure: cache-blocked Bloom (fastest), classic Bloom (least memory of the Bloom filters), cuckoo (fewer bits at tight rates, fixed size). Default ${DEFAULT-VALUE}.")
  SeenFilter filter;

  @Option(names = "--on-capacity", defaultValue = "grow", paramLabel = "warn|grow",
      description = "Past --expected-urls: grow (scalable layers keep the false-positive rate at --fpp) or warn (one fixed filter whose rate climbs). Both log capacity warnings. Default ${DEFAULT-VALUE}.")
  String onCapacity;

  /** Sets the Sieve of {@code config}; the builder validates the values. */
  CrawlConfig.Builder applyTo(CrawlConfig.Builder config) {
    return config.expectedUrls(expectedUrls)
        .falsePositiveRate(fpp)
        .seenFilter(filter)
        .growOnCapacity(growOnCapacity());
  }

  private boolean growOnCapacity() {
    switch (onCapacity.strip().toLowerCase(Locale.ROOT)) {
      case "grow":
        return true;
      case "warn":
        return false;
      default:
        throw new IllegalArgumentException("--on-capacity (" + onCapacity + ") must be warn or grow");
    }
  }
}
