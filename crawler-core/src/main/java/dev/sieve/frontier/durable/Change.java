package dev.sieve.frontier.durable;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import dev.sieve.frontier.queue.CrawlSpace;
import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.Crawls;
import dev.sieve.frontier.queue.FrontierStore;

/**
 * One change to the service's state as the journal keeps it: its record type and payload. Replayed
 * in order over the checkpoint it follows, the changes rebuild the state, because each is applied
 * as it was the first time (a put with the time it was taken at; the Sieve restored bit for bit
 * answers as it did). Times are the engine's ({@link dev.sieve.frontier.FrontierTime}): epoch
 * milliseconds, delays in milliseconds. The record types of journals written before the engine
 * counted milliseconds ({@code P}, {@code Q}, {@code G}: seconds) are replayed converted.
 */
public record Change(byte type, byte[] payload) {
  public static final byte PUT = 'U';
  static final byte QUEUE = 'K';
  static final byte DELETE_CRAWL = 'X';
  static final byte SERVICE = 'S';
  /** The record types of a journal that counted time in seconds. */
  private static final byte PUT_SECONDS = 'P';
  private static final byte QUEUE_SECONDS = 'Q';
  private static final byte SERVICE_SECONDS = 'G';

  /**
   * Service switches, as the {@code op} of SERVICE records (a QUEUE record's op is one of {@link
   * CrawlStore#control}'s).
   */
  static final byte ACTIVE = 'A';
  static final byte DEFAULT_DELAY = 'd';

  /** Whether {@code type} is a record type of the service's journal. */
  public static boolean known(int type) {
    return type == PUT || type == QUEUE || type == DELETE_CRAWL || type == SERVICE
        || type == PUT_SECONDS || type == QUEUE_SECONDS || type == SERVICE_SECONDS;
  }

  /** A put as {@link CrawlStore#put} took it, into crawl {@code crawlId} at {@code now}. */
  static Change put(String crawlId, String key, String url, boolean discovered,
      long refetchFrom, byte[] metadata, long now) {
    return write(PUT, out -> {
      out.writeUTF(crawlId);
      out.writeUTF(key);
      out.writeUTF(url);
      out.writeBoolean(discovered);
      out.writeLong(refetchFrom);
      out.writeLong(now);
      writeBytes(out, metadata);
    });
  }

  /** A queue control, {@code op} one of {@link CrawlStore#control}'s. */
  static Change queue(String crawlId, String key, byte op, long value) {
    return write(QUEUE, out -> {
      out.writeUTF(FrontierStore.normalise(crawlId));
      out.writeUTF(key);
      out.writeByte(op);
      out.writeLong(value);
    });
  }

  static Change deleteCrawl(String crawlId) {
    return write(DELETE_CRAWL, out -> out.writeUTF(FrontierStore.normalise(crawlId)));
  }

  /** A service switch, {@code op} {@link #ACTIVE} or {@link #DEFAULT_DELAY}. */
  static Change service(byte op, long value) {
    return write(SERVICE, out -> {
      out.writeByte(op);
      out.writeLong(value);
    });
  }

  /** Applies a journaled change to {@code crawls}, as the service applied it. */
  static void replay(byte type, byte[] payload, Crawls crawls) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
    long scale = type == PUT_SECONDS || type == QUEUE_SECONDS || type == SERVICE_SECONDS ? 1000 : 1;
    switch (type) {
      case PUT, PUT_SECONDS -> {
        String crawlId = in.readUTF();
        String key = in.readUTF();
        String url = in.readUTF();
        boolean discovered = in.readBoolean();
        long refetchFrom = in.readLong() * scale;
        long now = in.readLong() * scale;
        byte[] metadata = readBytes(in);
        crawls.getOrCreate(crawlId).put(key, url, discovered, refetchFrom, metadata, now);
      }
      case QUEUE, QUEUE_SECONDS -> {
        String crawlId = in.readUTF();
        String key = in.readUTF();
        byte op = in.readByte();
        long read = in.readLong();
        long value = scale == 1 || op == CrawlStore.LIMIT ? read
            : op == CrawlStore.DELAY ? millisOfDelay(read) : read * scale;
        crawls.get(crawlId).ifPresent(crawl -> crawl.control(key, op, value));
      }
      case DELETE_CRAWL -> crawls.remove(in.readUTF()).ifPresent(CrawlSpace::retire);
      case SERVICE, SERVICE_SECONDS -> {
        byte op = in.readByte();
        long value = in.readLong();
        if (op == ACTIVE) {
          crawls.active(value != 0);
        } else {
          crawls.defaultDelay(Duration.ofMillis(value * scale));
        }
      }
      default -> throw new IOException("unknown journal record type " + type);
    }
  }

  /** A queue's delay as a journal or checkpoint that counted seconds held it: -1 stays default. */
  static long millisOfDelay(long seconds) {
    return seconds < 0 ? -1 : seconds * 1000;
  }

  static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
    out.writeInt(bytes == null ? -1 : bytes.length);
    if (bytes != null) {
      out.write(bytes);
    }
  }

  static byte[] readBytes(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < -1 || length > (1 << 24)) {
      throw new IOException("a byte field of length " + length);
    }
    if (length < 0) {
      return null;
    }
    byte[] bytes = new byte[length];
    in.readFully(bytes);
    return bytes;
  }

  private interface Body {
    void write(DataOutputStream out) throws IOException;
  }

  private static Change write(byte type, Body body) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      body.write(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return new Change(type, bytes.toByteArray());
  }
}
