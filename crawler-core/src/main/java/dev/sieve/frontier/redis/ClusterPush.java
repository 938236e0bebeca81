package dev.sieve.frontier.redis;

import dev.sieve.bloom.Hash128;
import dev.sieve.frontier.redis.RedisConnection.Script;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * A push in Redis Cluster, where the filter segments ({@code sieve:{ID:seg:I}}) and the queues
 * ({@code sieve:{ID}:…}) lie in different slots and no script can touch both. The steps, in this
 * order, so that a process killed between any two of them loses no URL:
 *
 * <ol>
 *   <li><b>check</b> the older layers (read only, one call per segment, pipelined);
 *   <li><b>filter</b> in the newest layer: one script per segment sets the URLs' bits and, in the
 *       same atomic step, records those it found new as the push's <em>intent</em> ({@code
 *       …:intents}, under a push id, with Redis's time);
 *   <li><b>queue</b> the new URLs (one script in the queue slot);
 *   <li><b>clear</b> the intents.
 * </ol>
 *
 * <p>An intent older than the lease duration belongs to a process that died (or stalled) between
 * steps 2 and 4: {@link #recover} (run by every process while it waits for work, and before any
 * process concludes the crawl is over) queues its URLs, marks the push id recovered, counts them
 * ({@code recovered}) and clears it. A stalled process that comes back finds its push recovered and
 * queues nothing for it (its URLs counted {@code late}). A process killed after step 3 but before step 4 had its
 * URLs queued already: the recovery queues them again, so the {@code recovered} count bounds the
 * duplicates this order can cause; nothing is ever lost. Thread-safe.
 */
final class ClusterPush {
  private final RedisConnection connection;
  private final SeenBitmaps bitmaps;
  private final SharedSettings settings;
  private final String prefix;
  private final String statsKey;
  private final Runnable afterFilterStep;
  private final String processId = Long.toHexString(ThreadLocalRandom.current().nextLong());
  private final AtomicLong pushIds = new AtomicLong();
  private final Script check = RedisScripts.CHECK;
  private final Script filter = RedisScripts.FILTER;
  private final Script enqueue = RedisScripts.ENQUEUE;

  ClusterPush(RedisConnection connection, SeenBitmaps bitmaps, SharedSettings settings,
      String prefix, Runnable afterFilterStep) {
    this.connection = connection;
    this.bitmaps = bitmaps;
    this.settings = settings;
    this.prefix = prefix;
    this.statsKey = prefix + "stats";
    this.afterFilterStep = afterFilterStep;
  }

  /** One segment's URLs in one step: their indices, the script's keys and arguments. */
  private record Call(FilterLayer layer, int segment, List<Integer> members, List<String> keys,
      List<String> args) {}

  /** Pushes the URLs in the four steps; returns how many this call queued. */
  int offer(Hash128[] hashes, String[] hosts, String[] entries) {
    String pushId = processId + ":" + pushIds.incrementAndGet();
    List<Integer> todo = new ArrayList<>();
    for (int i = 0; i < hashes.length; i++) {
      todo.add(i);
    }
    Map<String, List<Integer>> fresh = new LinkedHashMap<>();
    for (int attempt = 0; !todo.isEmpty(); attempt++) {
      if (attempt == SeenBitmaps.MAX_ATTEMPTS) {
        throw new IllegalStateException("the seen filter kept growing under "
            + SeenBitmaps.MAX_ATTEMPTS + " pushes in a row");
      }
      List<FilterLayer> layers = bitmaps.layers();
      List<Integer> unseen = checkOlder(layers, hashes, todo);
      todo = filterNewest(layers, pushId, hashes, hosts, entries, unseen, fresh);
      if (!todo.isEmpty()) {
        bitmaps.onSealed(layers);
      }
    }
    if (fresh.isEmpty()) {
      return 0;
    }
    afterFilterStep.run();
    List<String> args = new ArrayList<>(List.of(prefix, Long.toString(settings.maxUrlsPerHost()),
        Integer.toString(settings.maxInFlightPerHost()), "push", "0", "0"));
    fresh.forEach((intentKey, members) -> {
      args.add(pushId + "@" + intentKey);
      args.add(Integer.toString(members.size()));
      for (int i : members) {
        args.add(hosts[i]);
        args.add(entries[i]);
      }
    });
    List<?> out = (List<?>) connection.eval(enqueue, List.of(statsKey), args);
    try (AbstractPipeline pipeline = connection.pipelined()) {
      fresh.keySet().forEach(key -> pipeline.hdel(key, pushId));
      pipeline.sync();
    }
    return (int) out.stream().filter(flag -> RedisConnection.asLong(flag) == 1).count();
  }

  /** Step 1: the URLs of {@code todo} that no older layer holds. */
  private List<Integer> checkOlder(List<FilterLayer> layers, Hash128[] hashes, List<Integer> todo) {
    List<Integer> unseen = new ArrayList<>(todo);
    for (int l = 0; l < layers.size() - 1 && !unseen.isEmpty(); l++) {
      FilterLayer layer = layers.get(l);
      List<Call> calls = group(layer, hashes, unseen, (i, offsets) -> offsets,
          segment -> List.of(layer.segmentKey(segment)), segment -> List.of());
      List<List<?>> results = run(check, calls);
      List<Integer> next = new ArrayList<>();
      for (int c = 0; c < calls.size(); c++) {
        List<Integer> members = calls.get(c).members();
        for (int m = 0; m < members.size(); m++) {
          if (RedisConnection.asLong(results.get(c).get(m)) == 0) {
            next.add(members.get(m));
          }
        }
      }
      unseen = next;
    }
    return unseen;
  }

