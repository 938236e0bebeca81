package dev.sieve.frontier.redis;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.Hash128;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;

/**
 * The keys and arguments of one script call that checks URLs against every layer of a seen filter
 * (the script includes {@code lib-sieve.lua}), after reading each URL's 512-bit block in every
 * layer in one pipeline. Bits are only ever set, so a URL whose bits that read found all set in a
 * layer is seen for good (the script would answer the same); for any other, the script is given
 * the newest layer's block as read and as it would be with the URL's bits, and writes the latter
 * when the block is unchanged (one string comparison in Redis, no bit touched in Lua). KEYS: the
 * caller's {@code lead} keys, then one (segment, counter, seal) triple per newest-layer segment the
 * URLs touch. ARGV: the caller's header, the newest layer's triples with their seal-at counts,
 * then per URL sent the caller's payload and five filter arguments ({@code lib-sieve.lua} says
 * which); the caller's {@link FilterRequest} chooses the header and the URLs sent once the blocks
 * are read. Within a call, a URL whose block an earlier URL of the call changes is given that
 * change as its block read, so the script's comparison holds when both are applied. After the
 * call, {@link #noteCounts} records the set-bit counts the script returned last.
 */
final class FilterCall {
  /** The bytes of a block, which holds all of a URL's bits in one layer. */
  private static final int BLOCK_BYTES = BlockedBloomFilter.BLOCK_BITS / Byte.SIZE;
  /** {@code tf} = TRIPLE_STEP · triple + bits added: more than a block's bits. */
  private static final int TRIPLE_STEP = 1024;
  private static final byte[] SEEN = {'0'};
  /** The filter arguments per URL. */
  private static final int ARGS = 5;
  final List<byte[]> keys = new ArrayList<>();
  final List<byte[]> args;
  private final List<FilterLayer> tripleLayer = new ArrayList<>();
  private final List<Integer> tripleSegment = new ArrayList<>();

  /**
   * Reads the URLs' blocks through {@code connection} and lays out the call.
   *
   * @param grow whether full segments of the newest layer are sealed (the filter grows)
   * @param request the header and the URLs sent, with their payloads (read before their filter
   *     arguments)
   * @throws redis.clients.jedis.exceptions.JedisException if Redis fails
   */
  FilterCall(RedisConnection connection, List<FilterLayer> layers, boolean grow,
      List<String> lead, Hash128[] hashes, FilterRequest request) {
    int n = hashes.length;
    int newest = layers.size() - 1;
    FilterLayer layer = layers.get(newest);
    long[][] blocks = new long[layers.size()][n];
    int[][][] positions = new int[layers.size()][n][];
    byte[][] from = new byte[n][];
    byte[][] to = new byte[n][];
    byte[][][] read = read(connection, layers, hashes, blocks, positions, from, to);
    lead.forEach(key -> keys.add(bytes(key)));
    Map<Integer, Integer> tripleOf = new LinkedHashMap<>();
    int[] triples = new int[n];
    boolean[] seen = new boolean[n];
    for (int i = 0; i < n; i++) {
      for (int l = 0; l <= newest && !seen[i]; l++) {
        seen[i] = holds(read[l][i], positions[l][i]);
      }
      if (!seen[i] && request.sends(i, false)) {
        int segment = (int) (blocks[newest][i] >>> 32);
        Integer triple = tripleOf.get(segment);
        if (triple == null) {
          triple = tripleOf.size() + 1;
          tripleOf.put(segment, triple);
          tripleLayer.add(layer);
          tripleSegment.add(segment);
          keys.add(bytes(layer.segmentKey(segment)));
          keys.add(bytes(layer.countKey(segment)));
          keys.add(bytes(layer.sealKey(segment)));
        }
        triples[i] = triple;
      }
    }
    List<String> header = request.header(seen);
    int payload = n == 0 ? 0 : request.payload(0).size();
    List<byte[]> args = new ArrayList<>(header.size() + 1 + 2 * tripleOf.size()
        + n * (payload + ARGS));
    header.forEach(text -> args.add(bytes(text)));
    args.add(bytes(Integer.toString(tripleOf.size())));
    for (int t = 0; t < tripleLayer.size(); t++) {
      args.add(bytes(Integer.toString(t + 1)));
      args.add(bytes(Long.toString(grow ? layer.sealAt(tripleSegment.get(t)) : -1)));
    }
    Map<Long, byte[]> changed = new HashMap<>(2 * n);
    for (int i = 0; i < n; i++) {
      if (!request.sends(i, seen[i])) {
        continue;
      }
      for (String text : request.payload(i)) {
        args.add(bytes(text));
      }
      if (triples[i] == 0) {
        for (int a = 0; a < ARGS; a++) {
          args.add(SEEN);
        }
        continue;
      }
      long block = blocks[newest][i];
      byte[] old = changed.getOrDefault(block, read[newest][i]);
      byte[] wanted = Arrays.copyOf(old, BLOCK_BYTES);
      int added = 0;
      for (int p : positions[newest][i]) {
        int mask = 0x80 >>> (p & 7);
        if ((wanted[p >>> 3] & mask) == 0) {
          wanted[p >>> 3] |= (byte) mask;
          added++;
        }
      }
      changed.put(block, wanted);
      args.add(bytes(Long.toString((long) TRIPLE_STEP * triples[i] + added)));
      args.add(from[i]);
      args.add(to[i]);
      args.add(old);
      args.add(wanted);
    }
    this.args = args;
  }

