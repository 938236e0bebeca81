package dev.sieve.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.jetbrains.annotations.NotNull;

/**
 * {@code bench web --compare-fetch}: the same fetches (every page of every host, one host's
 * fetches one after another, all hosts at once) made the two ways a crawl can keep many fetches
 * in flight: a thread per fetch calling OkHttp's blocking {@code execute} (what {@code crawl}
 * does), and OkHttp's asynchronous {@code enqueue} with a callback that enqueues the host's next
 * page. Prints wall time, fetches/s, CPU per fetch (this process: site included, the same for
 * both) and the most threads alive.
 */
final class FetchModes {
  private FetchModes() {}

  static void compare(PrintStream out, int hosts, int pages, long latencyMs) throws Exception {
    out.printf("fetch modes: %,d hosts x %,d pages, latency %d ms, all hosts at once, no delay%n", hosts, pages, latencyMs);
    Table table = Table.of(out, -22, 9, 10, 12, 9);
    table.row("mode", "s", "fetches/s", "CPU us/fetch", "threads");
    for (String mode : List.of("threads + execute", "async enqueue", "threads + execute", "async enqueue")) {
      try (ManyHostSite site = new ManyHostSite(hosts, pages, latencyMs)) {
        OkHttpClient client = new OkHttpClient.Builder()
            .connectionPool(new ConnectionPool(hosts + 16, 1, TimeUnit.MINUTES)).build();
        client.dispatcher().setMaxRequests(hosts);
        client.dispatcher().setMaxRequestsPerHost(1);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        threads.resetPeakThreadCount();
        com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu = os.getProcessCpuTime();
        long started = Timing.start();
        AtomicInteger failed = new AtomicInteger();
        if (mode.startsWith("threads")) {
          withThreads(client, site, pages, failed);
        } else {
          withAsync(client, site, pages, failed);
        }
        double seconds = Timing.secondsSince(started);
        long fetches = (long) hosts * pages;
        double cpuMicros = (os.getProcessCpuTime() - cpu) / 1e3 / fetches;
        table.row(mode + (failed.get() > 0 ? " (" + failed.get() + " failed)" : ""), Table.format("%.2f", seconds),
            Table.format("%.0f", fetches / seconds), Table.format("%.0f", cpuMicros), threads.getPeakThreadCount());
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
      }
    }
  }

  private static void withThreads(OkHttpClient client, ManyHostSite site, int pages, AtomicInteger failed)
      throws InterruptedException {
    ExecutorService pool = Executors.newCachedThreadPool();
    for (String seed : site.seeds()) {
      pool.execute(() -> {
        for (int page = 0; page < pages; page++) {
          try (Response response = client.newCall(request(seed, page)).execute()) {
            response.body().bytes();
          } catch (IOException e) {
            failed.incrementAndGet();
          }
        }
      });
    }
    pool.shutdown();
    pool.awaitTermination(1, TimeUnit.HOURS);
  }

  private static void withAsync(OkHttpClient client, ManyHostSite site, int pages, AtomicInteger failed)
      throws InterruptedException {
    CountDownLatch done = new CountDownLatch(site.hosts());
    for (String seed : site.seeds()) {
      enqueue(client, seed, 0, pages, done, failed);
    }
    done.await(1, TimeUnit.HOURS);
  }

  private static void enqueue(OkHttpClient client, String seed, int page, int pages, CountDownLatch done,
      AtomicInteger failed) {
    client.newCall(request(seed, page)).enqueue(new Callback() {
      @Override
      public void onResponse(@NotNull Call call, @NotNull Response response) {
        try (response) {
          response.body().bytes();
        } catch (IOException e) {
          failed.incrementAndGet();
        }
        next();
      }

      @Override
      public void onFailure(@NotNull Call call, @NotNull IOException e) {
        failed.incrementAndGet();
        next();
      }

      private void next() {
        if (page + 1 < pages) {
          enqueue(client, seed, page + 1, pages, done, failed);
        } else {
          done.countDown();
        }
      }
    });
  }

  private static Request request(String seed, int page) {
    return new Request.Builder().url(seed.replace("/p/0.html", "/p/" + page + ".html")).build();
  }
}
