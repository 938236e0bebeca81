package dev.sieve.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.FrontierSettings;
import dev.sieve.frontier.FrontierStats;
import dev.sieve.frontier.Frontiers;
import dev.sieve.frontier.Lease;
import dev.sieve.frontier.Politeness;
import dev.sieve.frontier.Sieve;
import dev.sieve.units.Units;
import dev.sieve.url.Url;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench frontier}: pushes N unique synthetic URLs over H hosts through the Sieve into a
 * spilling frontier in memory (politeness delay 0), then takes and completes them all; prints
 * throughput, peak heap, peak bytes on disk and memory per pending URL, and checks that every
 * accepted URL came out once and each host's in order. URL {@code i} is {@code
 * http://h<i % H>.bench.example/p/<i / H>}: the path is the host's sequence number, which must
 * rise strictly on the way out. A Bloom false positive drops a URL at push; it is counted as
 * rejected, not lost.
 */
@Command(
    name = "frontier",
    mixinStandardHelpOptions = true,
    description = "Push N synthetic URLs over H hosts through the frontier, pop them all, report.")
final class BenchFrontierCommand implements Callable<Integer> {
  private static final int SAMPLE_EVERY = 1 << 16;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--urls", required = true, paramLabel = "N", description = "URLs to push.")
  long urls;

  @Option(names = "--hosts", required = true, paramLabel = "H", description = "Hosts they spread over.")
  int hosts;

  @Option(names = "--pending-memory", defaultValue = "268435456", paramLabel = "BYTES",
      description = "Memory budget of pending URLs before they spill to disk (default ${DEFAULT-VALUE}).")
  long pendingMemory;

  @Option(names = "--dir", paramLabel = "DIR",
      description = "Where spill files go (default: a temporary directory, deleted after).")
  Path dir;

  @Option(names = "--fpp", defaultValue = "0.01", paramLabel = "P",
      description = "The Sieve's false-positive rate, sized for N URLs (default ${DEFAULT-VALUE}).")
  double fpp;

  @Option(names = "--links",
      description = "Push each URL as a link found on its host's previous page, with that page as"
          + " its referrer (via), as a crawl does; default: as seeds, with none.")
  boolean links;

  private final AtomicLong peakHeap = new AtomicLong();
  private final AtomicLong peakLiveHeap = new AtomicLong();
  private long peakDisk;
  private long peakMemory;

