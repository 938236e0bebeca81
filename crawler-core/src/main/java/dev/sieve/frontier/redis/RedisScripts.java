package dev.sieve.frontier.redis;

/**
 * The Lua scripts of {@link RedisFrontier}, each run atomically by Redis (EVALSHA, EVAL when the
 * server has lost its script cache).
 *
 * <p>Queue scripts take the crawl's key prefix {@code sieve:{id}:} as ARGV[1] and its stats hash
 * as KEYS[1]; every key they touch starts with the prefix, so in Redis Cluster they all lie in the
 * slot of the hash tag {@code {id}}. Filter scripts touch one segment of a filter layer and its
 * set-bit counter, seal and intents, all tagged {@code {id:seg:i}} (layer 0) or {@code
 * {id:lL:seg:i}}. Times are Redis's own ({@code TIME}, epoch millis), so
 * every process schedules against one clock.
 *
 * <p>Keys under the prefix: {@code meta} (settings), {@code stats} (pending, leased, hosts,
 * droppedBudget, droppedSkipped, expired), {@code sched} (hosts that can be leased from, by the
 * time they may be), {@code h:HOST} (inflight, next, delay, admitted, skipped), {@code q:HOST}
 * (pending entries, oldest first), {@code leases} (lease ids by expiry), {@code lh}/{@code le}
 * (lease id to host and entry), {@code seq} (lease ids), {@code warn:I} (capacity thresholds
 * logged), {@code layers} (the filter's layers), {@code recovered} (push ids whose intents were
 * recovered, a day).
 */
final class RedisScripts {
  private RedisScripts() {}

  private static final String COMMON = """
      local P = ARGV[1]
      local S = KEYS[1]
      local SCHED = P .. 'sched'
      local LEASES = P .. 'leases'
      local LH = P .. 'lh'
      local LE = P .. 'le'
      local function now_ms()
        local t = redis.call('TIME')
        return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
      end
      local function hkey(h) return P .. 'h:' .. h end
      local function qkey(h) return P .. 'q:' .. h end
      local function schedule(h, maxInFlight)
        local f = redis.call('HMGET', hkey(h), 'inflight', 'next', 'skipped')
        local inflight = tonumber(f[1] or '0')
        local nxt = tonumber(f[2] or '0')
        if f[3] == '1' or inflight >= maxInFlight or redis.call('LLEN', qkey(h)) == 0 then
          redis.call('ZREM', SCHED, h)
        else
          redis.call('ZADD', SCHED, nxt, h)
        end
      end
      """;

  private static final String ENQUEUE_FN = """
      local function enqueue(h, entry, maxPerHost, maxInFlight)
        local hk = hkey(h)
        if redis.call('HSETNX', hk, 'admitted', 0) == 1 then
          redis.call('HINCRBY', S, 'hosts', 1)
        end
        if redis.call('HGET', hk, 'skipped') == '1' then
          redis.call('HINCRBY', S, 'droppedSkipped', 1)
          return 2
        end
        if tonumber(redis.call('HGET', hk, 'admitted')) >= maxPerHost then
          redis.call('HINCRBY', S, 'droppedBudget', 1)
          return 2
        end
        redis.call('HINCRBY', hk, 'admitted', 1)
        redis.call('RPUSH', qkey(h), entry)
        redis.call('HINCRBY', S, 'pending', 1)
        if not redis.call('ZSCORE', SCHED, h) then
          schedule(h, maxInFlight)
        end
        return 1
      end
      """;

  /** Sets a URL's k bits (offsets at ARGV[base..base+k-1]) in one BITFIELD; returns bits flipped. */
  private static final String ADMIT_FN = """
      local function admit(seg, cnt, k, args, base)
        local cmd = {'BITFIELD', seg}
        for j = 0, k - 1 do
          cmd[#cmd + 1] = 'SET'
          cmd[#cmd + 1] = 'u1'
          cmd[#cmd + 1] = args[base + j]
          cmd[#cmd + 1] = 1
        end
        local old = redis.call(unpack(cmd))
        local flipped = 0
        for j = 1, #old do
          if old[j] == 0 then flipped = flipped + 1 end
        end
        if flipped > 0 then redis.call('INCRBY', cnt, flipped) end
        return flipped
      end
      """;

