package dev.sieve.url;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Links resolved and normalized per second, and hashed for the Sieve, as a crawl does with each
 * link of a page: the real hrefs of {@code pages} pages sampled from a documentation corpus on
 * disk ({@code corpus}), each against the URL of its page served from
 * {@code http://127.0.0.1:8080/}. {@code general} is the path every link took before
 * ({@link Url#resolveGeneral}, then the hash of the URL string), {@code fast} is {@link
 * Url#resolve} with {@link Url#hash()} (plain paths on bytes, the rest as before). A score is
 * per link. The general path's cache of recent parses (16,384 entries) stays on, as in a crawl.
 *
 * <pre>
 * mvn -B -q -o -pl crawler-core -Pbench test-compile exec:exec \
 *   -Dbench='ResolveBenchmark -p corpus=/usr/share/cppreference/doc/html'
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
@State(Scope.Thread)
public class ResolveBenchmark {
  private static final Pattern HREF =
      Pattern.compile("(?:href|src)\\s*=\\s*\"([^\"]*)\"", Pattern.CASE_INSENSITIVE);

  @Param({"/usr/share/cppreference/doc/html"})
  public String corpus;

  @Param({"400"})
  public int pages;

  @Param({"general", "fast"})
  public String path;

  private Url[] bases;
  private String[] hrefs;
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Path root = Path.of(corpus);
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files = new ArrayList<>(walk.filter(p -> p.toString().endsWith(".html")).sorted().toList());
    }
    Collections.shuffle(files, new Random(17));
    List<Url> linkBases = new ArrayList<>();
    List<String> links = new ArrayList<>();
    for (Path file : files.subList(0, Math.min(pages, files.size()))) {
      Url page = Url.parse("http://127.0.0.1:8080/" + root.relativize(file).toString().replace('\\', '/'))
          .orElseThrow();
      Matcher m = HREF.matcher(Files.readString(file, StandardCharsets.UTF_8));
      while (m.find()) {
        linkBases.add(page);
        links.add(m.group(1).replace("&amp;", "&"));
      }
    }
    bases = linkBases.toArray(new Url[0]);
    hrefs = links.toArray(new String[0]);
    System.out.printf("%n%,d links of %d pages%n", hrefs.length, pages);
  }

  /** One link, the next in page order, round and round. */
  @Benchmark
  public void resolveAndHash(Blackhole sink) {
    int i = next;
    next = i + 1 == hrefs.length ? 0 : i + 1;
    if (path.equals("fast")) {
      bases[i].resolve(hrefs[i]).ifPresent(url -> sink.consume(url.hash()));
    } else {
      bases[i].resolveGeneral(hrefs[i])
          .ifPresent(url -> sink.consume(dev.sieve.bloom.Hash128.of(url.toString())));
    }
  }
}
