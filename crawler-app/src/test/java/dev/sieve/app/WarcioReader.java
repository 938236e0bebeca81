package dev.sieve.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sieve.testing.RedisServers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Reads WARC files with a library independent of jwarc: webrecorder's warcio.js, run by node
 * through {@code src/test/warcio/read-warc.mjs} (package-lock.json pins the version).
 *
 * <p>When node or the installed module is missing, {@link #require()} fails the calling test
 * under CI ({@code CI=true}: {@code .ci/run} installs both) and skips it elsewhere, saying why.
 */
public final class WarcioReader {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long TIMEOUT_SECONDS = 120;

  private final Path dir;

  private WarcioReader(Path dir) {
    this.dir = dir;
  }

  /** What warcio made of one file: its record count per type and every record in order. */
  public record WarcFile(String file, boolean gzip, int records, Map<String, Integer> counts,
      List<Entry> entries) {}

  /**
   * One record: its WARC fields as declared ({@code null} when absent) and what the script
   * recomputed: SHA-1 digests ({@code sha1:BASE32}) of the block and of the HTTP payload (the
   * bytes after the HTTP headers as warcio parses them, as stored: chunk framing, if a record
   * kept it, is not removed, as warcio.js's own writer does; {@code null} for records without
   * HTTP headers; for a revisit, the digest of what it holds, usually nothing, not of the body it
   * refers to), the payload's length, and the HTTP status (responses, revisits) or method
   * (requests). {@code offset} is where the record (its gzip member) starts in the file.
   * {@code protocols} are the record's {@code WARC-Protocol} values in order (none: empty), and
   * {@code cipherSuite} its {@code WARC-Cipher-Suite}.
   */
  public record Entry(long offset, String type, String targetUri, String recordId, String date,
      List<String> concurrentTo, String refersTo, String refersToTargetUri, String refersToDate,
      String profile, String truncated, String ipAddress, String contentType, long contentLength,
      String blockDigest, String payloadDigest, String computedBlockDigest,
      String computedPayloadDigest, Long payloadLength, Integer httpStatus, String httpMethod,
      List<String> protocols, String cipherSuite) {}

  /** The file is not a valid WARC: {@link #getMessage()} is the script's one line about it. */
  public static final class MalformedWarc extends IOException {
    private static final long serialVersionUID = 1L;

    MalformedWarc(String message) {
      super(message);
    }
  }

  private record Output(List<WarcFile> files) {}

  /** The reader, or a failed (CI) or skipped (elsewhere) test when node or warcio is missing. */
  public static WarcioReader require() {
    Path dir = scriptDir();
    String missing = !RedisServers.onPath("node") ? "node is not on the PATH"
        : !Files.isRegularFile(dir.resolve("node_modules/warcio/package.json"))
            ? "warcio is not installed in " + dir
            : null;
    if (missing == null) {
      return new WarcioReader(dir);
    }
    String message = missing + ": the independent WARC reader needs Node.js 18+ and warcio"
        + " (apt-get install -y nodejs npm; cd crawler-app/src/test/warcio && npm ci; .ci/run does)";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      Assertions.fail(message);
    }
    Assumptions.abort(message + "; skipped because CI is not set");
    throw new AssertionError("unreachable");
  }

  /** Reads one file. */
  public WarcFile read(Path file) throws IOException {
    return read(List.of(file)).get(0);
  }

  /**
   * Reads {@code files} in order.
   *
   * @throws MalformedWarc when one of them is malformed (torn, cut short, not a WARC) or cannot
   *     be read
   */
  public List<WarcFile> read(List<Path> files) throws IOException {
    List<String> command = new ArrayList<>(List.of("node", dir.resolve("read-warc.mjs").toString()));
    files.forEach(f -> command.add(f.toAbsolutePath().toString()));
    Process node = new ProcessBuilder(command).directory(dir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    CompletableFuture<byte[]> stderr = CompletableFuture.supplyAsync(() -> readAll(node.getErrorStream()));
    byte[] stdout = node.getInputStream().readAllBytes();
    try {
      if (!node.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        node.destroyForcibly();
        throw new IOException("read-warc.mjs did not finish in " + TIMEOUT_SECONDS + " s");
      }
      String errors = new String(stderr.get(), StandardCharsets.UTF_8).strip();
      return switch (node.exitValue()) {
        case 0 -> JSON.readValue(stdout, Output.class).files();
        case 1 -> throw new MalformedWarc(errors);
        default -> throw new IOException("read-warc.mjs exited with " + node.exitValue() + ": " + errors);
      };
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      node.destroyForcibly();
      throw new IOException("interrupted while reading " + files, e);
    } catch (ExecutionException e) {
      throw new IOException("reading read-warc.mjs's stderr failed", e.getCause());
    }
  }

  private static byte[] readAll(InputStream in) {
    try (in) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** crawler-app/src/test/warcio: Maven runs tests with the module's directory as basedir. */
  private static Path scriptDir() {
    return Path.of(System.getProperty("basedir", System.getProperty("user.dir")))
        .resolve("src/test/warcio").toAbsolutePath();
  }
}
