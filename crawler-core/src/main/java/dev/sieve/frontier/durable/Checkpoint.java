package dev.sieve.frontier.durable;

import dev.sieve.bloom.MembershipFilter;
import dev.sieve.frontier.FrontierTime;
import dev.sieve.frontier.Sieve;
import dev.sieve.frontier.queue.CrawlSpace;
import dev.sieve.frontier.queue.Crawls;
import dev.sieve.frontier.queue.QueuedUrl;
import dev.sieve.frontier.queue.WorkQueue;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;

/**
 * The saved form of every crawl the service holds: magic and version; the service switches
 * (active, default delay); per crawl its ID, the salt of its next queue, its completed-URL log's
 * name and length (forced to disk first), its Sieve's filter in the
 * filters' own saved form ({@link MembershipFilter#writeTo}, read back by {@link
 * MembershipFilter#readFrom}) and its queues, each with its salt, completed count, block, delay,
 * crawl limit, whether it was skipped, and pending URLs (URL, due time, metadata, creation date); the magic again, then a CRC32C of it all.
 * Times are the engine's ({@link dev.sieve.frontier.FrontierTime}): epoch milliseconds, delays in
 * milliseconds. Leases are not saved: a URL leased at the checkpoint is saved pending, due as it was.
 */
final class Checkpoint {
  private static final int MAGIC = 0x53535256; // "SSRV"
  /**
   * 2 added each crawl's completed-URL log (name and length) and each pending URL's creation date;
   * a version 1 file is read as having no log and each creation date unknown (its due time). 3
   * counts time in milliseconds where 1 and 2 counted seconds: theirs are read multiplied by 1000.
   * 4 added whether each queue was skipped ({@link dev.sieve.frontier.queue.CrawlStore#SKIP});
   * older queues were not.
   */
  private static final int VERSION = 4;

  private Checkpoint() {}

  /** Writes every crawl of {@code crawls} to {@code file}; the caller holds changes back. */
  static void write(Crawls crawls, Path file) throws IOException {
    CRC32C crc = new CRC32C();
    try (OutputStream raw = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
        CheckedOutputStream checked = new CheckedOutputStream(raw, crc)) {
      DataOutputStream out = new DataOutputStream(checked);
      out.writeInt(MAGIC);
      out.writeInt(VERSION);
      out.writeBoolean(crawls.active());
      out.writeLong(FrontierTime.millis(crawls.defaultDelay()));
      java.util.List<CrawlSpace> all = crawls.all();
      out.writeInt(all.size());
      for (CrawlSpace crawl : all) {
        crawl.read((id, sieve, nextSalt, queues) -> writeCrawl(id, sieve, nextSalt,
            crawl.completedLogName(), crawl.syncCompleted(), queues, out));
      }
      out.writeInt(MAGIC);
      out.flush();
      new DataOutputStream(raw).writeLong(crc.getValue());
    }
  }

  /** Writes one crawl; called under the crawl's lock. */
  private static void writeCrawl(String id, Sieve sieve, int nextSalt, String logName,
      long logLength, Collection<WorkQueue> queues, DataOutputStream out) throws IOException {
    out.writeUTF(id);
    out.writeInt(nextSalt);
    out.writeUTF(logName);
    out.writeLong(logLength);
    ByteArrayOutputStream filter = new ByteArrayOutputStream();
    sieve.writeFilter(filter);
    out.writeInt(filter.size());
    filter.writeTo(out);
    out.writeInt(queues.size());
    for (WorkQueue queue : queues) {
      out.writeUTF(queue.key());
      out.writeInt(queue.salt());
      out.writeLong(queue.completed());
      out.writeLong(queue.blockedUntil());
      out.writeLong(queue.delayMillis());
      out.writeLong(queue.crawlLimit());
      out.writeBoolean(queue.skipped());
      java.util.List<QueuedUrl> pending = queue.pendingUrls();
      out.writeInt(pending.size());
      for (QueuedUrl url : pending) {
        out.writeUTF(url.url());
        out.writeLong(url.refetchFrom());
        Change.writeBytes(out, url.metadata());
        out.writeLong(url.created());
      }
    }
  }

  /**
   * Reads {@code file} into {@code crawls} (which holds no crawl yet).
   *
   * @throws IOException naming the file and what is wrong: bad magic or version, truncated, or a
   *     checksum that does not match
   */
  static void read(Path file, Crawls crawls) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    if (bytes.length < 16) {
      throw new IOException("checkpoint " + file + " is truncated (" + bytes.length + " bytes)");
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - 8);
    long stored = java.nio.ByteBuffer.wrap(bytes, bytes.length - 8, 8).getLong();
    if (crc.getValue() != stored) {
      throw new IOException("checkpoint " + file + " fails its checksum: the file is damaged");
    }
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, 0, bytes.length - 8));
    if (in.readInt() != MAGIC) {
      throw new IOException("checkpoint " + file + " is not a serve checkpoint (bad magic)");
    }
    int version = in.readInt();
    if (version < 1 || version > VERSION) {
      throw new IOException("checkpoint " + file + ": version " + version + " is not " + VERSION
          + " (written by a newer Sieve?)");
    }
    crawls.active(in.readBoolean());
    crawls.defaultDelay(Duration.ofMillis(version >= 3 ? in.readLong() : in.readInt() * 1000L));
    int count = in.readInt();
    for (int i = 0; i < count; i++) {
      readCrawl(in, crawls, version);
    }
    if (in.readInt() != MAGIC) {
      throw new IOException("checkpoint " + file + " has no end marker");
    }
  }

  private static void readCrawl(DataInputStream in, Crawls crawls, int version)
      throws IOException {
    String id = in.readUTF();
    int nextSalt = in.readInt();
    String logName = version >= 2 ? in.readUTF() : "";
    long logLength = version >= 2 ? in.readLong() : 0;
    int filterBytes = in.readInt();
    byte[] filter = new byte[filterBytes];
    in.readFully(filter);
    MembershipFilter seen;
    try (InputStream filterIn = new BufferedInputStream(new ByteArrayInputStream(filter))) {
      seen = MembershipFilter.readFrom(filterIn);
    }
    CrawlSpace crawl;
    try {
      crawl = crawls.restore(id,
          Sieve.over(seen, crawls.settings().falsePositiveRate(), warning -> { }), nextSalt,
          logName, logLength);
    } catch (java.io.UncheckedIOException e) {
      throw new IOException("crawl '" + id + "': " + e.getMessage(), e);
    }
    int queues = in.readInt();
    for (int q = 0; q < queues; q++) {
      WorkQueue queue = crawl.restoreQueue(in.readUTF(), in.readInt());
      queue.restoreCompleted(in.readLong());
      long scale = version >= 3 ? 1 : 1000; // 1 and 2 counted seconds
      queue.blockUntil(in.readLong() * scale);
      queue.delay(version >= 3 ? in.readLong() : Change.millisOfDelay(in.readInt()));
      queue.crawlLimit(in.readLong());
      if (version >= 4 && in.readBoolean()) {
        queue.skip();
      }
      int pending = in.readInt();
      for (int p = 0; p < pending; p++) {
        String url = in.readUTF();
        long due = in.readLong() * scale;
        byte[] metadata = Change.readBytes(in);
        queue.restorePending(url, due, metadata, version == 1 ? due : in.readLong() * scale);
      }
    }
  }
}
