package dev.sieve.app.bench;

import dev.sieve.app.Main;
import dev.sieve.parse.LinkScanner;
import dev.sieve.parse.PageLinks;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench links}: scans every HTML file of one or more directories with both link scanners,
 * the Jsoup DOM one and the streaming one, checks that they find the same links, base and robots
 * flags on every page, and times them.
 */
@Command(
    name = "links",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Scan every *.html under each --corpus with the Jsoup DOM and the streaming link"
        + " scanner: check they agree on every page and time both. Exit 1 if any page differs.")
final class BenchLinksCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--corpus", required = true, description = "A directory of HTML files"
      + " (searched recursively for *.html); repeat for several.")
  List<Path> corpora;

  @Option(names = "--warmup", defaultValue = "300", description = "Pages of the first corpus"
      + " scanned by both before timing starts, untimed (default ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--show", defaultValue = "20", description = "Differing pages printed in full;"
      + " the rest are counted (default ${DEFAULT-VALUE}).")
  int show;

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** One corpus's totals. */
  private static final class Tally {
    long pages;
    long agreeing;
    long bytes;
    long links;
    final long[] wallNanos = new long[2];
    final long[] cpuNanos = new long[2];
  }

  @Override
  public Integer call() throws IOException {
    if (warmup < 0 || show < 0) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          (warmup < 0 ? "--warmup (" + warmup + ")" : "--show (" + show + ")")
              + " must not be negative");
    }
    for (Path corpus : corpora) {
      if (!Files.isDirectory(corpus)) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "--corpus (" + corpus + ") is not a directory");
      }
    }
    PrintStream out = System.out;
    LinkScanner[] scanners = {LinkScanner.dom(), LinkScanner.streaming()};
    warmUp(htmlFiles(corpora.get(0)), scanners);
    out.printf(Locale.ROOT, "Link extraction: Jsoup DOM vs streaming scanner, each page scanned by"
        + " both (which goes first alternates), reading files untimed, after %d warm-up pages%n",
        warmup);
    List<Tally> tallies = new ArrayList<>();
    long differing = 0;
    for (Path corpus : corpora) {
      Tally tally = new Tally();
      for (Path file : htmlFiles(corpus)) {
        if (!compare(out, corpus, file, scanners, tally) && ++differing <= show) {
          out.println();
        }
      }
      tallies.add(tally);
    }
    Table table = Table.of(out, -14, 7, 7, 7, 8, 8, 9, 9, 7, 7);
    table.row("corpus", "pages", "agree", "MB", "DOM", "DOM", "stream", "stream", "ratio", "ratio");
    table.row("", "", "", "", "ms/page", "MB/s", "ms/page", "MB/s", "wall", "CPU");
    for (int i = 0; i < corpora.size(); i++) {
      Tally t = tallies.get(i);
      double mb = t.bytes / 1e6;
      table.row(name(corpora.get(i)), t.pages, t.agreeing, Table.format("%.1f", mb),
          msPerPage(t.wallNanos[0], t.pages), mbPerSecond(mb, t.wallNanos[0]),
          msPerPage(t.wallNanos[1], t.pages), mbPerSecond(mb, t.wallNanos[1]),
          Table.format("%.2f×", (double) t.wallNanos[0] / Math.max(1, t.wallNanos[1])),
          Table.format("%.2f×", (double) t.cpuNanos[0] / Math.max(1, t.cpuNanos[1])));
    }
    long pages = tallies.stream().mapToLong(t -> t.pages).sum();
    long agreeing = tallies.stream().mapToLong(t -> t.agreeing).sum();
    out.printf(Locale.ROOT, "%,d of %,d pages agree (%.3f%%); %,d links found%n", agreeing, pages,
        pages == 0 ? 100.0 : 100.0 * agreeing / pages,
        tallies.stream().mapToLong(t -> t.links).sum());
    return agreeing == pages ? 0 : 1;
  }

  private void warmUp(List<Path> files, LinkScanner[] scanners) throws IOException {
    for (Path file : files.subList(0, Math.min(warmup, files.size()))) {
      byte[] body = Files.readAllBytes(file);
      for (LinkScanner scanner : scanners) {
        scanner.scan(body, null);
      }
    }
  }

  /** Scans {@code file} with both, adding to {@code tally}; prints and returns false if they differ. */
  private boolean compare(PrintStream out, Path corpus, Path file, LinkScanner[] scanners,
      Tally tally) throws IOException {
    byte[] body = Files.readAllBytes(file);
    PageLinks[] found = new PageLinks[2];
    int first = (int) (tally.pages % 2);
    for (int k = 0; k < 2; k++) {
      int s = (first + k) % 2;
      long cpu = THREADS.getCurrentThreadCpuTime();
      long started = System.nanoTime();
      found[s] = scanners[s].scan(body, null);
      tally.wallNanos[s] += System.nanoTime() - started;
      tally.cpuNanos[s] += THREADS.getCurrentThreadCpuTime() - cpu;
    }
    tally.pages++;
    tally.bytes += body.length;
    tally.links += found[1].links().size();
    List<String> difference = found[1].difference(found[0]);
    if (difference.isEmpty()) {
      tally.agreeing++;
      return true;
    }
    out.println("differs: " + file + " (streaming vs DOM)");
    difference.stream().limit(50).forEach(line -> out.println("  " + line));
    return false;
  }

  private static List<Path> htmlFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".html"))
          .filter(Files::isRegularFile).sorted().toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** The corpus's name: its directory's, or for ".../rust-doc/html" the "rust-doc" above it. */
  private static String name(Path corpus) {
    Path dir = corpus.toAbsolutePath().normalize();
    while (dir.getParent() != null && dir.getFileName() != null
        && (dir.getFileName().toString().equals("html") || dir.getFileName().toString().equals("doc"))) {
      dir = dir.getParent();
    }
    return dir.getFileName() == null ? corpus.toString() : dir.getFileName().toString();
  }

  private static String msPerPage(long nanos, long pages) {
    return Table.format("%.3f", nanos / 1e6 / Math.max(1, pages));
  }

  private static String mbPerSecond(double mb, long nanos) {
    return Table.format("%.1f", mb / (nanos / 1e9));
  }
}
