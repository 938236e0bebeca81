package dev.sieve.frontier.redis;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.Hash128;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The keys and arguments of one script call that checks URLs against every layer of a seen filter
 * (the script includes {@code lib-sieve.lua}). KEYS: the caller's {@code lead} keys, then one
 * (segment, counter, seal) triple per segment the URLs touch. ARGV: the caller's header, the layer
 * count, the newest layer's triples with their seal-at counts, then per URL the caller's payload
 * and, per layer oldest first, its triple, the first and last byte of its 512-bit block in the
 * segment (so the script passes Redis strings, not numbers it would format) and its k bit positions
 * in the block, two characters each ({@code '0' + position / 8}, the bit's byte in the block, and
 * {@code '0' + position % 8}, its place in that byte): four arguments per layer, however many
 * bits. After the call, {@link #noteCounts} records the set-bit counts the script returned.
 */
final class FilterCall {
  /** The bytes of a block, which holds all of a URL's bits in one layer. */
  private static final int BLOCK_BYTES = BlockedBloomFilter.BLOCK_BITS / Byte.SIZE;
  final List<String> keys = new ArrayList<>();
  final List<String> args = new ArrayList<>();
  private final List<FilterLayer> tripleLayer = new ArrayList<>();
  private final List<Integer> tripleSegment = new ArrayList<>();

  /**
   * @param grow whether full segments of the newest layer are sealed (the filter grows)
   * @param payloads per URL, the arguments the script reads before its filter arguments
   */
  FilterCall(List<FilterLayer> layers, boolean grow, List<String> lead, List<String> header,
      Hash128[] hashes, List<List<String>> payloads) {
    keys.addAll(lead);
    Map<Long, Integer> tripleOf = new LinkedHashMap<>();
    Map<Integer, Long> newest = new LinkedHashMap<>();
    List<String> urlArgs = new ArrayList<>();
    int[][] positions = new int[layers.size()][];
    for (int l = 0; l < layers.size(); l++) {
      positions[l] = new int[layers.get(l).hashes];
    }
    for (int i = 0; i < hashes.length; i++) {
      urlArgs.addAll(payloads.get(i));
      for (int l = 0; l < layers.size(); l++) {
        FilterLayer layer = layers.get(l);
        long block = layer.locateBlock(hashes[i], positions[l]);
        int segment = (int) (block >>> 32);
        Integer triple = tripleOf.get(((long) l << 32) | segment);
        if (triple == null) {
          triple = tripleOf.size() + 1;
          tripleOf.put(((long) l << 32) | segment, triple);
          tripleLayer.add(layer);
          tripleSegment.add(segment);
          keys.add(layer.segmentKey(segment));
          keys.add(layer.countKey(segment));
          keys.add(layer.sealKey(segment));
        }
        if (l == layers.size() - 1) {
          newest.put(triple, grow ? layer.sealAt(segment) : -1);
        }
        urlArgs.add(Integer.toString(triple));
        long at = block & 0xFFFF_FFFFL;
        urlArgs.add(Long.toString(at));
        urlArgs.add(Long.toString(at + BLOCK_BYTES - 1));
        urlArgs.add(packed(positions[l], layer.hashes));
      }
    }
    args.addAll(header);
    args.add(Integer.toString(layers.size()));
    args.add(Integer.toString(newest.size()));
    newest.forEach((t, sealAt) -> {
      args.add(Integer.toString(t));
      args.add(Long.toString(sealAt));
    });
    args.addAll(urlArgs);
  }

  /**
   * The first {@code k} positions, each in [0, 512), as two characters from {@code '0'}: the
   * position's byte, then its bit in the byte.
   */
  private static String packed(int[] positions, int k) {
    char[] text = new char[2 * k];
    for (int j = 0; j < k; j++) {
      text[2 * j] = (char) ('0' + (positions[j] >>> 3));
      text[2 * j + 1] = (char) ('0' + (positions[j] & 7));
    }
    return new String(text);
  }

  /** Records each triple's set-bit count, which the script returned from {@code out[from]} on. */
  void noteCounts(List<?> out, int from) {
    for (int t = 0; t < tripleLayer.size(); t++) {
      tripleLayer.get(t).noteCount(tripleSegment.get(t),
          RedisConnection.asLong(out.get(from + t)));
    }
  }
}
