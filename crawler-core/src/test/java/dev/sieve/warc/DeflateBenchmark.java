package dev.sieve.warc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One record body deflated, as the archive deflates it: {@code fast} is {@link FastDeflate} (level
 * 1), {@code zlib1} and {@code zlib6} the JDK's zlib at those levels. The bodies are {@code files}
 * files of {@code corpus} (a directory, its *.html or with {@code glob} other files), or {@code
 * generated} ({@code bench crawl}'s 40 KB pages) or {@code random} (40 KB of random bytes). A
 * score is per body; the size of the output against the input's is printed at the end.
 *
 * <pre>
 * mvn -B -q -o -pl crawler-core -Pbench test-compile exec:exec \
 *   -Dbench='DeflateBenchmark -p corpus=/usr/share/cppreference/doc/html,generated,random'
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
@State(Scope.Thread)
public class DeflateBenchmark {
  @Param({"generated"})
  public String corpus;

  @Param({"2000"})
  public int files;

  @Param({".html"})
  public String suffix;

  @Param({"fast", "zlib1", "zlib6"})
  public String encoder;

  private byte[][] inputs;
  private int next;
  private final FastDeflate fast = new FastDeflate();
  private final MemberWriter.Output out = new MemberWriter.Output(1 << 20);
  private final byte[] buffer = new byte[64 * 1024];
  private Deflater zlib;
  private long bytesIn;
  private long bytesOut;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    List<byte[]> bodies = new ArrayList<>();
    Random random = new Random(42);
    if (corpus.equals("generated") || corpus.equals("random")) {
      for (int i = 0; i < Math.min(files, 1_000); i++) {
        bodies.add(corpus.equals("random") ? randomBytes(random) : generatedPage(i, random));
      }
    } else {
      List<Path> paths;
      try (Stream<Path> walk = Files.walk(Path.of(corpus))) {
        paths = new ArrayList<>(walk.filter(p -> p.toString().endsWith(suffix))
            .filter(Files::isRegularFile).sorted().toList());
      }
      Collections.shuffle(paths, random);
      for (Path path : paths.subList(0, Math.min(files, paths.size()))) {
        bodies.add(Files.readAllBytes(path));
      }
    }
    inputs = bodies.toArray(new byte[0][]);
    if (!encoder.equals("fast")) {
      zlib = new Deflater(encoder.equals("zlib1") ? 1 : 6, true);
    }
  }

  private static byte[] randomBytes(Random random) {
    byte[] bytes = new byte[40_000];
    random.nextBytes(bytes);
    return bytes;
  }

  /** A page like {@code bench crawl}'s site serves: 50 links, then filler to 40 KB. */
  private static byte[] generatedPage(int i, Random random) {
    StringBuilder html = new StringBuilder(44_000)
        .append("<!doctype html><html><head><title>Page ").append(i).append("</title></head><body>");
    for (int l = 0; l < 50; l++) {
      html.append("<a href=\"/p/").append(random.nextInt(4000)).append(".html\">article ")
          .append(l).append("</a>\n");
    }
    while (html.length() < 40_000) {
      html.append("<p>Sieve crawls politely and remembers every URL it has seen in a few bits. ")
          .append("This paragraph is filler so that the page weighs what a real article does.</p>\n");
    }
    return html.append("</body></html>\n").toString().getBytes(StandardCharsets.UTF_8);
  }

  @Benchmark
  public int deflate() {
    byte[] input = inputs[next];
    next = next + 1 == inputs.length ? 0 : next + 1;
    int size;
    if (zlib == null) {
      out.reset();
      fast.start();
      fast.write(input, 0, input.length, out);
      fast.finish(out);
      size = out.size();
    } else {
      zlib.reset();
      zlib.setInput(input);
      zlib.finish();
      size = 0;
      while (!zlib.finished()) {
        size += zlib.deflate(buffer);
      }
    }
    bytesIn += input.length;
    bytesOut += size;
    return size;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    System.out.printf("%n%s, %s: %d inputs of %,d bytes on average, output %.1f%% of the input%n",
        corpus, encoder, inputs.length, averageLength(),
        100.0 * bytesOut / Math.max(1, bytesIn));
    if (zlib != null) {
      zlib.end();
    }
  }

  private long averageLength() {
    long total = 0;
    for (byte[] input : inputs) {
      total += input.length;
    }
    return Math.max(1, total / inputs.length);
  }
}
