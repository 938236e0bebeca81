package dev.sieve.fetch;

import com.google.common.io.BaseEncoding;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-1 digests in base32, the form of WARC's digest fields. */
public final class Sha1 {
  private Sha1() {}

  /** The SHA-1 of the bytes remaining in {@code bytes}, base32 without a prefix. */
  public static String base32(ByteBuffer bytes) {
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      sha1.update(bytes);
      return encode(sha1.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every JVM has SHA-1", e);
    }
  }

  /** A digest in base32 without a prefix, as {@link #base32} gives it. */
  public static String encode(byte[] digest) {
    return BaseEncoding.base32().encode(digest);
  }
}
