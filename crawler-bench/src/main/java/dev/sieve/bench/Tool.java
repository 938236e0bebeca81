package dev.sieve.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One side of {@code bench vs-wget}: a command run as a child process in the work directory, and
 * its runs: wall time, the CPU time it used (user + system, all its threads, read from this
 * process's children's times in {@code /proc/self/stat} once it has been waited for), and the
 * HTML pages nginx served it.
 */
final class Tool {
  /** One run: what nginx served it, its wall and CPU seconds, and why it failed, or null. */
  record Run(Set<String> pages, int requests, double seconds, double cpuSeconds, String failure) {
    double pagesPerSecond() {
      return pages.size() / seconds;
    }

    /** CPU seconds per 1,000 HTML pages. */
    double cpuPerThousand() {
      return 1000 * cpuSeconds / pages.size();
    }
  }

  /** Linux reports times in /proc in USER_HZ, 100 a second on every architecture. */
  private static final double TICKS_PER_SECOND = 100;

  final String name;
  final List<Run> runs = new ArrayList<>();
  private final List<String> command;
  private final Set<Integer> exitCodes;
  private final Map<String, String> environment;

  /**
   * A tool named {@code name} run as {@code command} with these variables added to this process's
   * environment, succeeding with one of {@code exitCodes}.
   */
  Tool(String name, List<String> command, Map<String, String> environment, Set<Integer> exitCodes) {
    this.name = name;
    this.command = List.copyOf(command);
    this.environment = Map.copyOf(environment);
    this.exitCodes = Set.copyOf(exitCodes);
  }

  /** Runs the command once in {@code work}, records the run and returns it. */
  Run run(NginxServer server, Path work) throws IOException, InterruptedException {
    Path stdout = work.resolve(name + ".out");
    Path stderr = work.resolve(name + ".err");
    double cpuBefore = childrenCpuSeconds();
    long started = Timing.start();
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(environment);
    Process process = builder
        .directory(work.toFile())
        .redirectOutput(stdout.toFile())
        .redirectError(stderr.toFile())
        .start();
    int exit = process.waitFor();
    double seconds = Timing.secondsSince(started);
    double cpu = childrenCpuSeconds() - cpuBefore;
    List<NginxServer.Request> requests = server.requestsSinceLastCall();
    String failure = exitCodes.contains(exit) ? null
        : "exit " + exit + ": " + BenchVsWgetCommand.lastLine(stderr) + BenchVsWgetCommand.lastLine(stdout);
    Run run = new Run(BenchVsWgetCommand.htmlPages(requests), requests.size(), seconds, cpu, failure);
    runs.add(run);
    return run;
  }

  /** User + system CPU of this process's children that have been waited for. */
  private static double childrenCpuSeconds() throws IOException {
    String stat = Files.readString(Path.of("/proc/self/stat"));
    // After "pid (comm) ": field 3 (state) is index 0; cutime and cstime are fields 16 and 17.
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(fields[13]) + Long.parseLong(fields[14])) / TICKS_PER_SECOND;
  }
}
