package dev.sieve.frontier.redis;

import dev.sieve.frontier.queue.PutResult;
import dev.sieve.frontier.queue.UrlPut;
import static dev.sieve.frontier.redis.RedisConnection.asLong;
import static dev.sieve.frontier.redis.RedisConnection.asString;

import dev.sieve.frontier.redis.RedisConnection.Script;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One shard of a crawl generation in Redis: some of its queues and their Sieve, every key in one
 * slot ({@code serve:{serve.NS.GEN.S}:…}, see {@link RedisScripts}), so that each change is
 * one script, atomic in Redis Cluster too. A script answering that the shard was dropped (the crawl
 * deleted, on any node) makes {@link #gone} true and the call answer null. Thread-safe.
 */
final class RedisShard {
  /** The answer of a script whose shard was dropped. */
  private static final long GONE = -2;
  /** The answer of the status script given a queue's old salt. */
  private static final long OTHER_SALT = -3;
  /** A put item's answer when its queue's salt is another: not applied, put it again. */
  private static final int PUT_OTHER_SALT = 6;
  /** A put item's answer when the Sieve filled up before it: not applied, put it again. */
  private static final int PUT_SIEVE_FULL = 7;
  private static final int MAX_ATTEMPTS = 100;
  /** Queues one script removes when a deleted crawl's shard is dropped. */
  static final int DROP_CHUNK = 1000;

  private final RedisConnection redis;
  private final String prefix;
  private final List<String> tombstone;
  final SharedSieve sieve;
  /** Queue key to its salt, as last read; a script answering that it is another drops it. */
  private final Map<String, String> salts = new ConcurrentHashMap<>();
  volatile boolean gone;

  RedisShard(RedisConnection redis, String sieveId, SharedSieve sieve) {
    this.redis = redis;
    this.prefix = "serve:{" + sieveId + "}:";
    this.tombstone = List.of(prefix + "gone");
    this.sieve = sieve;
  }

  /**
   * Applies {@code items} (all of queues of this shard) in order, each checked against the Sieve
   * in the same script: one script call per attempt, another only for items whose queue was
   * deleted and created again meanwhile, or that came after a Sieve segment filled up (the next
   * call finds it sealed and grows the filter first).
   *
   * @param queueBudget the URLs (pending and completed) a queue may hold before its discovered
   *     URLs never seen are refused ({@link PutResult#OVER_BUDGET}); 0 for no budget
   * @param results filled at the items' positions {@code at}; left null when the shard is gone
   */
  void put(List<? extends UrlPut> items, List<Integer> at, long queueBudget, long now,
      PutResult[] results) {
    String budget = Long.toString(Math.max(0, queueBudget));
    List<Integer> todo = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      todo.add(i);
    }
    for (int attempt = 0; !todo.isEmpty(); attempt++) {
      if (attempt == MAX_ATTEMPTS) {
        throw new IllegalStateException("queue '" + items.get(todo.get(0)).key()
            + "' kept being deleted and created again under the put of "
            + items.get(todo.get(0)).url());
      }
      if (!learnSalts(items, todo)) {
        return;
      }
      PutCall call = new PutCall(items, todo, budget, now);
      List<?> out = withFilter("put URLs", RedisScripts.STORE_PUT, call.texts, call);
      if (out == null) {
        return;
      }
      todo = call.answer(out, at, results);
    }
    sieve.checkCapacity();
  }

  /**
   * One put script call over items {@code todo}: a discovered URL the Sieve read found seen is
   * left out (the script counts it per queue, once it found the queue's salt unchanged).
   */
  private final class PutCall implements FilterRequest {
    final List<String> texts;
    private final List<? extends UrlPut> items;
    private final List<Integer> todo;
    private final String now;
    private final String budget;
    /** The batch's queues in order, the salt their URLs were hashed with, each one's place. */
    private final List<String> keys = new ArrayList<>();
    private final List<String> keySalts = new ArrayList<>();
    private final Map<String, Integer> placeOf = new HashMap<>();
    private boolean[] seen;
    /** The items the call sends to the script, whose answers come first. */
    private int sent;

    PutCall(List<? extends UrlPut> items, List<Integer> todo, String budget, long now) {
      this.items = items;
      this.todo = todo;
      this.budget = budget;
      this.now = Long.toString(now);
      this.texts = new ArrayList<>(todo.size());
      for (int i : todo) {
        UrlPut item = items.get(i);
        Integer place = placeOf.get(item.key());
        if (place == null) {
          place = keys.size();
          placeOf.put(item.key(), place);
          keys.add(item.key());
          // Another thread may have dropped it since learnSalts: "" matches no salt in Redis.
          keySalts.add(salts.getOrDefault(item.key(), ""));
        }
        texts.add(keySalts.get(place) + " " + item.url());
      }
    }

    @Override
    public List<String> header(boolean[] seen) {
      this.seen = seen;
      sent = 0;
      int[] seenIn = new int[keys.size()];
      for (int j = 0; j < todo.size(); j++) {
        if (sends(j, seen[j])) {
          sent++;
        } else {
          seenIn[placeOf.get(items.get(todo.get(j)).key())]++;
        }
      }
      List<String> header = new ArrayList<>(4 + 3 * keys.size());
      header.add(prefix);
      header.add(now);
      header.add(budget);
      header.add(Integer.toString(keys.size()));
      for (int k = 0; k < keys.size(); k++) {
        header.add(keys.get(k));
        header.add(keySalts.get(k));
        header.add(Integer.toString(seenIn[k]));
      }
      return header;
    }

    @Override
    public boolean sends(int j, boolean seen) {
      return !(seen && items.get(todo.get(j)).discovered());
    }

    @Override
    public List<String> payload(int j) {
      UrlPut item = items.get(todo.get(j));
      return List.of(item.key(), item.url(),
          item.discovered() ? "d" : Long.toString(item.refetchFrom()),
          item.metadata() == null ? "" : Base64.getEncoder().encodeToString(item.metadata()));
    }

    /** Fills the items' results from the script's answer; the items to put again. */
    List<Integer> answer(List<?> out, List<Integer> at, PutResult[] results) {
      Set<String> otherSalt = new HashSet<>();
      for (int r = sent; r < out.size(); r++) {
        otherSalt.add(keys.get((int) asLong(out.get(r)) - 1));
      }
      List<Integer> again = new ArrayList<>();
      int r = 0;
      for (int j = 0; j < todo.size(); j++) {
        int i = todo.get(j);
        int code = sends(j, seen[j]) ? (int) asLong(out.get(r++)) : -1;
        if (code == PUT_OTHER_SALT || otherSalt.contains(items.get(i).key())) {
          salts.remove(items.get(i).key());
          again.add(i);
        } else if (code == PUT_SIEVE_FULL) {
          again.add(i);
        } else {
          results[at.get(i)] = code == -1 ? PutResult.SEEN : PutResult.values()[code];
        }
      }
      return again;
    }
  }

  /**
   * The URL's due date and metadata when pending (as {@code {-4, due, metadata}}), {@code {2}}
   * when the Sieve says it was seen, {@code {0}} when unknown; null when the shard is gone.
   */
  List<?> status(String key, String url) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      String salt = salt(key);
      if (salt == null) {
        return List.of(0L);
      }
      List<?> out = withFilter("read the status of " + url, RedisScripts.STORE_STATUS,
          List.of(salt + " " + url), FilterRequest.of(List.of(prefix, key, url, salt),
              List.of(List.of())));
      if (out == null) {
        return null;
      }
      if (asLong(out.get(0)) != OTHER_SALT) {
        return out;
      }
      salts.remove(key);
    }
    return List.of(0L);
  }

  /** Runs a script over this shard's Sieve; its answer, or null when the shard is gone. */
  private List<?> withFilter(String what, Script script, List<String> texts,
      FilterRequest request) {
    List<?> out = redis.command(what, r -> sieve.run(script, tombstone, texts, request));
    if (out.size() == 1 && asLong(out.get(0)) == GONE) {
      gone = true;
      return null;
    }
    return out;
  }

  /**
   * Reads (creating the queues) the salts of the items' queues not known yet, in one call; false
   * when the shard is gone.
   */
  private boolean learnSalts(List<? extends UrlPut> items, List<Integer> todo) {
    Set<String> unknown = new LinkedHashSet<>();
    for (int i : todo) {
      String key = items.get(i).key();
      if (!salts.containsKey(key)) {
        unknown.add(key);
      }
    }
    return unknown.isEmpty() || readSalts(new ArrayList<>(unknown), true);
  }

  /** Reads the salts of queues {@code keys} into the cache; false when the shard is gone. */
  private boolean readSalts(List<String> keys, boolean create) {
    List<String> args = new ArrayList<>(keys.size() + 1);
    args.add(create ? "1" : "0");
    args.addAll(keys);
    List<?> out = call("create queues", RedisScripts.STORE_QUEUE, args.toArray(new String[0]));
    if (out == null) {
      return false;
    }
    for (int j = 0; j < keys.size(); j++) {
      String salt = asString(out.get(j));
      if (!salt.isEmpty()) {
        salts.put(keys.get(j), salt);
      }
    }
    return true;
  }

  /** The salt of queue {@code key}, if it exists; null if none, or gone. */
  private String salt(String key) {
    if (!salts.containsKey(key) && !readSalts(List.of(key), false)) {
      return null;
    }
    return salts.get(key);
  }

  /** Whether queue {@code key} exists (as this node last read it, else as Redis says). */
  boolean hasQueue(String key) {
    return salt(key) != null;
  }

  /** Whether this node read queue {@code key}'s salt: it existed then. */
  boolean metQueue(String key) {
    return salts.containsKey(key);
  }

  /** The queues of this shard. */
  long queueCount() {
    return redis.command("count queues", r -> r.zcard(prefix + "queues"));
  }

  /** Removes queue {@code key}: the URLs that were pending in it, -1 if there was none. */
  long deleteQueue(String key) {
    List<?> out = call("delete queue " + key, RedisScripts.STORE_DELETE_QUEUE, key);
    salts.remove(key);
    return out == null ? -1 : asLong(out.get(0));
  }

  /**
   * Drops the shard of a deleted crawl, {@link #DROP_CHUNK} queues per script so that Redis answers
   * other clients in between (its tombstone is set by the first): the URLs that were pending in it.
   */
  long drop() {
    long pending = 0;
    List<?> out;
    do {
      out = call("delete a crawl's queues", RedisScripts.STORE_DROP_SHARD,
          Integer.toString(DROP_CHUNK));
      pending += asLong(out.get(0));
    } while (asLong(out.get(1)) == 0);
    sieve.delete();
    gone = true;
    return pending;
  }

  /** This shard's counters by name. */
  Map<String, String> counters() {
    return redis.command("read a crawl's counters", r -> r.hgetAll(prefix + "stats"));
  }

  /** Runs a script of this shard without the Sieve; null when the shard is gone. */
  List<?> call(String what, Script script, String... args) {
    List<String> all = new ArrayList<>(args.length + 1);
    all.add(prefix);
    all.addAll(List.of(args));
    List<?> out = (List<?>) redis.run(what, script, tombstone, all);
    if (out.size() == 1 && out.get(0) instanceof Long code && code == GONE) {
      gone = true;
      return null;
    }
    return out;
  }
}
