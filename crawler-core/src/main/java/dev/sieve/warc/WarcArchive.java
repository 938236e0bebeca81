package dev.sieve.warc;

import dev.sieve.fetch.Exchange;
import dev.sieve.fetch.FetchResult;
import dev.sieve.files.DirectoryLock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A crawl's WARC archive: for each fetch that got a response, a {@code request} record and a
 * {@code response} record (or a {@code revisit} when the same payload was written before), in
 * files named the IIPC way ({@code PREFIX-TIMESTAMP-SERIAL-HOST.warc.gz}), each starting with a
 * {@code warcinfo} record and rotated at the size limit. A file being written ends in {@code
 * .open}; one left by a crash is cut at its last complete record and closed when the archive
 * opens ({@link TornFiles}). A lock file keeps a second archive out of the directory.
 *
 * <p>Thread-safe: records are built and compressed on the calling thread, and each exchange's
 * records are appended as one unit. Failures to write are {@link WarcException}s; after one, the
 * archive refuses further writes.
 */
public final class WarcArchive implements AutoCloseable {
  /**
   * Where a record was written: the file's final name and the record's offset in it; and the
   * response record it is, or as a revisit refers to (its ID, null if unknown, and date), which a
   * later revisit of the URL can refer to.
   */
  public record Location(String file, long offset, UUID responseId, Instant responseDate) {}

  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final WarcSettings settings;
  private final DirectoryLock lock;
  /** The warcinfo fields: the settings' and the caller's. */
  private final Map<String, String> info;
  private final Clock clock;
  private final Digests digests;
  private final ExecutorService indexer;
  private final List<Future<Path>> indexes = new ArrayList<>();
  private WarcFile current;
  private int serial;
  private WarcException failure;
  private boolean closed;

