package dev.sieve.app.bench;

import dev.sieve.app.Main;
import dev.sieve.app.Units;
import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import dev.sieve.frontier.Sieve;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import dev.sieve.settings.Check;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench sieve}: pushes synthetic URLs (a share of them repeats) through the Sieve's filter,
 * pending URLs drained rather than kept, then probes never-pushed URLs for the measured
 * false-positive rate; optionally the same for Guava's BloomFilter in the same process.
 */
@Command(
    name = "sieve",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Push N synthetic URLs through the Sieve's filter and measure speed, memory and"
        + " the false-positive rate; --compare-guava runs Guava's BloomFilter alongside.")
final class BenchSieveCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--urls", required = true, description = "URLs to push, repeats included.")
  long urls;

  @Option(names = "--duplicates", defaultValue = "0.3", description = "Share of pushes that repeat an earlier URL (default ${DEFAULT-VALUE}).")
  double duplicates;

  @Option(names = "--fpp", defaultValue = "0.01", description = "Target false-positive rate (default ${DEFAULT-VALUE}).")
  double fpp;

  @Option(names = "--threads", defaultValue = "1", description = "Pushing threads (default ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--probes", defaultValue = "1000000", description = "Never-pushed URLs probed for the measured rate (default ${DEFAULT-VALUE}).")
  long probes;

  @Option(names = "--batch", defaultValue = "50", description = "URLs the Sieve checks at once, as the crawler does with the links of a page (Sieve.admitAll); 1 for one by one (default ${DEFAULT-VALUE}).")
  int batch;

  @Option(names = "--compare-guava", description = "Also run Guava's BloomFilter (Funnels.stringFunnel(UTF_8)) and print the ratio.")
  boolean compareGuava;

  /** One filter under test: check-and-set, query. */
  private interface Target {
    boolean push(CharSequence url);

    /** Pushes a batch; returns how many were new. The default pushes one by one. */
    default int pushAll(List<StringBuilder> urls) {
      int added = 0;
      for (StringBuilder url : urls) {
        if (push(url)) {
          added++;
        }
      }
      return added;
    }

    boolean mightContain(CharSequence url);
  }

  private record Result(String name, long bytes, double pushesPerSecond, long accepted,
      double measuredFpp) {}

  @Override
  public Integer call() throws Exception {
    try {
      Check.positive("--urls", urls);
      Check.positive("--threads", threads);
      Check.positive("--probes", probes);
      Check.positive("--batch", batch);
      Check.rate("--fpp", fpp);
      if (!(duplicates >= 0 && duplicates < 1)) {
        throw new IllegalArgumentException("--duplicates (" + duplicates + ") must be in [0, 1)");
      }
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    long distinct = Math.max(1, Math.round(urls * (1 - duplicates)));
    PrintStream out = System.out;
    out.printf(Locale.ROOT,
        "Pushing %,d URLs (%.0f%% repeats, ~%,d distinct) at fpp %s with %d thread(s), %d per batch%n",
        urls, duplicates * 100, distinct, fpp, threads, batch);
    List<Result> results = new ArrayList<>();
    Sieve sieve = Sieve.create(distinct, fpp);
    results.add(run("sieve (blocked)", sieve.filterBits() / 8, new Target() {
      @Override
      public boolean push(CharSequence url) {
        return sieve.admit(url);
      }

      private final ThreadLocal<boolean[]> isNew = ThreadLocal.withInitial(() -> new boolean[batch]);

      @Override
      public int pushAll(List<StringBuilder> urls) {
        return sieve.admitAll(urls, isNew.get());
      }

      @Override
      public boolean mightContain(CharSequence url) {
        return sieve.mightHaveSeen(url);
      }
    }));
    if (compareGuava) {
      BloomFilter<CharSequence> guava =
          BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), distinct, fpp);
      results.add(run("guava", guavaBytes(distinct, fpp), new Target() {
        @Override
        public boolean push(CharSequence url) {
          return guava.put(url);
        }

        @Override
        public boolean mightContain(CharSequence url) {
          return guava.mightContain(url);
        }
      }));
    }
    out.println();
    Table table = Table.of(out, -16, 14, 9, 12, 12, 13);
    table.row("filter", "memory", "bits/URL", "pushes/s", "measured fpp", "vs guava");
    Result guava = results.stream().filter(r -> r.name().equals("guava")).findFirst().orElse(null);
    for (Result r : results) {
      table.row(r.name(), Units.bytes(r.bytes()), Table.format("%.2f", r.bytes() * 8.0 / distinct),
          Table.rate(r.pushesPerSecond()), Table.format("%.5f", r.measuredFpp()),
          guava == null ? "" : Table.format("%.2fx", r.pushesPerSecond() / guava.pushesPerSecond()));
    }
    return 0;
  }

  private Result run(String name, long bytes, Target target) throws Exception {
    long distinct = Math.max(1, Math.round(urls * (1 - duplicates)));
    Timing.Run pushes = Timing.parallel(threads, thread -> {
      List<StringBuilder> page = new ArrayList<>();
      for (int b = 0; b < batch; b++) {
        page.add(new StringBuilder(128));
      }
      SplittableRandom random = new SplittableRandom(thread);
      long fresh = thread;
      long mine = 0;
      long share = urls / threads + (thread < urls % threads ? 1 : 0);
      for (long i = 0; i < share; i += batch) {
        int size = (int) Math.min(batch, share - i);
        for (int b = 0; b < size; b++) {
          long index;
          if (fresh > threads && random.nextDouble() < duplicates) {
            index = random.nextLong(fresh); // an earlier URL, possibly another thread's
          } else {
            index = fresh;
            fresh += threads;
          }
          SyntheticUrl.write(page.get(b), 0, index);
        }
        mine += size == batch ? target.pushAll(page) : target.pushAll(page.subList(0, size));
      }
      return mine;
    });
    StringBuilder url = new StringBuilder(128);
    long falsePositives = 0;
    for (long i = 0; i < probes; i++) {
      if (target.mightContain(SyntheticUrl.write(url, 1, i))) {
        falsePositives++;
      }
    }
    System.out.printf(Locale.ROOT, "  %s: %,d pushes in %.1f s, %,d accepted as new (%,d distinct pushed)%n",
        name, urls, pushes.seconds(), pushes.total(), distinct);
    return new Result(name, bytes, pushes.perSecond(urls), pushes.total(),
        (double) falsePositives / probes);
  }

  /** Guava's size: the classic optimum rounded up to whole 64-bit words. */
  private static long guavaBytes(long n, double fpp) {
    long bits = (long) (-n * Math.log(fpp) / (Math.log(2) * Math.log(2)));
    return (bits + 63) / 64 * 8;
  }

  /** Realistic URL keys of 40–120 characters, distinct per (stream, index), built in place. */
  static final class SyntheticUrl {
    private static final String[] SECTIONS = {
      "news", "blog/2024", "products/category", "wiki", "forum/thread", "docs/reference/api",
      "shop/items", "en/articles",
    };

    private SyntheticUrl() {}

    static StringBuilder write(StringBuilder url, int stream, long index) {
      long mixed = mix(index * 31 + stream);
      url.setLength(0);
      url.append("https://www.site").append((mixed >>> 8) % 5000).append(".example.com/")
          .append(SECTIONS[(int) (mixed & 7)]).append('/').append(stream)
          .append("/item-").append(index).append('-').append(Long.toHexString(mixed >>> 44))
          .append(".html");
      if ((mixed & 0x100) != 0) {
        url.append("?utm_source=feed&page=").append((mixed >>> 20) & 63);
      }
      return url;
    }

    private static long mix(long z) {
      z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
      z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
      return z ^ (z >>> 33);
    }
  }
}