  /** Whether all of a URL's k bits (offsets at ARGV[base..base+k-1]) are set, in one BITFIELD. */
  private static final String HAS_FN = """
      local function has(seg, k, args, base)
        local cmd = {'BITFIELD', seg}
        for j = 0, k - 1 do
          cmd[#cmd + 1] = 'GET'
          cmd[#cmd + 1] = 'u1'
          cmd[#cmd + 1] = args[base + j]
        end
        local bits = redis.call(unpack(cmd))
        for j = 1, #bits do
          if bits[j] == 0 then return false end
        end
        return true
      end
      """;

  /**
   * Older-layer check (Cluster): KEYS = segment; ARGV = k, then k offsets per URL. Returns 1 (the
   * layer holds it) or 0 per URL. Sets nothing.
   */
  static final String CHECK = HAS_FN + """
      local k = tonumber(ARGV[1])
      local out = {}
      for base = 2, #ARGV, k do
        out[#out + 1] = has(KEYS[1], k, ARGV, base) and 1 or 0
      end
      return out
      """;

  /**
   * Newest-layer filter step (Cluster): KEYS = segment, its counter, its seal, its intents; ARGV =
   * k, push id, seal-at (set bits; -1: never), then per URL: host, entry, k offsets. Sets nothing
   * and returns {-1} when the segment is sealed, or seals it when it holds seal-at bits. Otherwise returns 1 (new) or 0 (seen) per URL, then the
   * segment's set-bit count, and records the new URLs as the push's intent, {@code time\nhost\n
   * entry…}, in the intents hash under the push id, until the queue step has them.
   */
  static final String FILTER = ADMIT_FN + """
      if redis.call('EXISTS', KEYS[3]) == 1 then return {-1} end
      local sealAt = tonumber(ARGV[3])
      if sealAt >= 0 and tonumber(redis.call('GET', KEYS[2]) or '0') >= sealAt then
        redis.call('SET', KEYS[3], 1)
        return {-1}
      end
      local k = tonumber(ARGV[1])
      local out = {}
      local fresh = {}
      local i = 4
      while i <= #ARGV do
        if admit(KEYS[1], KEYS[2], k, ARGV, i + 2) > 0 then
          out[#out + 1] = 1
          fresh[#fresh + 1] = ARGV[i]
          fresh[#fresh + 1] = ARGV[i + 1]
        else
          out[#out + 1] = 0
        end
        i = i + 2 + k
      end
      if #fresh > 0 then
        local t = redis.call('TIME')
        local ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        redis.call('HSET', KEYS[4], ARGV[2], ms .. '\\n' .. table.concat(fresh, '\\n'))
      end
      out[#out + 1] = tonumber(redis.call('GET', KEYS[2]) or '0')
      return out
      """;

  /**
   * Queue step (Cluster), of a push or of the recovery of a dead one. ARGV = prefix, maxPerHost,
   * maxInFlight, mode (push | recover), intent time, staleMs, then groups (one per intent: its
   * marker {@code pushId@segmentKey}, its URL count c, then host, entry per URL). A recovery of an
   * intent younger than staleMs returns {-2} (its process may be alive), of one recovered already
   * {-1}; otherwise it marks the intent recovered (kept a day) and counts its URLs {@code
   * recovered}. A push skips the groups recovered already (their URLs counted {@code late}). Returns 1
   * (queued), 2 (dropped: host budget or skipped) or 3 (queued by a recovery before) per URL.
   */
  static final String ENQUEUE = COMMON + ENQUEUE_FN + """
      local maxPerHost = tonumber(ARGV[2])
      local maxInFlight = tonumber(ARGV[3])
      local recover = ARGV[4] == 'recover'
      local REC = P .. 'recovered'
      local now = now_ms()
      if recover then
        if now - tonumber(ARGV[5]) < tonumber(ARGV[6]) then return {-2} end
        redis.call('ZREMRANGEBYSCORE', REC, '-inf', now - 86400000)
        if redis.call('ZADD', REC, 'NX', now, ARGV[7]) == 0 then return {-1} end
        redis.call('HINCRBY', S, 'recovered', tonumber(ARGV[8]))
      end
      local out = {}
      local i = 7
      while i <= #ARGV do
        local c = tonumber(ARGV[i + 1])
        local late = (not recover) and redis.call('ZSCORE', REC, ARGV[i])
        if late then redis.call('HINCRBY', S, 'late', c) end
        for j = 0, c - 1 do
          if late then
            out[#out + 1] = 3
          else
            out[#out + 1] = enqueue(ARGV[i + 2 + 2 * j], ARGV[i + 3 + 2 * j], maxPerHost, maxInFlight)
          end
        end
        i = i + 2 + 2 * c
      end
      return out
      """;

