package dev.sieve.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sieve.crawl.CrawlListener;
import dev.sieve.crawl.PageRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crawl's JSON Lines output: one JSON object per URL, one per line, in {@link PageRecordJson}'s
 * form; on resume, the records it holds for the URLs that were in flight.
 *
 * <p>{@link #open} only creates and locks the file (nothing in it changes), so that every check
 * can be made before anything is written; {@link #append} or {@link #replace} then choose what
 * happens to what it holds. Each record is written whole with one positioned write; a write that
 * fails is cut off again, so the file never ends in a partial line we wrote. Thread-safe.
 */
public final class JsonlOutput implements CrawlListener, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger("dev.sieve.crawl");

  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;
  private final boolean created;
  private long end;
  private IOException failure;
  /** Whether the run went past its checks and took the file ({@link #append} or {@link #replace}). */
  private boolean taken;

  JsonlOutput(Path file, FileChannel channel, FileLock lock, boolean created) throws IOException {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
    this.created = created;
    this.end = channel.size();
  }

  /** The output is locked by another crawl: a usage error, not an I/O failure. */
  static final class InUseException extends IOException {
    InUseException(String message) {
      super(message);
    }
  }

  /**
   * Opens {@code file} (creating it and its directory when absent) and locks it for this process;
   * what it holds is left untouched.
   *
   * @throws InUseException if another crawl holds the lock
   * @throws IOException if the file cannot be created or opened
   */
  static JsonlOutput open(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      Files.createDirectories(parent);
    }
    boolean created = !Files.exists(file);
    FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.READ);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    } catch (IOException e) {
      // A device such as /dev/full cannot be locked; there is no file to protect.
      return new JsonlOutput(file, channel, null, created);
    }
    if (lock == null) {
      channel.close();
      throw new InUseException("output " + file + " is in use by another crawl");
    }
    return new JsonlOutput(file, channel, lock, created);
  }

  /** Bytes the file holds now. */
  /**
   * Opens {@code file} as {@code crawl --overwrite} does: locked, emptied, ready for records. For
   * benchmarks that crawl as the command does, output included.
   *
   * @throws IOException if the file cannot be opened, locked or emptied
   */
  public static JsonlOutput overwriting(Path file) throws IOException {
    JsonlOutput output = open(file);
    try {
      output.replace();
    } catch (IOException e) {
      output.close();
      throw e;
    }
    return output;
  }

  long size() throws IOException {
    return channel.size();
  }

  /** Lines the file holds (counted only to word a refusal). */
  long lines() throws IOException {
    long lines = 0;
    try (BufferedReader reader = reader(channel.size())) {
      while (reader.readLine() != null) {
        lines++;
      }
    }
    return lines;
  }

  /**
   * Appends after what the file holds; a partial last line (a crash mid-write) is cut off first,
   * with a WARN giving its length.
   */
  synchronized void append() throws IOException {
    taken = true;
    long size = channel.size();
    long keep = wholeLines();
    if (keep < size) {
      log.warn("Output {} ended in a partial line of {} bytes (a crash mid-write); cut it off",
          file, size - keep);
      channel.truncate(keep);
    }
    end = keep;
  }

  /**
   * The file's first {@code length} bytes, read through this output's own channel: closing another
   * channel on the file would release this process's lock on it.
   */
  private BufferedReader reader(long length) {
    InputStream in = new InputStream() {
      private final ByteBuffer one = ByteBuffer.allocate(1);
      private long position;

      @Override
      public int read() throws IOException {
        one.clear();
        return read(one) <= 0 ? -1 : one.get(0) & 0xff;
      }

      @Override
      public int read(byte[] bytes, int offset, int count) throws IOException {
        return read(ByteBuffer.wrap(bytes, offset, (int) Math.min(count, Math.max(0, length - position))));
      }

      private int read(ByteBuffer into) throws IOException {
        if (position >= length || !into.hasRemaining()) {
          return -1;
        }
        int n = channel.read(into, position);
        if (n > 0) {
          position += n;
        }
        return n;
      }
    };
    return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
  }

  /** The length of the file's whole lines: up to its last newline. */
  private long wholeLines() throws IOException {
    long keep = channel.size();
    ByteBuffer one = ByteBuffer.allocate(1);
    while (keep > 0) {
      one.clear();
      channel.read(one, keep - 1);
      if (one.get(0) == '\n') {
        break;
      }
      keep--;
    }
    return keep;
  }

  /** Replaces what the file holds (the user asked for --overwrite). */
  synchronized void replace() throws IOException {
    taken = true;
    channel.truncate(0);
    end = 0;
  }

  /**
   * Of {@code urls}, those with a record in the file, with their latest records: a crash between
   * writing a record and journaling its URL as done leaves such URLs in flight.
   */
  @Override
  public Map<String, PageRecord> recordedBefore(Set<String> urls) {
    try {
      return recorded(urls);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + IoMessages.cause(e), e);
    }
  }

  private Map<String, PageRecord> recorded(Set<String> urls) throws IOException {
    Map<String, PageRecord> found = new HashMap<>();
    if (urls.isEmpty()) {
      return found;
    }
    ObjectMapper mapper = new ObjectMapper();
    // Whole lines only: a partial last line is no record (it is cut off before appending).
    try (BufferedReader reader = reader(wholeLines())) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        String url = PageRecordJson.firstUrl(line);
        if (url != null && urls.contains(url)) {
          found.put(url, PageRecordJson.decode(mapper.readTree(line))); // the latest, for a URL refetched
        }
      }
    }
    return found;
  }

  /**
   * Writes one record as one line.
   *
   * @throws UncheckedIOException naming the file and the cause when it cannot be written (the
   *     failed line is cut off again); every later write fails the same way
   */
  @Override
  public synchronized void onPage(PageRecord record) {
    if (failure != null) {
      throw new UncheckedIOException(message(failure), failure);
    }
    ByteBuffer line = ByteBuffer.wrap(PageRecordJson.encode(record));
    long at = end;
    try {
      while (line.hasRemaining()) {
        at += channel.write(line, at);
      }
      end = at;
    } catch (IOException e) {
      failure = e;
      try {
        channel.truncate(end);
      } catch (IOException | UnsupportedOperationException ignored) {
        // A device cannot be truncated; a file can, and is (the line written so far goes).
      }
      throw new UncheckedIOException(message(e), e);
    }
  }

  /** The first write failure, or null. */
  synchronized IOException failure() {
    return failure;
  }

  /** "cannot write FILE: CAUSE", the one line a failure is reported in. */
  String message(IOException e) {
    return "cannot write " + file + ": " + IoMessages.cause(e);
  }

  /**
   * Releases the lock and closes the file; a file created by a run that was then refused is
   * removed again (a refused run leaves nothing behind).
   */
  @Override
  public synchronized void close() throws IOException {
    boolean empty = created && !taken && channel.size() == 0;
    try {
      if (lock != null && lock.isValid()) {
        lock.release();
      }
    } finally {
      channel.close();
    }
    if (empty) {
      Files.deleteIfExists(file);
    }
  }

}