  private WarcArchive(WarcSettings settings, DirectoryLock lock, Map<String, String> info, Clock clock,
      int serial) {
    this.settings = settings;
    this.lock = lock;
    this.info = info;
    this.clock = clock;
    this.serial = serial;
    this.digests = settings.dedupe ? new Digests(settings.maxDigests) : null;
    this.indexer = settings.index
        ? Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "warc-index");
            thread.setDaemon(true);
            return thread;
          })
        : null;
  }

  /**
   * Opens the archive in {@code settings.dir()} (created if missing), first closing any {@code
   * .open} file a crash left there at its last complete record. The first file is created with
   * the first record.
   *
   * @throws WarcException if the directory or a torn file cannot be used
   */
  public static WarcArchive open(WarcSettings settings, Clock clock) {
    return open(settings, clock, Map.of());
  }

  /**
   * {@link #open(WarcSettings, Clock)}, each file's warcinfo also holding {@code info} (e.g. the
   * crawl's settings and robots policy), in its order.
   */
  public static WarcArchive open(WarcSettings settings, Clock clock, Map<String, String> info) {
    try {
      Files.createDirectories(settings.dir);
    } catch (IOException e) {
      throw new WarcException("create WARC directory", settings.dir, e);
    }
    DirectoryLock lock = lock(settings.dir);
    WarcArchive archive;
    try {
      TornFiles.recover(settings.dir);
      Map<String, String> fields = new LinkedHashMap<>(settings.info);
      fields.putAll(info);
      archive = new WarcArchive(settings, lock, Collections.unmodifiableMap(fields), clock,
          nextSerial(settings));
    } catch (RuntimeException e) {
      release(lock);
      throw e;
    }
    if (settings.index) {
      // The recovered files, and any a crash closed before its index was written.
      for (Path file : unindexed(settings.dir)) {
        archive.index(file);
      }
    }
    return archive;
  }

  /** The closed WARC files in {@code dir} without a CDXJ index beside them. */
  private static List<Path> unindexed(Path dir) {
    try (var files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".warc.gz"))
          .filter(f -> !Files.exists(CdxjIndex.pathOf(f)))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new WarcException("list WARC directory", dir, e);
    }
  }

  /** One more than the highest serial of this prefix's files in the directory. */
  private static int nextSerial(WarcSettings settings) {
    Pattern name = Pattern.compile(Pattern.quote(settings.prefix) + "-\\d{17}-(\\d+)-.*\\.warc\\.gz(\\.open)?");
    int next = 0;
    try (var files = Files.list(settings.dir)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Matcher m = name.matcher(file.getFileName().toString());
        if (m.matches() && m.group(1).length() < 10) {
          next = Math.max(next, Integer.parseInt(m.group(1)) + 1);
        }
      }
    } catch (IOException e) {
      throw new WarcException("list WARC directory", settings.dir, e);
    }
    return next;
  }

  /**
   * Archives the exchange of {@code result}, if it got a response; returns where its response
   * (or revisit) record went. A payload seen before (same SHA-1, complete, not empty) is written
   * as a revisit unless dedupe is off.
   *
   * @throws WarcException if the archive cannot be written (then and from then on)
   */
  public Optional<Location> write(FetchResult result) {
    Exchange exchange = result.exchange().orElse(null);
    if (exchange == null) {
      return Optional.empty();
    }
    String sha1 = result.sha1();
    boolean dedupable = digests != null && exchange.truncation() == Exchange.Truncation.NONE
        && exchange.payload().hasRemaining();
    Digests.Original original = dedupable ? digests.find(sha1) : null;
    Location location = write(result, exchange, original, false);
    if (dedupable && original == null) {
      digests.remember(sha1, new Digests.Original(location.responseId(), result.url(),
          location.responseDate()));
    }
    return Optional.of(location);
  }

  /**
   * Archives the {@code 304 Not Modified} of a conditional refetch, {@code result}, as a request
   * and a revisit record with the server-not-modified profile, referring to the URL's last
   * response record: {@code recordId} (null when unknown: no {@code WARC-Refers-To}), written at
   * {@code recordDate}. The location returned names that response as the one to refer to next.
   *
   * @throws WarcException if the archive cannot be written (then and from then on)
   */
  public Optional<Location> writeNotModified(FetchResult result, UUID recordId, Instant recordDate) {
    Exchange exchange = result.exchange().orElse(null);
    if (exchange == null) {
      return Optional.empty();
    }
    return Optional.of(write(result, exchange,
        new Digests.Original(recordId, result.url(), recordDate), true));
  }

  private Location write(FetchResult result, Exchange exchange, Digests.Original original,
      boolean notModified) {
    String sha1 = result.sha1();
    Records.Pair pair;
    Location location;
    try (MemberWriter writer = MemberWriter.borrow(settings.gzipLevel)) {
      pair = Records.exchange(writer, result.url(), exchange, sha1, original, notModified);
      MemberWriter.Output records = writer.records();
      synchronized (this) {
        WarcFile file = fileFor(records.size());
        try {
          long at = file.append(records.array(), records.size(), true);
          location = original == null
              ? new Location(file.name(), at + pair.responseOffset(), pair.responseId(), pair.date())
              : new Location(file.name(), at + pair.responseOffset(), original.recordId(),
                  original.date());
        } catch (IOException e) {
          throw fail(new WarcException("write WARC file", file.openPath(), e));
        }
      }
    }
    return location;
  }

  /** The file to append {@code length} bytes to: the current one, or a new one past the limit. */
  private WarcFile fileFor(long length) {
    if (failure != null) {
      throw failure;
    }
    if (closed) {
      throw new IllegalStateException("the WARC archive is closed");
    }
    if (current != null && current.exchanges() > 0 && current.size() + length > settings.maxFileBytes) {
      closeCurrent();
    }
    if (current == null) {
      String name = settings.prefix + "-" + STAMP.format(clock.instant()) + "-"
          + String.format(Locale.ROOT, "%05d", serial++) + "-" + settings.host + ".warc.gz";
      Path path = settings.dir.resolve(name + WarcFile.OPEN);
      try {
        current = WarcFile.create(settings.dir, name);
        byte[] warcinfo = Records.warcinfo(settings, info, name, clock.instant());
        current.append(warcinfo, warcinfo.length, false);
      } catch (IOException e) {
        throw fail(new WarcException("create WARC file", path, e));
      }
    }
    return current;
  }

  private void closeCurrent() {
    WarcFile file = current;
    current = null;
    try {
      file.close();
    } catch (IOException e) {
      throw fail(new WarcException("close WARC file", file.openPath(), e));
    }
    if (indexer != null) {
      index(file.closedPath());
    }
  }

  private void index(Path warc) {
    synchronized (indexes) {
      indexes.add(indexer.submit(() -> {
        try {
          return CdxjIndex.write(warc);
        } catch (IOException | RuntimeException e) {
          IOException io = e instanceof IOException ioe ? ioe : new IOException(e.toString(), e);
          throw new WarcException("write CDXJ index", CdxjIndex.pathOf(warc), io);
        }
      }));
    }
  }

  private WarcException fail(WarcException e) {
    if (failure == null) {
      failure = e;
    }
    return e;
  }

  /**
   * Forces every record written so far to the disk (called at each checkpoint).
   *
   * @throws WarcException if the file cannot be synced
   */
  public synchronized void sync() {
    if (current != null && failure == null) {
      try {
        current.sync();
      } catch (IOException e) {
        throw fail(new WarcException("sync WARC file", current.openPath(), e));
      }
    }
  }

  /**
   * Closes and renames the file being written and waits for the indexes. Idempotent.
   *
   * @throws WarcException if a file or index cannot be written
   */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      if (current != null && failure == null) {
        closeCurrent();
      }
    }
    if (indexer != null) {
      indexer.shutdown();
      awaitIndexes();
    }
    release(lock);
    if (failure != null) {
      throw failure;
    }
  }

  /** The lock file in a WARC directory, held while an archive writes there. */
  static final String LOCK_FILE = ".sieve-warc.lock";

  /**
   * Locks {@code dir}: a second crawl must not take the first one's {@code .open} file for a torn
   * one and cut it.
   *
   * @throws WarcException if another archive holds it ({@link WarcException#inUse}) or the lock
   *     file cannot be written
   */
  private static DirectoryLock lock(Path dir) {
    try {
      DirectoryLock lock = DirectoryLock.tryLock(dir, LOCK_FILE);
      if (lock == null) {
        throw WarcException.inUse(dir);
      }
      return lock;
    } catch (IOException e) {
      throw new WarcException("lock WARC directory", dir.resolve(LOCK_FILE), e);
    }
  }

  private static void release(DirectoryLock lock) {
    try {
      lock.close();
    } catch (IOException ignored) {
      // Closing the channel releases the lock in any case.
    }
  }

  private void awaitIndexes() {
    List<Future<Path>> pending;
    synchronized (indexes) {
      pending = new ArrayList<>(indexes);
    }
    for (Future<Path> index : pending) {
      try {
        index.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (ExecutionException e) {
        synchronized (this) {
          fail((WarcException) e.getCause());
        }
      }
    }
  }
}