  /**
   * Checks URLs against every layer of a seen filter, in scripts whose keys and arguments a {@link
   * FilterCall} built ({@code lead}: the number of the script's own keys before the triples).
   * {@code sieve_begin(lead, a)}, with the layer count at ARGV[a], returns false when a segment
   * of the newest layer is sealed (sealing it when it holds its seal-at bits: the script must then
   * change nothing and return {-1}), else true, the layer count and the index of the first URL's
   * arguments. {@code sieve_url(lead, layers, i, mode)} reads one URL's filter arguments from
   * ARGV[i] and returns whether it was seen and the index after them: mode 'set' sets its bits in
   * the newest layer (seen: an older layer holds it, or no bit was new), 'has' only reads, 'skip'
   * neither. {@code sieve_counts(lead, out)} appends each triple's set-bit count.
   */
  static final String SIEVE_FN = ADMIT_FN + HAS_FN + """
      local function sieve_begin(lead, a)
        local layers = tonumber(ARGV[a])
        local m = tonumber(ARGV[a + 1])
        for j = 1, m do
          local t = tonumber(ARGV[a + 2 * j])
          local seal = KEYS[lead + 3 * t]
          if redis.call('EXISTS', seal) == 1 then return false end
          local sealAt = tonumber(ARGV[a + 1 + 2 * j])
          if sealAt >= 0 and tonumber(redis.call('GET', KEYS[lead + 3 * t - 1]) or '0') >= sealAt then
            redis.call('SET', seal, 1)
            return false
          end
        end
        return true, layers, a + 2 + 2 * m
      end
      local function sieve_url(lead, layers, i, mode)
        local seen = false
        for l = 1, layers do
          local t = tonumber(ARGV[i])
          local k = tonumber(ARGV[i + 1])
          if mode ~= 'skip' and not seen then
            if l < layers or mode == 'has' then
              seen = has(KEYS[lead + 3 * t - 2], k, ARGV, i + 2)
            else
              seen = admit(KEYS[lead + 3 * t - 2], KEYS[lead + 3 * t - 1], k, ARGV, i + 2) == 0
            end
          end
          i = i + 2 + k
        end
        return seen, i
      end
      local function sieve_counts(lead, out)
        for t = 1, (#KEYS - lead) / 3 do
          out[#out + 1] = tonumber(redis.call('GET', KEYS[lead + 3 * t - 1]) or '0')
        end
      end
      """;

  /**
   * Filter and queue in one atomic step (a single server), laid out by a {@link FilterCall} with
   * KEYS[1] = stats, ARGV header = prefix, maxPerHost, maxInFlight and per URL host, entry.
   * Returns {-1} when the newest layer is sealed (see {@link #SIEVE_FN}), otherwise 0 (seen), 1
   * (queued) or 2 (new but dropped) per URL, then each triple's set-bit count.
   */
  static final String PUSH = COMMON + ENQUEUE_FN + SIEVE_FN + """
      local maxPerHost = tonumber(ARGV[2])
      local maxInFlight = tonumber(ARGV[3])
      local ok, layers, i = sieve_begin(1, 4)
      if not ok then return {-1} end
      local out = {}
      while i <= #ARGV do
        local h = ARGV[i]
        local e = ARGV[i + 1]
        local seen
        seen, i = sieve_url(1, layers, i + 2, 'set')
        if seen then
          out[#out + 1] = 0
        else
          out[#out + 1] = enqueue(h, e, maxPerHost, maxInFlight)
        end
      end
      sieve_counts(1, out)
      return out
      """;

