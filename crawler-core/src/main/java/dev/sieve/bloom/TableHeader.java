package dev.sieve.bloom;

import dev.sieve.bloom.MembershipFilter.FilterFormat;
import dev.sieve.bloom.MembershipFilter.Layout;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * The header of the filters that are one word table probed k times (classic, blocked, counting),
 * written after the preamble and the hash id: the table's size (bits, blocks or counters), k, the
 * expected insertions n, and the count X of set bits or non-zero counters, which the reader checks
 * against the words that follow.
 */
record TableHeader(long size, int hashes, long expected, long setCount) {
  /**
   * How one layout names and bounds its header, e.g. the blocked filter: "blocked Bloom filter",
   * size "b" ("block count") of at most MAX_BLOCKS blocks of 512 bits, X "set-bit count" ("bits
   * set"), k at most 64.
   */
  record Format(Layout layout, String what, String sizeName, String sizeField, String countField,
      String counted, long maxSize, int maxHashes, long bitsPerUnit) {
    /** Writes the preamble, the hash id, {@code header} and {@code words} with their CRC32C. */
    void write(OutputStream out, TableHeader header, long[] words) throws IOException {
      DataOutputStream data = new DataOutputStream(out);
      FilterFormat.writePreamble(data, layout);
      data.writeInt(BloomFilter.HASH_ID);
      data.writeLong(header.size);
      data.writeInt(header.hashes);
      data.writeLong(header.expected);
      data.writeLong(header.setCount);
      FilterWords.write(data, words);
      data.flush();
    }

    /**
     * Reads what follows the preamble: the filter {@code create} makes for the header, its
     * {@code words} filled and checked to hold X as {@code count} counts.
     *
     * @throws IOException if the stream ends early, the hash is not this build's, a field is out
     *     of bounds ("corrupt WHAT header: b=…, k=…, n=…, X=…"), the checksum fails, or the words
     *     do not hold X ("corrupt WHAT: header says X COUNTED, the words hold …")
     */
    <F> F read(DataInputStream data, Function<TableHeader, F> create, Function<F, long[]> words,
        ToLongFunction<long[]> count) throws IOException {
      TableHeader header = readHeader(data);
      F filter = create.apply(header);
      long[] table = words.apply(filter);
      FilterWords.read(data, table, what);
      long actual = count.applyAsLong(table);
      if (actual != header.setCount) {
        throw new IOException(
            "corrupt " + what + ": header says " + header.setCount + " " + counted
                + ", the words hold " + actual);
      }
      return filter;
    }

    private TableHeader readHeader(DataInputStream data) throws IOException {
      FilterFormat.readHashId(data);
      long size = FilterFormat.readField(data, sizeField, DataInputStream::readLong);
      int hashes = FilterFormat.readField(data, "hash count", DataInputStream::readInt);
      long expected = FilterFormat.readField(data, "expected insertions", DataInputStream::readLong);
      long setCount = FilterFormat.readField(data, countField, DataInputStream::readLong);
      if (size <= 0 || size > maxSize || hashes < 1 || hashes > maxHashes || expected <= 0
          || setCount < 0 || setCount > size * bitsPerUnit) {
        throw new IOException(
            "corrupt " + what + " header: " + sizeName + "=" + size + ", k=" + hashes + ", n="
                + expected + ", X=" + setCount);
      }
      return new TableHeader(size, hashes, expected, setCount);
    }
  }
}
