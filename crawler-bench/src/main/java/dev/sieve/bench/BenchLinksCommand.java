package dev.sieve.bench;

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
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench links}: scans every HTML file of one or more directories with both link scanners,
 * the Jsoup DOM one and then the streaming one (a pass each, so neither runs in the other's
 * garbage), checks that they find the same links, base and robots flags on every page (a page
 * whose fingerprints differ is scanned again by both and its differing links printed), and times
 * the scans.
 */
@Command(
    name = "links",
    mixinStandardHelpOptions = true,
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
    warmUp(htmlFiles(corpora.get(0)));
    out.printf(Locale.ROOT, "Link extraction: each corpus scanned by the Jsoup DOM scanner, then by"
        + " the streaming one (files read untimed), after %d warm-up pages%n", warmup);
    List<Tally> tallies = new ArrayList<>();
    long differing = 0;
    for (Path corpus : corpora) {
      List<Path> files = htmlFiles(corpus);
      Tally tally = new Tally();
      List<String> dom = pass(files, LinkScanner.dom(), 0, tally);
      List<String> streaming = pass(files, LinkScanner.streaming(), 1, tally);
      for (int i = 0; i < files.size(); i++) {
        if (dom.get(i).equals(streaming.get(i))) {
          tally.agreeing++;
        } else if (++differing <= show) {
          printDifference(out, files.get(i));
        }
      }
      tallies.add(tally);
    }
    printTable(out, tallies);
    long pages = tallies.stream().mapToLong(t -> t.pages).sum();
    long agreeing = tallies.stream().mapToLong(t -> t.agreeing).sum();
    out.printf(Locale.ROOT, "%,d of %,d pages agree (%.3f%%); %,d links found%n", agreeing, pages,
        pages == 0 ? 100.0 : 100.0 * agreeing / pages,
        tallies.stream().mapToLong(t -> t.links).sum());
    return agreeing == pages ? 0 : 1;
  }

  private void warmUp(List<Path> files) throws IOException {
    for (Path file : files.subList(0, Math.min(warmup, files.size()))) {
      byte[] body = Files.readAllBytes(file);
      LinkScanner.dom().scan(body, null);
      LinkScanner.streaming().scan(body, null);
    }
  }

  /**
   * Scans every file with {@code scanner}, timing the scans only, into {@code tally}'s column
   * {@code side}; returns each page's fingerprint: its links as a sorted set, base and flags, in
   * full, so pages agree only if those are equal.
   */
  private static List<String> pass(List<Path> files, LinkScanner scanner, int side, Tally tally)
      throws IOException {
    List<String> fingerprints = new ArrayList<>(files.size());
    for (Path file : files) {
      byte[] body = Files.readAllBytes(file);
      long cpu = THREADS.getCurrentThreadCpuTime();
      long started = System.nanoTime();
      PageLinks page = scanner.scan(body, null);
      tally.wallNanos[side] += System.nanoTime() - started;
      tally.cpuNanos[side] += THREADS.getCurrentThreadCpuTime() - cpu;
      if (side == 0) {
        tally.pages++;
        tally.bytes += body.length;
      } else {
        tally.links += page.links().size();
      }
      fingerprints.add(fingerprint(page));
    }
    return fingerprints;
  }

  private static String fingerprint(PageLinks page) {
    TreeSet<String> links = new TreeSet<>();
    for (PageLinks.Link link : page.links()) {
      links.add(link.kind() + " " + link.relNofollow() + " " + link.target());
    }
    return page.base() + "\n" + page.robotsNofollow() + page.robotsNoindex() + "\n"
        + String.join("\n", links);
  }

  private static void printDifference(PrintStream out, Path file) throws IOException {
    byte[] body = Files.readAllBytes(file);
    List<String> difference =
        LinkScanner.streaming().scan(body, null).difference(LinkScanner.dom().scan(body, null));
    out.println("differs: " + file + " (streaming vs DOM)");
    difference.stream().limit(50).forEach(line -> out.println("  " + line));
  }

  private void printTable(PrintStream out, List<Tally> tallies) {
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
        && List.of("html", "doc").contains(dir.getFileName().toString())) {
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