  /**
   * Appends a filter layer unless another process did: KEYS = the layer list; ARGV = the layers
   * the caller saw, the new layer's descriptor. Returns the list.
   */
  static final String GROW = """
      if redis.call('LLEN', KEYS[1]) == tonumber(ARGV[1]) then
        redis.call('RPUSH', KEYS[1], ARGV[2])
      end
      return redis.call('LRANGE', KEYS[1], 0, -1)
      """;

  /**
   * Re-queues expired leases (first in their hosts), then leases from the host ready soonest.
   * ARGV = prefix, leaseMs, maxInFlight, defaultDelayMs. Returns {'lease', id, host, entry, now},
   * {'wait', ms} (ms = -1: no hint) or {'done'} when nothing is pending or leased.
   */
  static final String TAKE = COMMON + """
      local leaseMs = tonumber(ARGV[2])
      local maxInFlight = tonumber(ARGV[3])
      local now = now_ms()
      local expired = redis.call('ZRANGEBYSCORE', LEASES, '-inf', now, 'LIMIT', 0, 64)
      for _, id in ipairs(expired) do
        local h = redis.call('HGET', LH, id)
        local e = redis.call('HGET', LE, id)
        redis.call('ZREM', LEASES, id)
        redis.call('HDEL', LH, id)
        redis.call('HDEL', LE, id)
        redis.call('HINCRBY', S, 'leased', -1)
        redis.call('HINCRBY', S, 'expired', 1)
        if h then
          redis.call('HINCRBY', hkey(h), 'inflight', -1)
          if redis.call('HGET', hkey(h), 'skipped') == '1' then
            redis.call('HINCRBY', S, 'droppedSkipped', 1)
          else
            redis.call('LPUSH', qkey(h), e)
            redis.call('HINCRBY', S, 'pending', 1)
          end
          schedule(h, maxInFlight)
        end
      end
      local head = redis.call('ZRANGE', SCHED, 0, 0, 'WITHSCORES')
      local soonestExpiry = redis.call('ZRANGE', LEASES, 0, 0, 'WITHSCORES')
      local expiryWait = -1
      if #soonestExpiry > 0 then expiryWait = math.max(0, tonumber(soonestExpiry[2]) - now) end
      if #head == 0 then
        local st = redis.call('HMGET', S, 'pending', 'leased')
        if tonumber(st[1] or '0') <= 0 and tonumber(st[2] or '0') <= 0 then
          return {'done'}
        end
        return {'wait', expiryWait}
      end
      local h = head[1]
      local ready = tonumber(head[2])
      if ready > now then
        local wait = ready - now
        if expiryWait >= 0 and expiryWait < wait then wait = expiryWait end
        return {'wait', wait}
      end
      local e = redis.call('LPOP', qkey(h))
      if not e then
        redis.call('ZREM', SCHED, h)
        return {'wait', 0}
      end
      local hk = hkey(h)
      redis.call('HINCRBY', hk, 'inflight', 1)
      local delay = tonumber(redis.call('HGET', hk, 'delay') or ARGV[4])
      redis.call('HSET', hk, 'next', now + delay)
      schedule(h, maxInFlight)
      local id = tostring(redis.call('INCR', P .. 'seq'))
      redis.call('ZADD', LEASES, now + leaseMs, id)
      redis.call('HSET', LH, id, h)
      redis.call('HSET', LE, id, e)
      redis.call('HINCRBY', S, 'pending', -1)
      redis.call('HINCRBY', S, 'leased', 1)
      return {'lease', id, h, e, now}
      """;

  /**
   * Leases up to max pending URLs of one host now, whatever its schedule and in-flight limit.
   * ARGV = prefix, host, max, leaseMs, maxInFlight. Returns {id, entry, id, entry, ...}.
   */
  static final String TAKE_ALL = COMMON + """
      local h = ARGV[2]
      local max = tonumber(ARGV[3])
      local leaseMs = tonumber(ARGV[4])
      local q = qkey(h)
      if redis.call('LLEN', q) == 0 then return {} end
      local now = now_ms()
      local out = {}
      for i = 1, max do
        local e = redis.call('LPOP', q)
        if not e then break end
        local id = tostring(redis.call('INCR', P .. 'seq'))
        redis.call('ZADD', LEASES, now + leaseMs, id)
        redis.call('HSET', LH, id, h)
        redis.call('HSET', LE, id, e)
        redis.call('HINCRBY', hkey(h), 'inflight', 1)
        redis.call('HINCRBY', S, 'pending', -1)
        redis.call('HINCRBY', S, 'leased', 1)
        out[#out + 1] = id
        out[#out + 1] = e
      end
      schedule(h, tonumber(ARGV[5]))
      return out
      """;

