package dev.sieve.bloom;

import dev.sieve.bloom.MembershipFilter.FilterFormat;
import dev.sieve.bloom.MembershipFilter.Layout;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * The serialized form of a {@link CuckooFilter}: the preamble, a header (hash id, n, f, buckets,
 * count), the table words and their CRC32C. Reading checks the header against what a table can
 * be and the count against the fingerprints the table holds.
 */
final class CuckooFormat {
  private static final int B = FilterSizing.CUCKOO_BUCKET_SIZE;

  private CuckooFormat() {}

  /** Writes the filter; the caller holds its lock, so the snapshot is exact. */
  static void write(CuckooFilter filter, DataOutputStream data) throws IOException {
    FilterFormat.writePreamble(data, Layout.CUCKOO);
    data.writeInt(BloomFilter.HASH_ID);
    data.writeLong(filter.expectedInsertions());
    data.writeInt(filter.fingerprintBits());
    data.writeLong(filter.bucketCount());
    data.writeLong(filter.count);
    FilterWords.write(data, filter.words);
  }

  /** Reads what follows the preamble of a cuckoo filter. */
  static CuckooFilter read(DataInputStream data) throws IOException {
    FilterFormat.readHashId(data);
    long expected = FilterFormat.readField(data, "expected insertions", DataInputStream::readLong);
    int f = FilterFormat.readField(data, "fingerprint bits", DataInputStream::readInt);
    long buckets = FilterFormat.readField(data, "bucket count", DataInputStream::readLong);
    long count = FilterFormat.readField(data, "fingerprint count", DataInputStream::readLong);
    boolean fits =
        f >= 1
            && f <= FilterSizing.MAX_FINGERPRINT_BITS
            && buckets > 0
            && Long.bitCount(buckets) == 1
            && buckets <= FilterWords.MAX_WORDS * Long.SIZE / ((long) B * f);
    if (!fits || expected <= 0 || count < 0 || count > buckets * B) {
      throw new IOException(
          "corrupt cuckoo filter header: n=" + expected + ", f=" + f + ", buckets=" + buckets
              + ", count=" + count);
    }
    CuckooFilter filter = new CuckooFilter(f, buckets, expected);
    FilterWords.read(data, filter.words, "cuckoo filter");
    long stored = 0;
    for (long slot = 0; slot < buckets * B; slot++) {
      if (filter.slot(slot) != 0) {
        stored++;
      }
    }
    if (stored != count) {
      throw new IOException(
          "corrupt cuckoo filter: header says " + count + " fingerprints, the table holds "
              + stored);
    }
    filter.count = count;
    return filter;
  }
}
