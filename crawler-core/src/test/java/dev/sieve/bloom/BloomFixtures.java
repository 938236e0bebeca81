package dev.sieve.bloom;

import com.google.common.hash.Funnel;
import com.google.common.hash.Funnels;
import dev.sieve.testing.SyntheticUrls;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What the filter benchmarks and their report share: the candidates behind one interface, filled
 * with the same keys, and pools of keys. Keys: stream 0 is what a filter holds ({@code url(0, i)},
 * i &lt; n); stream 1 is for absent queries, stream 2 for new puts, stream 3 for FPR measurement.
 *
 * <p>Filling a filter for 10⁸ keys takes a minute or more (Guava's and the classic filter's k
 * scattered writes), so filters of ≥ 10⁷ keys are kept in {@code target/bench-cache} after the
 * first fill and read back by later runs.
 */
public final class BloomFixtures {
  /** Each candidate under test. */
  public enum Impl {
    BLOCKED,
    CLASSIC,
    GUAVA,
    HASHSET
  }

  /** A set-like structure under test. */
  public interface Candidate {
    boolean put(String key);

    boolean mightContain(String key);

    /** Puts {@code count} keys from {@code from} as one batch; returns how many were new. */
    default int putAll(String[] keys, int from, int count) {
      int added = 0;
      for (int i = from; i < from + count; i++) {
        if (put(keys[i])) {
          added++;
        }
      }
      return added;
    }

    /** Queries {@code count} keys from {@code from} as one batch; returns how many might be in. */
    default int mightContainAll(String[] keys, int from, int count) {
      int in = 0;
      for (int i = from; i < from + count; i++) {
        if (mightContain(keys[i])) {
          in++;
        }
      }
      return in;
    }

    /** The memory it takes, in bits: the bit table for filters; measured heap for HashSet. */
    long bits();

    void writeTo(OutputStream out) throws IOException;
  }

  static final Funnel<CharSequence> UTF8 = Funnels.stringFunnel(StandardCharsets.UTF_8);
  private static final long CACHE_FROM = 10_000_000;
  private static final Path CACHE = Paths.get("crawler-core", "target", "bench-cache");

  private BloomFixtures() {}

  public static Impl impl(String name) {
    return Impl.valueOf(name.toUpperCase(Locale.ROOT));
  }

  /** An empty candidate for n keys at rate fpp. */
  public static Candidate empty(Impl impl, long n, double fpp) {
    return switch (impl) {
      case BLOCKED -> new Ours(BlockedBloomFilter.create(n, fpp));
      case CLASSIC -> new Ours(BloomFilter.create(n, fpp));
      case GUAVA -> new Guava(com.google.common.hash.BloomFilter.create(UTF8, n, fpp));
      case HASHSET -> new Exact(Math.toIntExact(n));
    };
  }