  /**
   * Gives a lease back. ARGV = prefix, id, mode (complete | retry | back), maxInFlight,
   * defaultDelayMs, backoffMs, entry (queued first in its host for retry and back). Returns 1, or 0
   * when the lease had expired and was re-queued already.
   */
  static final String RELEASE = COMMON + """
      local id = ARGV[2]
      local mode = ARGV[3]
      local maxInFlight = tonumber(ARGV[4])
      local now = now_ms()
      local h = redis.call('HGET', LH, id)
      if not h then return 0 end
      redis.call('ZREM', LEASES, id)
      redis.call('HDEL', LH, id)
      redis.call('HDEL', LE, id)
      redis.call('HINCRBY', S, 'leased', -1)
      local hk = hkey(h)
      redis.call('HINCRBY', hk, 'inflight', -1)
      local delay = tonumber(redis.call('HGET', hk, 'delay') or ARGV[5])
      local nxt = tonumber(redis.call('HGET', hk, 'next') or '0')
      if mode == 'complete' then
        if maxInFlight == 1 then nxt = math.max(nxt, now + delay) end
      else
        local wait = delay
        if mode == 'retry' then wait = math.max(delay, tonumber(ARGV[6])) end
        nxt = math.max(nxt, now + wait)
        if redis.call('HGET', hk, 'skipped') == '1' then
          redis.call('HINCRBY', S, 'droppedSkipped', 1)
        else
          redis.call('LPUSH', qkey(h), ARGV[7])
          redis.call('HINCRBY', S, 'pending', 1)
        end
      end
      redis.call('HSET', hk, 'next', nxt)
      schedule(h, maxInFlight)
      return 1
      """;

  /**
   * Per-host settings. ARGV = prefix, op (delay | spacing | skip), host, value ms, maxInFlight,
   * defaultDelayMs. Returns the pending URLs dropped for skip, else 0.
   */
  static final String HOST = COMMON + """
      local op = ARGV[2]
      local h = ARGV[3]
      local value = tonumber(ARGV[4])
      local maxInFlight = tonumber(ARGV[5])
      local hk = hkey(h)
      if redis.call('HSETNX', hk, 'admitted', 0) == 1 then
        redis.call('HINCRBY', S, 'hosts', 1)
      end
      if op == 'delay' then
        local nxt = tonumber(redis.call('HGET', hk, 'next') or '0')
        redis.call('HSET', hk, 'next', math.max(nxt, now_ms() + value))
        schedule(h, maxInFlight)
        return 0
      elseif op == 'spacing' then
        redis.call('HSET', hk, 'delay', math.max(tonumber(ARGV[6]), value))
        return 0
      end
      redis.call('HSET', hk, 'skipped', 1)
      local n = redis.call('LLEN', qkey(h))
      redis.call('DEL', qkey(h))
      redis.call('ZREM', SCHED, h)
      redis.call('HINCRBY', S, 'pending', -n)
      redis.call('HINCRBY', S, 'droppedSkipped', n)
      return n
      """;

  /**
   * Creates the crawl's settings and its first filter layer, or returns the settings it was
   * created with. KEYS = meta, layer list; ARGV = layer 0's descriptor, then field, value pairs.
   * Returns {} when created, else the stored pairs.
   */
  static final String INIT = """
      if redis.call('EXISTS', KEYS[1]) == 1 then
        return redis.call('HGETALL', KEYS[1])
      end
      redis.call('HSET', KEYS[1], unpack(ARGV, 2))
      redis.call('DEL', KEYS[2])
      redis.call('RPUSH', KEYS[2], ARGV[1])
      return {}
      """;
}