  /**
   * Step 2: sets the URLs' bits in the newest layer, recording the new ones as the push's intent,
   * and in {@code fresh} by intent key; returns those of sealed segments.
   */
  private List<Integer> filterNewest(List<FilterLayer> layers, String pushId, Hash128[] hashes,
      String[] hosts, String[] entries, List<Integer> unseen, Map<String, List<Integer>> fresh) {
    FilterLayer newest = layers.get(layers.size() - 1);
    List<Call> calls = group(newest, hashes, unseen, (i, offsets) -> {
      List<String> record = new ArrayList<>(List.of(hosts[i], entries[i]));
      record.addAll(offsets);
      return record;
    }, segment -> List.of(newest.segmentKey(segment), newest.countKey(segment),
        newest.sealKey(segment), newest.intentsKey(segment)),
        segment -> List.of(pushId, Long.toString(settings.grow() ? newest.sealAt(segment) : -1)));
    List<List<?>> results = run(filter, calls);
    List<Integer> sealed = new ArrayList<>();
    for (int c = 0; c < calls.size(); c++) {
      Call call = calls.get(c);
      List<?> out = results.get(c);
      if (RedisConnection.asLong(out.get(0)) < 0) {
        sealed.addAll(call.members());
        continue;
      }
      for (int m = 0; m < call.members().size(); m++) {
        if (RedisConnection.asLong(out.get(m)) == 1) {
          fresh.computeIfAbsent(newest.intentsKey(call.segment()), k -> new ArrayList<>())
              .add(call.members().get(m));
        }
      }
      newest.noteCount(call.segment(), RedisConnection.asLong(out.get(call.members().size())));
    }
    return sealed;
  }

  private interface Record {
    List<String> of(int url, List<String> offsets);
  }

  private interface Keys {
    List<String> of(int segment);
  }

  /** Groups the URLs by their segment in {@code layer}: args = k, the segment's head, records. */
  private static List<Call> group(FilterLayer layer, Hash128[] hashes, List<Integer> urls,
      Record record, Keys keys, Keys head) {
    Map<Integer, Call> calls = new LinkedHashMap<>();
    int[] positions = new int[layer.hashes];
    for (int i : urls) {
      String[] offsets = new String[layer.hashes];
      int segment = layer.locate(hashes[i], offsets, positions);
      Call call = calls.computeIfAbsent(segment, s -> {
        List<String> args = new ArrayList<>();
        args.add(Integer.toString(layer.hashes));
        args.addAll(head.of(s));
        return new Call(layer, s, new ArrayList<>(), keys.of(s), args);
      });
      call.members().add(i);
      call.args().addAll(record.of(i, Arrays.asList(offsets)));
    }
    return new ArrayList<>(calls.values());
  }

  /** Runs {@code script} once per call, pipelined (by SHA, by source where a node lacks it). */
  private List<List<?>> run(Script script, List<Call> calls) {
    List<Response<Object>> responses = new ArrayList<>(calls.size());
    try (AbstractPipeline pipeline = connection.pipelined()) {
      for (Call call : calls) {
        responses.add(pipeline.evalsha(script.sha, call.keys(), call.args()));
      }
      pipeline.sync();
    }
    List<List<?>> results = new ArrayList<>(calls.size());
    for (int c = 0; c < calls.size(); c++) {
      Object out;
      try {
        out = responses.get(c).get();
      } catch (JedisDataException e) {
        if (e.getMessage() == null || !e.getMessage().startsWith("NOSCRIPT")) {
          throw e;
        }
        // Not run: the node had no cached script, so run it now with its source.
        out = connection.redis.eval(script.source, calls.get(c).keys(), calls.get(c).args());
      }
      results.add((List<?>) out);
    }
    return results;
  }

  /**
   * Queues the URLs of every intent older than {@code staleMs} (its process died between the
   * filter and the queue step, or stalled) and clears it.
   *
   * @return the intents found, recovered or not: 0 means no push is between its steps
   */
  int recover(long staleMs) {
    List<String> keys = new ArrayList<>();
    for (FilterLayer layer : bitmaps.layers()) {
      for (int s = 0; s < layer.segments; s++) {
        keys.add(layer.intentsKey(s));
      }
    }
    List<Response<Map<String, String>>> found = new ArrayList<>(keys.size());
    try (AbstractPipeline pipeline = connection.pipelined()) {
      keys.forEach(key -> found.add(pipeline.hgetAll(key)));
      pipeline.sync();
    }
    int intents = 0;
    for (int k = 0; k < keys.size(); k++) {
      for (Map.Entry<String, String> intent : found.get(k).get().entrySet()) {
        intents++;
        String[] parts = intent.getValue().split("\n", -1);
        List<String> args = new ArrayList<>(List.of(prefix,
            Long.toString(settings.maxUrlsPerHost()),
            Integer.toString(settings.maxInFlightPerHost()), "recover", parts[0],
            Long.toString(staleMs), intent.getKey() + "@" + keys.get(k),
            Integer.toString((parts.length - 1) / 2)));
        args.addAll(Arrays.asList(parts).subList(1, parts.length));
        List<?> out = (List<?>) connection.eval(enqueue, List.of(statsKey), args);
        if (out.isEmpty() || RedisConnection.asLong(out.get(0)) != -2) {
          connection.redis.hdel(keys.get(k), intent.getKey());
        }
      }
    }
    return intents;
  }
}
