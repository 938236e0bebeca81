package dev.sieve.serve;

import dev.sieve.files.RecordLog;
import dev.sieve.frontier.spill.PendingCodec;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's append-only log of changes since its last checkpoint, written by group commit: a
 * change appended here is framed as the crawl journal frames its records ({@code type, varint
 * length, payload, CRC32C}) into a buffer; one writer thread takes everything buffered, hands it
 * to the operating system in one write, then runs the callbacks of that batch in append order
 * (they send the acks). A write in the page cache survives {@code kill -9} of the process; it is
 * not forced to the disk, so a power loss can lose the last batches (see docs/serve.md).
 *
 * <p>On replay a record cut short or with a bad checksum at the end (a crash mid-write) is cut off
 * with one WARN; a bad record followed by more data fails the replay naming file and offset.
 */
final class ServeJournal implements Closeable {
  private static final Logger log = LoggerFactory.getLogger(ServeJournal.class);

  private final Object lock = new Object();
  private final Thread writer;
  private ByteArrayOutputStream buffer = new ByteArrayOutputStream(64 * 1024);
  private List<Runnable> callbacks = new ArrayList<>();
  private FileChannel channel;
  private Path file;
  /** True while the writer holds a batch it has not written and acknowledged yet. */
  private boolean writing;
  private boolean closed;
  /** Why the journal cannot be written, once it cannot: changes are refused from then on. */
  private volatile String failure;
  private final CRC32C crc = new CRC32C();

  private ServeJournal(Path file, FileChannel channel) {
    this.file = file;
    this.channel = channel;
    this.writer = new Thread(this::writeLoop, "serve-journal");
    this.writer.setDaemon(true);
    this.writer.start();
  }

  /** Opens {@code file} for appending (created if needed) and starts the writer. */
  static ServeJournal open(Path file) throws IOException {
    return new ServeJournal(file, openChannel(file));
  }

  private static FileChannel openChannel(Path file) throws IOException {
    return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.APPEND);
  }

  /**
   * Buffers a record of {@code type} (none when {@code payload} is null: a barrier) and runs
   * {@code then} on the writer thread once the batch holding it is written, after every callback
   * appended before it.
   *
   * @throws IllegalStateException if the journal could not be written (the message says why)
   */
  void append(byte type, byte[] payload, Runnable then) {
    synchronized (lock) {
      if (failure != null || closed) {
        throw new IllegalStateException(failure != null ? failure : "journal " + file + " closed");
      }
      if (payload != null) {
        frame(type, payload);
      }
      callbacks.add(then);
      lock.notifyAll();
    }
  }

  private void frame(byte type, byte[] payload) {
    ByteBuffer header = ByteBuffer.allocate(1 + PendingCodec.varintSize(payload.length));
    header.put(type);
    PendingCodec.putVarint(header, payload.length);
    crc.reset();
    crc.update(type);
    crc.update(payload);
    int sum = (int) crc.getValue();
    buffer.write(header.array(), 0, header.position());
    buffer.write(payload, 0, payload.length);
    buffer.write(new byte[] {(byte) (sum >>> 24), (byte) (sum >>> 16), (byte) (sum >>> 8),
        (byte) sum}, 0, 4);
  }

  /**
   * Waits until everything appended so far is written, then continues in {@code next}: the
   * caller has stopped appends (the checkpoint holds the state's lock).
   */
  void rotate(Path next) throws IOException {
    FileChannel opened = openChannel(next);
    synchronized (lock) {
      try {
        while ((writing || !callbacks.isEmpty()) && failure == null) {
          lock.wait();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        opened.close();
        throw new IOException("interrupted while rotating journal " + file);
      }
      channel.close();
      channel = opened;
      file = next;
    }
  }

  private void writeLoop() {
    while (true) {
      ByteArrayOutputStream batch;
      List<Runnable> done;
      FileChannel target;
      synchronized (lock) {
        while (callbacks.isEmpty() && !closed) {
          try {
            lock.wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (callbacks.isEmpty()) {
          return;
        }
        batch = buffer;
        done = callbacks;
        target = channel;
        buffer = new ByteArrayOutputStream(64 * 1024);
        callbacks = new ArrayList<>();
        writing = true;
      }
      try {
        ByteBuffer bytes = ByteBuffer.wrap(batch.toByteArray());
        while (bytes.hasRemaining()) {
          target.write(bytes);
        }
        done.forEach(ServeJournal::runQuietly);
      } catch (IOException e) {
        failure = "cannot write journal " + file + ": " + e.getMessage();
        log.error("{}; changes are refused from now on (acked ones are safe)", failure);
      } finally {
        synchronized (lock) {
          writing = false;
          lock.notifyAll();
        }
      }
    }
  }

  private static void runQuietly(Runnable callback) {
    try {
      callback.run();
    } catch (RuntimeException e) {
      log.warn("Journal callback failed: {}", e.toString());
    }
  }

  /** Writes what is buffered, stops the writer and closes the file. */
  @Override
  public void close() throws IOException {
    synchronized (lock) {
      closed = true;
      lock.notifyAll();
    }
    try {
      writer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (lock) {
      channel.close();
    }
  }

  /**
   * Hands each whole record of {@code file} to {@code to} as (type, payload); a torn tail is
   * logged once and ignored. A missing file replays nothing.
   *
   * @return how many records were replayed
   * @throws IOException naming the file and offset of a corrupt record that is not the last
   */
  static long replay(Path file, RecordConsumer to) throws IOException {
    return RecordLog.replay(file, Change::known, (type, payload, offset) -> to.accept(type, payload))
        .records();
  }

  /** Receives a replayed record. */
  interface RecordConsumer {
    void accept(byte type, byte[] payload) throws IOException;
  }
}
