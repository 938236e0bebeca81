package dev.sieve.testing;

import com.google.common.io.BaseEncoding;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.netpreserve.jwarc.HttpResponse;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;

/**
 * A WARC file read to its end with jwarc, each record kept with its whole block, so tests can
 * look at headers, HTTP messages and digests after the reader is closed.
 */
public final class ReadWarc {
  private ReadWarc() {}

  /** One record: its WARC headers (through {@link #record}), offset and block bytes. */
  public record Read(WarcRecord record, long offset, byte[] block) {
    public String type() {
      return record.type();
    }

    /** The SHA-1 of the block, base32, to compare with {@code WARC-Block-Digest}. */
    public String blockSha1() {
      return sha1(block);
    }

    /** The HTTP response head in the block (of a response or revisit record). */
    public HttpResponse http() {
      try {
        return HttpResponse.parseWithoutBody(
            Channels.newChannel(new ByteArrayInputStream(block, 0, headLength())),
            Channels.newChannel(OutputStream.nullOutputStream()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** The HTTP body in the block as stored: de-chunked, content-encoding kept. */
    public byte[] payload() {
      return Arrays.copyOfRange(block, headLength(), block.length);
    }

    /** The length of the HTTP head, through its empty line. */
    private int headLength() {
      for (int i = 0; i + 3 < block.length; i++) {
        if (block[i] == '\r' && block[i + 1] == '\n' && block[i + 2] == '\r' && block[i + 3] == '\n') {
          return i + 4;
        }
      }
      throw new IllegalStateException("no end of HTTP head in the block");
    }

    /** A WARC header's first value. */
    public Optional<String> header(String name) {
      return record.headers().first(name);
    }
  }

  /** Every record of {@code file}, in order; fails if the file does not read to its end. */
  public static List<Read> records(Path file) throws IOException {
    List<Read> records = new ArrayList<>();
    try (WarcReader reader = new WarcReader(file)) {
      reader.onWarning(warning -> {
        throw new IllegalStateException(file + ": " + warning);
      });
      for (WarcRecord record = reader.next().orElse(null); record != null;
          record = reader.next().orElse(null)) {
        long offset = reader.position();
        byte[] block = record.body().stream().readAllBytes();
        records.add(new Read(record, offset, block));
      }
    }
    return records;
  }

  public static String sha1(byte[] bytes) {
    try {
      return BaseEncoding.base32().encode(MessageDigest.getInstance("SHA-1").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
