package dev.sieve.bloom;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;

/**
 * An approximate set: it answers "definitely not present" or "might be present". Every member of
 * the family (the classic {@link BloomFilter} and its variants) keeps this contract: no false
 * negatives for keys put (and, where supported, not removed), and a false-positive rate bounded
 * as the implementation documents.
 *
 * <p>Keys are hashed once to a {@link Hash128}; compute it once and pass it to every call.
 * Implementations are thread-safe unless they say otherwise.
 */
public interface MembershipFilter {
  /**
   * Adds the key with this hash.
   *
   * @return true if the key was definitely absent before this call; false if it might have been
   *     present already
   */
  boolean put(Hash128 hash);

  /** Adds {@code key}; see {@link #put(Hash128)}. */
  default boolean put(CharSequence key) {
    return put(Hash128.of(key));
  }

  /** True if the key with this hash might have been put; false if it definitely was not. */
  boolean mightContain(Hash128 hash);

  /** True if {@code key} might have been put; false if it definitely was not. */
  default boolean mightContain(CharSequence key) {
    return mightContain(Hash128.of(key));
  }

  /**
   * A hint that the keys with these hashes are about to be put or queried, so that a filter whose
   * probes of a key touch one place in memory can start those loads now and a batch's cache
   * misses overlap instead of following each other. Changes nothing; the default does nothing.
   */
  default void prefetch(Hash128[] hashes, int count) {}

  /**
   * Puts every key of {@code batch}, in order, as {@link #put(Hash128)} would one by one, and
   * stores each answer in {@code isNew}; a filter whose probes of a key touch one place in memory
   * first starts the loads of the whole batch, so that their cache misses overlap. The default
   * puts one by one.
   *
   * @param isNew at least {@code batch.size()} long
   * @return how many keys were definitely absent before
   */
  default int putAll(HashBatch batch, boolean[] isNew) {
    int added = 0;
    for (int i = 0; i < batch.size(); i++) {
      isNew[i] = put(batch.get(i));
      added += isNew[i] ? 1 : 0;
    }
    return added;
  }

  /**
   * Asks {@link #mightContain(Hash128)} for every key of {@code batch} and stores each answer in
   * {@code present}, overlapping the cache misses as {@link #putAll} does.
   *
   * @param present at least {@code batch.size()} long
   * @return how many keys might be present
   */
  default int mightContainAll(HashBatch batch, boolean[] present) {
    int found = 0;
    for (int i = 0; i < batch.size(); i++) {
      found += (present[i] = mightContain(batch.get(i))) ? 1 : 0;
    }
    return found;
  }

  /**
   * True if a key's check-and-set is atomic: when threads put one key at once, exactly one of them
   * is told it was absent. False (the default) where a caller that needs that must lock.
   */
  default boolean putIsExactlyOnce() {
    return false;
  }

  /** The estimated number of distinct keys put. */
  long approximateElementCount();

  /** The estimated probability, now, that a key never put is reported present. */
  double expectedFpp();

  /** The number of keys the filter was sized for. */
  long expectedInsertions();

  /** The memory the filter's table takes, in bits. */
  long bitSize();

  /** Writes the filter so that {@link #readFrom} restores one that answers the same. */
  void writeTo(OutputStream out) throws IOException;

  /**
   * Reads any filter of the family written by {@link #writeTo}.
   *
   * @throws IOException if the stream is not a Sieve filter, is of an unknown format version or
   *     layout, is truncated, or fails its checksum; the message says which
   */
  static MembershipFilter readFrom(InputStream in) throws IOException {
    DataInputStream data = new DataInputStream(in);
    Layout layout = FilterFormat.readPreamble(data);
    return switch (layout) {
      case CLASSIC -> BloomFilter.readBody(data);
      case BLOCKED -> BlockedBloomFilter.readBody(data);
      case SCALABLE -> ScalableBloomFilter.readBody(data);
      case COUNTING -> CountingBloomFilter.readBody(data);
      case CUCKOO -> CuckooFilter.readBody(data);
    };
  }

  /** The layouts of the family, as stored in the serialized form. */
  enum Layout {
    CLASSIC(1),
    BLOCKED(2),
    SCALABLE(3),
    COUNTING(4),
    CUCKOO(5);

    final int id;

    Layout(int id) {
      this.id = id;
    }
  }

  /** The serialized preamble shared by every layout: magic, format version, layout id. */
  final class FilterFormat {
    static final long MAGIC = 0x5349_4556_4542_4c4dL; // "SIEVEBLM"
    static final int VERSION = 1;

    private FilterFormat() {}

    static void writePreamble(java.io.DataOutputStream out, Layout layout) throws IOException {
      out.writeLong(MAGIC);
      out.writeInt(VERSION);
      out.writeInt(layout.id);
    }

    static Layout readPreamble(DataInputStream in) throws IOException {
      long magic = readField(in, "magic", DataInputStream::readLong);
      if (magic != MAGIC) {
        throw new IOException(
            String.format(Locale.ROOT, "not a Sieve filter: bad magic 0x%016x", magic));
      }
      int version = readField(in, "version", DataInputStream::readInt);
      if (version != VERSION) {
        throw new IOException(
            "unsupported filter format version " + version + " (this build reads " + VERSION
                + ")");
      }
      int id = readField(in, "layout", DataInputStream::readInt);
      for (Layout layout : Layout.values()) {
        if (layout.id == id) {
          return layout;
        }
      }
      throw new IOException("unknown filter layout " + id);
    }

    /**
     * Reads a filter of the family and refuses any but a {@code type}: "not a WHAT: " and the
     * filter read.
     */
    static <T extends MembershipFilter> T readAs(InputStream in, Class<T> type, String what)
        throws IOException {
      MembershipFilter filter = MembershipFilter.readFrom(in);
      if (!type.isInstance(filter)) {
        throw new IOException("not a " + what + ": " + filter);
      }
      return type.cast(filter);
    }

    /** Reads the hash id and refuses any but this build's {@link BloomFilter#HASH_ID}. */
    static int readHashId(DataInputStream in) throws IOException {
      int hashId = readField(in, "hash id", DataInputStream::readInt);
      if (hashId != BloomFilter.HASH_ID) {
        throw new IOException(
            "unsupported hash id " + hashId + " (this build uses " + BloomFilter.HASH_ID + ")");
      }
      return hashId;
    }

    interface Field<T> {
      T read(DataInputStream in) throws IOException;
    }

    /** Reads one field, turning a premature end into a message that names the field. */
    static <T> T readField(DataInputStream in, String name, Field<T> field) throws IOException {
      try {
        return field.read(in);
      } catch (EOFException e) {
        throw new IOException("truncated filter: stream ended before the " + name);
      }
    }
  }
}