  /**
   * Reads every URL's block in every layer in one pipeline (a block past the end of its segment's
   * string reads short), noting each block's place and bit positions, and the newest layer's
   * first and last byte as text in {@code from} and {@code to}.
   */
  private static byte[][][] read(RedisConnection connection, List<FilterLayer> layers,
      Hash128[] hashes, long[][] blocks, int[][][] positions, byte[][] from, byte[][] to) {
    List<Response<byte[]>> replies = new ArrayList<>(layers.size() * hashes.length);
    try (AbstractPipeline pipeline = connection.pipelined()) {
      for (int l = 0; l < layers.size(); l++) {
        FilterLayer layer = layers.get(l);
        byte[][] segmentKeys = new byte[layer.segments][];
        for (int i = 0; i < hashes.length; i++) {
          positions[l][i] = new int[layer.hashes];
          long block = layer.locateBlock(hashes[i], positions[l][i]);
          blocks[l][i] = block;
          int segment = (int) (block >>> 32);
          if (segmentKeys[segment] == null) {
            segmentKeys[segment] = bytes(layer.segmentKey(segment));
          }
          long at = block & 0xFFFF_FFFFL;
          if (l == layers.size() - 1) {
            from[i] = bytes(Long.toString(at));
            to[i] = bytes(Long.toString(at + BLOCK_BYTES - 1));
          }
          replies.add(pipeline.getrange(segmentKeys[segment], at, at + BLOCK_BYTES - 1));
        }
      }
      pipeline.sync();
    }
    byte[][][] read = new byte[layers.size()][hashes.length][];
    for (int l = 0; l < layers.size(); l++) {
      for (int i = 0; i < hashes.length; i++) {
        read[l][i] = replies.get(l * hashes.length + i).get();
      }
    }
    return read;
  }

  /** Whether {@code block} (shorter: zeros past its end) has every bit of {@code positions}. */
  private static boolean holds(byte[] block, int[] positions) {
    for (int p : positions) {
      int b = p >>> 3;
      if (b >= block.length || (block[b] & (0x80 >>> (p & 7))) == 0) {
        return false;
      }
    }
    return true;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Records each triple's set-bit count, which the script returned last; the answer without
   * them.
   */
  List<?> noteCounts(List<?> out) {
    int from = out.size() - tripleLayer.size();
    for (int t = 0; t < tripleLayer.size(); t++) {
      tripleLayer.get(t).noteCount(tripleSegment.get(t),
          RedisConnection.asLong(out.get(from + t)));
    }
    return out.subList(0, from);
  }
}