  @Override
  public Integer call() throws IOException {
    if (urls <= 0) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--urls (" + urls + ") must be > 0");
    }
    if (hosts <= 0) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--hosts (" + hosts + ") must be > 0");
    }
    if (pendingMemory <= 0) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--pending-memory (" + pendingMemory + ") must be > 0");
    }
    if (!(fpp > 0 && fpp < 1)) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--fpp (" + fpp + ") must be in (0, 1)");
    }
    boolean temporary = dir == null;
    Path spillDir = temporary ? Files.createTempDirectory("sieve-bench-frontier-") : dir;
    List<Runnable> unlisten = listenToGc();
    try {
      return run(spillDir);
    } finally {
      unlisten.forEach(Runnable::run);
      if (temporary) {
        deleteTree(spillDir);
      }
    }
  }

  private int run(Path spillDir) {
    PrintStream out = System.out;
    Frontier frontier = Frontiers.open(FrontierSettings.builder()
        .expectedUrls(urls).falsePositiveRate(fpp).growOnCapacity(false) // one blocked filter
        .politeness(Politeness.DEFAULT.withDelay(Duration.ZERO))
        .pendingMemoryBytes(pendingMemory).spillDir(spillDir)
        .build()).frontier();
    out.printf(Locale.ROOT, "bench frontier: %,d URLs over %,d hosts, pending memory %s, spill dir %s%n",
        urls, hosts, Units.bytes(pendingMemory), spillDir);

    long accepted = 0;
    long acceptedSum = 0;
    long acceptedXor = 0;
    long started = Timing.start();
    for (long i = 0; i < urls; i++) {
      int host = (int) (i % hosts);
      long seq = i / hosts;
      Url url = Url.parse("http://h" + host + ".bench.example/p/" + seq).orElseThrow();
      String via = links ? "http://h" + host + ".bench.example/p/" + (seq - 1) : null;
      if (frontier.push(url, 0, via, null)) {
        accepted++;
        long hash = mix(host, seq);
        acceptedSum += hash;
        acceptedXor ^= hash;
      }
      if ((i & (SAMPLE_EVERY - 1)) == 0) {
        sample(frontier);
      }
    }
    sample(frontier);
    double pushSeconds = Timing.secondsSince(started);
    FrontierStats afterPush = frontier.stats();
    long pendingAfterPush = afterPush.pending();
    long memoryAfterPush = afterPush.pendingMemoryBytes();
    long diskAfterPush = afterPush.pendingDiskBytes();
    double perUrlMemory = afterPush.bytesPerPendingUrl();
    // Young collections leave old-generation garbage in "used after GC"; a full collection here,
    // outside the timed phases, gives the live heap at the frontier's fullest.
    System.gc();
    long liveAfterPush = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();

    long[] lastSeq = new long[hosts];
    java.util.Arrays.fill(lastSeq, -1);
    long popped = 0;
    long poppedSum = 0;
    long poppedXor = 0;
    long outOfOrder = 0;
    long wrongVia = 0;
    started = Timing.start();
    while (true) {
      Lease lease = frontier.poll();
      if (lease == null) {
        if (!frontier.isFinished()) {
          out.printf(Locale.ROOT, "frontier stalled with %,d pending%n", frontier.stats().pending());
          return 1;
        }
        break;
      }
      String url = lease.url().toString();
      int host = Integer.parseInt(url, 8, url.indexOf('.', 8), 10);
      long seq = Long.parseLong(url, url.lastIndexOf('/') + 1, url.length(), 10);
      if (seq <= lastSeq[host]) {
        outOfOrder++;
      }
      if (links ? lease.via() == null || !lease.via().endsWith("/p/" + (seq - 1))
          : lease.via() != null) {
        wrongVia++;
      }
      lastSeq[host] = seq;
      long hash = mix(host, seq);
      poppedSum += hash;
      poppedXor ^= hash;
      popped++;
      frontier.complete(lease, Map.of());
      if ((popped & (SAMPLE_EVERY - 1)) == 0) {
        sample(frontier);
      }
    }
    double popSeconds = Timing.secondsSince(started);
    sample(frontier);

    long rejected = urls - accepted;
    long lost = accepted - popped;
    boolean ok = lost == 0 && acceptedSum == poppedSum && acceptedXor == poppedXor && outOfOrder == 0
        && wrongVia == 0;
    out.println();
    Table table = Table.of(out, -30, 0);
    table.row("URLs pushed", Table.format("%,d", urls));
    table.row("accepted / rejected by filter", Table.format("%,d / %,d (%.4f%%)",
        accepted, rejected, 100.0 * rejected / urls));
    table.row("push time, rate", Table.format("%.1f s, %,.0f pushes/s",
        pushSeconds, urls / pushSeconds));
    table.row("pop time, rate", Table.format("%.1f s, %,.0f pops/s",
        popSeconds, popped / popSeconds));
    table.row("pending after push", Table.format("%,d", pendingAfterPush));
    table.row("pending memory after push", Units.bytes(memoryAfterPush) + Table.format(
        " (%.1f B per pending URL)", perUrlMemory));
    table.row("pending memory peak", Units.bytes(peakMemory));
    table.row("spill on disk after push", Units.bytes(diskAfterPush) + Table.format(
        " (%.1f B per pending URL)", pendingAfterPush == 0 ? 0.0 : (double) diskAfterPush / pendingAfterPush));
    table.row("spill on disk peak", Units.bytes(peakDisk));
    table.row("heap used peak", Units.bytes(peakHeap.get()) + " (max heap "
        + Units.bytes(Runtime.getRuntime().maxMemory()) + ")");
    table.row("heap used after GC, max", Units.bytes(peakLiveHeap.get()));
    table.row("heap live after push (full GC)", Units.bytes(liveAfterPush));
    table.row("Sieve filter", Units.bytes(afterPush.seenFilterBits() / 8.0));
    table.row("popped", Table.format("%,d", popped));
    table.row("lost / duplicated", lost == 0 && acceptedSum == poppedSum && acceptedXor == poppedXor
        ? "none (count and checksums match)"
        : Table.format("MISMATCH: %,d accepted, %,d popped, checksums %s", accepted,
            popped, acceptedSum == poppedSum && acceptedXor == poppedXor ? "match" : "differ"));
    table.row("per-host order", outOfOrder == 0 ? "kept" : Table.format(
        "BROKEN: %,d out of order", outOfOrder));
    table.row("referrers (via)", wrongVia == 0 ? (links ? "kept" : "none, as pushed") : Table.format(
        "BROKEN: %,d wrong", wrongVia));
    table.row("result", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
  }

  private void sample(Frontier frontier) {
    peakHeap.accumulateAndGet(
        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
    FrontierStats stats = frontier.stats();
    peakDisk = Math.max(peakDisk, stats.pendingDiskBytes());
    peakMemory = Math.max(peakMemory, stats.pendingMemoryBytes());
  }

  /** Heap used before each GC (the peak) and after it (the live set), from GC notifications. */
  private List<Runnable> listenToGc() {
    List<Runnable> unlisten = new ArrayList<>();
    NotificationListener listener = (notification, handback) -> {
      if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
        return;
      }
      var info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
      peakHeap.accumulateAndGet(used(info.getGcInfo().getMemoryUsageBeforeGc().values()), Math::max);
      peakLiveHeap.accumulateAndGet(used(info.getGcInfo().getMemoryUsageAfterGc().values()), Math::max);
    };
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(listener, null, null);
        unlisten.add(() -> {
          try {
            emitter.removeNotificationListener(listener);
          } catch (javax.management.ListenerNotFoundException e) {
            // Already gone.
          }
        });
      }
    }
    return unlisten;
  }

  /** Heap used over the pools of one GC snapshot (non-heap pools are small and left in). */
  private static long used(java.util.Collection<MemoryUsage> pools) {
    long used = 0;
    for (MemoryUsage pool : pools) {
      used += pool.getUsed();
    }
    return used;
  }

  /** A well-mixed 64-bit hash of (host, seq), for the checksums. */
  private static long mix(int host, long seq) {
    long z = ((long) host << 40 ^ seq) + 0x9e3779b97f4a7c15L;
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
