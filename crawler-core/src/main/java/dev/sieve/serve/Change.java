package dev.sieve.serve;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One change to the service's state as the journal keeps it: its record type and payload. Replayed
 * in order over the checkpoint it follows, the changes rebuild the state, because each is applied
 * as it was the first time (a put with the time it was taken at; the Sieve restored bit for bit
 * answers as it did).
 */
record Change(byte type, byte[] payload) {
  static final byte PUT = 'P';
  static final byte QUEUE = 'Q';
  static final byte DELETE_CRAWL = 'X';
  static final byte SERVICE = 'G';

  /** Queue controls and service switches, as the {@code op} of QUEUE and SERVICE records. */
  static final byte DELETE_QUEUE = 'D';
  static final byte BLOCK = 'B';
  static final byte DELAY = 'L';
  static final byte LIMIT = 'C';
  static final byte ACTIVE = 'A';
  static final byte DEFAULT_DELAY = 'd';

  /** Whether {@code type} is a record type of the service's journal. */
  static boolean known(int type) {
    return type == PUT || type == QUEUE || type == DELETE_CRAWL || type == SERVICE;
  }

  static Change put(PutItem item, long now) {
    return write(PUT, out -> {
      out.writeUTF(item.crawlId());
      out.writeUTF(item.key());
      out.writeUTF(item.url());
      out.writeBoolean(item.discovered());
      out.writeLong(item.refetchFrom());
      out.writeLong(now);
      writeBytes(out, item.metadata());
    });
  }

  static Change queue(String crawlId, String key, byte op, long value) {
    return write(QUEUE, out -> {
      out.writeUTF(Crawls.normalise(crawlId));
      out.writeUTF(key);
      out.writeByte(op);
      out.writeLong(value);
    });
  }

  static Change deleteCrawl(String crawlId) {
    return write(DELETE_CRAWL, out -> out.writeUTF(Crawls.normalise(crawlId)));
  }

  static Change service(byte op, long value) {
    return write(SERVICE, out -> {
      out.writeByte(op);
      out.writeLong(value);
    });
  }

  /** Applies a journaled change to {@code crawls}, as the service applied it. */
  static void replay(byte type, byte[] payload, Crawls crawls) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
    switch (type) {
      case PUT -> {
        String crawlId = in.readUTF();
        String key = in.readUTF();
        String url = in.readUTF();
        boolean discovered = in.readBoolean();
        long refetchFrom = in.readLong();
        long now = in.readLong();
        byte[] metadata = readBytes(in);
        crawls.getOrCreate(crawlId).put(key, url, discovered, refetchFrom, metadata, now);
      }
      case QUEUE -> {
        String crawlId = in.readUTF();
        String key = in.readUTF();
        byte op = in.readByte();
        long value = in.readLong();
        crawls.get(crawlId).ifPresent(crawl -> applyToQueue(crawl, key, op, value));
      }
      case DELETE_CRAWL -> crawls.remove(in.readUTF()).ifPresent(CrawlSpace::retire);
      case SERVICE -> {
        byte op = in.readByte();
        long value = in.readLong();
        if (op == ACTIVE) {
          crawls.active(value != 0);
        } else {
          crawls.defaultDelaySeconds((int) value);
        }
      }
      default -> throw new IOException("unknown journal record type " + type);
    }
  }

  /** Applies a queue control; false if the queue does not exist. */
  static boolean applyToQueue(CrawlSpace crawl, String key, byte op, long value) {
    if (op == DELETE_QUEUE) {
      return crawl.deleteQueue(key) >= 0;
    }
    return crawl.withQueue(key, queue -> {
      switch (op) {
        case BLOCK -> queue.blockUntil(value);
        case DELAY -> queue.delay((int) value);
        default -> queue.crawlLimit(value);
      }
    });
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