  /** A candidate holding {@code url(0, i)} for i in [0, n), from the cache when there is one. */
  public static Candidate filled(Impl impl, long n, double fpp) {
    Path file = CACHE.resolve(String.format(Locale.ROOT, "%s-%d-%s.bin", impl, n, fpp));
    if (n >= CACHE_FROM && impl != Impl.HASHSET && Files.isRegularFile(file)) {
      try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 20)) {
        return impl == Impl.GUAVA
            ? new Guava(com.google.common.hash.BloomFilter.readFrom(in, UTF8))
            : new Ours(MembershipFilter.readFrom(in));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read cached filter " + file, e);
      }
    }
    Candidate candidate = empty(impl, n, fpp);
    long started = System.nanoTime();
    fill(candidate, n, impl == Impl.HASHSET ? 1 : 2);
    if (n >= CACHE_FROM && impl != Impl.HASHSET) {
      System.err.printf(
          Locale.ROOT, "filled %s n=%d ε=%s in %.1f s; caching in %s%n",
          impl, n, fpp, (System.nanoTime() - started) / 1e9, file);
      try {
        Files.createDirectories(CACHE);
        Path temp = Files.createTempFile(CACHE, "fill", ".tmp");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temp), 1 << 20)) {
          candidate.writeTo(out);
        }
        Files.move(temp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot cache filter " + file, e);
      }
    }
    return candidate;
  }

  private static void fill(Candidate candidate, long n, int threads) {
    if (threads == 1) {
      for (long i = 0; i < n; i++) {
        candidate.put(SyntheticUrls.url(0, i));
      }
      return;
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long from = n * t / threads;
        long to = n * (t + 1) / threads;
        done.add(pool.submit(() -> {
          for (long i = from; i < to; i++) {
            candidate.put(SyntheticUrls.url(0, i));
          }
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } catch (Exception e) {
      throw new IllegalStateException("fill failed", e);
    } finally {
      pool.shutdown();
    }
  }

  /** {@code count} keys a filled candidate holds, spread over all n. */
  public static String[] presentKeys(long n, int count) {
    String[] keys = new String[count];
    for (int i = 0; i < count; i++) {
      keys[i] = SyntheticUrls.url(0, i * (n / count));
    }
    return keys;
  }

  /** Keys {@code url(stream, from + i)} for i in [0, count): absent from every filled candidate. */
  public static String[] keys(int stream, long from, int count) {
    String[] keys = new String[count];
    for (int i = 0; i < count; i++) {
      keys[i] = SyntheticUrls.url(stream, from + i);
    }
    return keys;
  }

  /** The UTF-8 bytes of {@code keys}, packed: key i is {@code [offsets[i], offsets[i + 1])}. */
  public static final class PackedKeys {
    public final byte[] bytes;
    public final int[] offsets;

    public PackedKeys(String[] keys) {
      offsets = new int[keys.length + 1];
      byte[][] each = new byte[keys.length][];
      for (int i = 0; i < keys.length; i++) {
        each[i] = keys[i].getBytes(StandardCharsets.UTF_8);
        offsets[i + 1] = offsets[i] + each[i].length;
      }
      bytes = new byte[offsets[keys.length]];
      for (int i = 0; i < keys.length; i++) {
        System.arraycopy(each[i], 0, bytes, offsets[i], each[i].length);
      }
    }

    public Hash128 hash(int i) {
      return Hash128.of(bytes, offsets[i], offsets[i + 1] - offsets[i]);
    }
  }

  /** The number of keys of the stream-3 sample that {@code candidate} wrongly reports present. */
  public static long falsePositives(Candidate candidate, int queries) {
    long positives = 0;
    for (int i = 0; i < queries; i++) {
      if (candidate.mightContain(SyntheticUrls.url(3, i))) {
        positives++;
      }
    }
    return positives;
  }

  static final class Ours implements Candidate {
    final MembershipFilter filter;

    Ours(MembershipFilter filter) {
      this.filter = filter;
    }

    @Override
    public boolean put(String key) {
      return filter.put(key);
    }

    @Override
    public boolean mightContain(String key) {
      return filter.mightContain(key);
    }

    /** As the Sieve does with a page's links: hash all, prefetch every block, then put. */
    @Override
    public int putAll(String[] keys, int from, int count) {
      Hash128[] hashes = hashes(keys, from, count);
      filter.prefetch(hashes, count);
      int added = 0;
      for (int i = 0; i < count; i++) {
        if (filter.put(hashes[i])) {
          added++;
        }
      }
      return added;
    }

    @Override
    public int mightContainAll(String[] keys, int from, int count) {
      Hash128[] hashes = hashes(keys, from, count);
      filter.prefetch(hashes, count);
      int in = 0;
      for (int i = 0; i < count; i++) {
        if (filter.mightContain(hashes[i])) {
          in++;
        }
      }
      return in;
    }

    private static Hash128[] hashes(String[] keys, int from, int count) {
      Hash128[] hashes = new Hash128[count];
      for (int i = 0; i < count; i++) {
        hashes[i] = Hash128.of(keys[from + i]);
      }
      return hashes;
    }

    @Override
    public long bits() {
      return filter.bitSize();
    }

    @Override
    public void writeTo(OutputStream out) throws IOException {
      filter.writeTo(out);
    }
  }

  static final class Guava implements Candidate {
    final com.google.common.hash.BloomFilter<CharSequence> filter;

    Guava(com.google.common.hash.BloomFilter<CharSequence> filter) {
      this.filter = filter;
    }

    @Override
    public boolean put(String key) {
      return filter.put(key);
    }

    @Override
    public boolean mightContain(String key) {
      return filter.mightContain(key);
    }

    /** From the serialized size: 6 header bytes, then the bit array's longs. */
    @Override
    public long bits() {
      long[] bytes = {0};
      try {
        filter.writeTo(
            new OutputStream() {
              @Override
              public void write(int b) {
                bytes[0]++;
              }

              @Override
              public void write(byte[] b, int off, int len) {
                bytes[0] += len;
              }
            });
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return (bytes[0] - 6) * 8;
    }

    @Override
    public void writeTo(OutputStream out) throws IOException {
      filter.writeTo(out);
    }
  }

  static final class Exact implements Candidate {
    final Set<String> set;

    Exact(int n) {
      set = new HashSet<>((int) Math.min(Integer.MAX_VALUE, n * 4L / 3 + 1));
    }

    @Override
    public boolean put(String key) {
      return set.add(key);
    }

    @Override
    public boolean mightContain(String key) {
      return set.contains(key);
    }

    /** The heap the set and its keys take, measured around a fill of 10⁶ URLs and scaled. */
    @Override
    public long bits() {
      Runtime runtime = Runtime.getRuntime();
      int sample = 1_000_000;
      System.gc();
      long before = runtime.totalMemory() - runtime.freeMemory();
      Exact probe = new Exact(sample);
      for (int i = 0; i < sample; i++) {
        probe.put(SyntheticUrls.url(0, i));
      }
      System.gc();
      long after = runtime.totalMemory() - runtime.freeMemory();
      java.lang.ref.Reference.reachabilityFence(probe);
      return Math.round((after - before) * 8.0 / sample * set.size());
    }

    @Override
    public void writeTo(OutputStream out) {
      throw new UnsupportedOperationException("a HashSet is not cached");
    }
  }
}
