package dev.sieve.bloom;

import dev.sieve.bloom.MembershipFilter.FilterFormat;
import dev.sieve.bloom.MembershipFilter.Layout;
import dev.sieve.bloom.ScalableBloomFilter.Layer;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * The serialized form of a {@link ScalableBloomFilter}: the preamble, a header (hash id, n₀, ε, s,
 * r, layer count, layer layout, each layer's count) and its CRC32C, then each layer as its own
 * {@code writeTo} writes it.
 */
final class ScalableFormat {
  /** More layers than any filter that fits in memory can have: a header saying so is corrupt. */
  private static final int MAX_LAYERS = 4096;

  private ScalableFormat() {}

  /** Writes a filter of this plan and these layers. */
  static void write(LayerPlan plan, Layer[] layers, OutputStream out) throws IOException {
    long[] counts = new long[layers.length];
    for (int i = 0; i < layers.length; i++) {
      counts[i] = layers[i].count.get();
    }
    DataOutputStream data = new DataOutputStream(out);
    FilterFormat.writePreamble(data, Layout.SCALABLE);
    byte[] header = header(plan, counts);
    data.write(header);
    data.writeLong(checksum(header));
    for (Layer layer : layers) {
      layer.filter.writeTo(data);
    }
    data.flush();
  }

  /** The header bytes the checksum covers. */
  private static byte[] header(LayerPlan plan, long[] counts) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream header = new DataOutputStream(bytes);
    header.writeInt(BloomFilter.HASH_ID);
    header.writeLong(plan.initialCapacity());
    header.writeDouble(plan.falsePositiveRate());
    header.writeInt(plan.growth());
    header.writeDouble(plan.tighteningRatio());
    header.writeInt(counts.length);
    header.writeInt(plan.layout().id);
    for (long count : counts) {
      header.writeLong(count);
    }
    return bytes.toByteArray();
  }

  private static long checksum(byte[] header) {
    CRC32C crc = new CRC32C();
    crc.update(header);
    return crc.getValue();
  }

  /** Reads what follows the preamble of a scalable filter. */
  static ScalableBloomFilter read(DataInputStream data) throws IOException {
    FilterFormat.readHashId(data);
    long initial = FilterFormat.readField(data, "initial capacity", DataInputStream::readLong);
    double rate = FilterFormat.readField(data, "false-positive rate", DataInputStream::readDouble);
    int growth = FilterFormat.readField(data, "growth", DataInputStream::readInt);
    double ratio = FilterFormat.readField(data, "tightening ratio", DataInputStream::readDouble);
    int layerCount = FilterFormat.readField(data, "layer count", DataInputStream::readInt);
    int layerLayoutId = FilterFormat.readField(data, "layer layout", DataInputStream::readInt);
    boolean blocked = layerLayoutId == Layout.BLOCKED.id;
    if (!blocked && layerLayoutId != Layout.CLASSIC.id) {
      throw new IOException("corrupt scalable filter header: layer layout " + layerLayoutId);
    }
    if (initial <= 0 || !(rate > 0 && rate < 1) || growth < 2 || !(ratio > 0 && ratio < 1)
        || layerCount < 1 || layerCount > MAX_LAYERS) {
      throw new IOException(
          String.format(
              Locale.ROOT,
              "corrupt scalable filter header: n0=%d, ε=%s, s=%d, r=%s, layers=%d",
              initial,
              rate,
              growth,
              ratio,
              layerCount));
    }
    long[] counts = new long[layerCount];
    for (int i = 0; i < layerCount; i++) {
      counts[i] = FilterFormat.readField(data, "count of layer " + i, DataInputStream::readLong);
    }
    LayerPlan plan =
        new LayerPlan(initial, rate, growth, ratio, blocked ? Layout.BLOCKED : Layout.CLASSIC);
    long storedCrc = FilterFormat.readField(data, "header checksum", DataInputStream::readLong);
    if (storedCrc != checksum(header(plan, counts))) {
      throw new IOException("corrupt scalable filter: checksum mismatch in the header");
    }
    Layer[] layers = new Layer[layerCount];
    for (int i = 0; i < layerCount; i++) {
      layers[i] = readLayer(plan, data, i, counts[i]);
    }
    return new ScalableBloomFilter(plan, layers);
  }

  /** Reads layer {@code i} and checks it is the filter the plan calls for. */
  private static Layer readLayer(LayerPlan plan, DataInputStream data, int i, long count)
      throws IOException {
    long capacity = plan.capacity(i);
    if (count < 0 || count > capacity) {
      throw new IOException(
          "corrupt scalable filter: layer " + i + " holds " + count + " keys, more than its "
              + capacity);
    }
    MembershipFilter layer;
    try {
      Layout layout = FilterFormat.readPreamble(data);
      if (layout != plan.layout()) {
        throw new IOException("expected a " + plan.layout() + " layer, found " + layout);
      }
      layer =
          layout == Layout.BLOCKED
              ? BlockedBloomFilter.readBody(data)
              : BloomFilter.readBody(data);
    } catch (IOException e) {
      throw new IOException("scalable filter layer " + i + ": " + e.getMessage(), e);
    }
    long bits;
    try {
      bits = plan.bits(i);
    } catch (IllegalArgumentException e) {
      throw new IOException(
          "corrupt scalable filter: layer " + i + " cannot exist: " + e.getMessage());
    }
    if (layer.expectedInsertions() != capacity || layer.bitSize() != bits) {
      throw new IOException(
          "corrupt scalable filter: layer " + i + " is " + layer + ", its plan says n="
              + capacity + ", m=" + bits);
    }
    return new Layer(layer, capacity, count);
  }
}
