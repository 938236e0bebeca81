package dev.sieve.serve;

import dev.sieve.frontier.redis.SharedSieve;

/**
 * The Lua scripts of the Redis store ({@link RedisStore}, {@link RedisCrawl}), each one atomic
 * step. Times are the service's clock (epoch seconds, passed in), so every node must keep its
 * clock in sync (NTP), as leases and refetch dates are compared across nodes.
 *
 * <p>Keys: {@code serve:crawls} (the set of crawl namespaces), {@code serve:crawl:NS} (a crawl:
 * its {@code gen}eration and {@code id}), {@code serve:generations}, {@code serve:service}
 * (active, delay), {@code serve:nodes} (node address by heartbeat expiry). A crawl generation's
 * keys start with {@code P = serve:NS:GEN:}: {@code queues} (queue keys by turn), {@code seq},
 * {@code salt}, {@code stats} (its counters), and per queue K: {@code q:K} (salt, completed,
 * blocked, delay, limit, last), {@code w:K} (waiting URLs by due time), {@code l:K} (leased URLs by
 * lease end), {@code d:K} (the due time of leased URLs), {@code m:K} (metadata, Base64). Its Sieve
 * is the {@link SharedSieve} {@code serve.NS.GEN}.
 *
 * <p>Crawl scripts take KEYS[1] = the crawl's key and ARGV = P, GEN, …; they answer {-2} when the
 * crawl is no longer of that generation (deleted meanwhile) and change nothing.
 */
final class RedisServeScripts {
  private RedisServeScripts() {}

  private static final String CRAWL = """
      local P = ARGV[1]
      if redis.call('HGET', KEYS[1], 'gen') ~= ARGV[2] then return {-2} end
      local QUEUES = P .. 'queues'
      local function qk(k) return P .. 'q:' .. k end
      local function wk(k) return P .. 'w:' .. k end
      local function lk(k) return P .. 'l:' .. k end
      local function dk(k) return P .. 'd:' .. k end
      local function mk(k) return P .. 'm:' .. k end
      local function candidates(key)
        if key == '' then return redis.call('ZRANGE', QUEUES, 0, -1) end
        if redis.call('EXISTS', qk(key)) == 1 then return {key} end
        return {}
      end
      """;

  /** Creates the crawl of ARGV[1] = NS, ARGV[2] = ID unless it exists; returns its generation. */
  static final String CREATE = """
      local g = redis.call('HGET', KEYS[1], 'gen')
      if not g then
        g = tostring(redis.call('INCR', 'serve:generations'))
        redis.call('HSET', KEYS[1], 'gen', g, 'id', ARGV[2])
        redis.call('SADD', 'serve:crawls', ARGV[1])
      end
      return g
      """;

  /**
   * Deletes the crawl of ARGV[1] = NS with every queue: returns {pending URLs, generation}, or
   * {-1} when there is none.
   */
  static final String DELETE_CRAWL = """
      local g = redis.call('HGET', KEYS[1], 'gen')
      if not g then return {-1} end
      local P = 'serve:' .. ARGV[1] .. ':' .. g .. ':'
      local n = 0
      for _, k in ipairs(redis.call('ZRANGE', P .. 'queues', 0, -1)) do
        n = n + redis.call('ZCARD', P .. 'w:' .. k) + redis.call('ZCARD', P .. 'l:' .. k)
        redis.call('UNLINK', P .. 'q:' .. k, P .. 'w:' .. k, P .. 'l:' .. k, P .. 'd:' .. k,
          P .. 'm:' .. k)
      end
      redis.call('UNLINK', P .. 'queues', P .. 'seq', P .. 'salt', P .. 'stats')
      redis.call('DEL', KEYS[1])
      redis.call('SREM', 'serve:crawls', ARGV[1])
      return {n, g}
      """;

  /** The IDs of the crawls that have queues. */
  static final String IDS = """
      local out = {}
      for _, ns in ipairs(redis.call('SMEMBERS', 'serve:crawls')) do
        local f = redis.call('HMGET', 'serve:crawl:' .. ns, 'gen', 'id')
        if f[1] and redis.call('ZCARD', 'serve:' .. ns .. ':' .. f[1] .. ':queues') > 0 then
          out[#out + 1] = f[2]
        end
      end
      return out
      """;

  /**
   * The salt of queue ARGV[3], creating the queue (last in turn) when ARGV[4] = 1; {0} when there
   * is no such queue.
   */
  static final String QUEUE = CRAWL + """
      local q = qk(ARGV[3])
      local salt = redis.call('HGET', q, 'salt')
      if not salt then
        if ARGV[4] ~= '1' then return {0} end
        salt = tostring(redis.call('INCR', P .. 'salt'))
        redis.call('HSET', q, 'salt', salt)
        redis.call('ZADD', QUEUES, 'NX', redis.call('INCR', P .. 'seq'), ARGV[3])
      end
      return {1, salt}
      """;

  /**
   * One PutURLs item. ARGV = P, GEN, key, url, discovered (1/0), refetch date, now, metadata ('':
   * none), the queue's salt as the caller hashed the URL with, then the filter's arguments. {-3}
   * when the queue's salt is another (deleted and created again), else the {@link PutResult}
   * ordinal and the filter's counts.
   */
  static final String PUT = CRAWL + SharedSieve.LUA + """
      local key = ARGV[3]
      local url = ARGV[4]
      if redis.call('HGET', qk(key), 'salt') ~= ARGV[9] then return {-3} end
      local ok, layers, i = sieve_begin(1, 10)
      if not ok then return {-1} end
      local W, L, D, M = wk(key), lk(key), dk(key), mk(key)
      local function metadata()
        if ARGV[8] == '' then
          redis.call('HDEL', M, url)
        else
          redis.call('HSET', M, url, ARGV[8])
        end
      end
      local result
      if ARGV[5] == '1' then
        if sieve_url(1, layers, i, 'set') then
          result = 1
        else
          redis.call('ZADD', W, ARGV[7], url)
          metadata()
          result = 0
        end
      else
        local waiting = redis.call('ZSCORE', W, url)
        local leased = redis.call('ZSCORE', L, url)
        local fresh = false
        if not (waiting or leased) then fresh = not sieve_url(1, layers, i, 'set') end
        if leased then
          redis.call('ZREM', L, url)
          redis.call('HDEL', D, url)
        end
        if ARGV[6] == '0' then
          if waiting or leased then
            redis.call('ZREM', W, url)
            redis.call('HDEL', M, url)
          end
          if waiting or leased or fresh then redis.call('HINCRBY', qk(key), 'completed', 1) end
          result = 3
        else
          redis.call('ZADD', W, ARGV[6], url)
          metadata()
          result = 2
        end
      end
      local names = {'put.discovered.created', 'put.discovered.seen', 'put.known.scheduled',
        'put.known.completed'}
      redis.call('HINCRBY', P .. 'stats', names[result + 1], 1)
      local out = {result}
      sieve_counts(1, out)
      return out
      """;

  /**
   * GetURLStatus. ARGV = P, GEN, key, url, salt, then the filter's arguments. {-3} as PUT; {-4,
   * due, metadata} when pending; else 2 (the filter says seen) or 0, and the filter's counts.
   */
  static final String STATUS = CRAWL + SharedSieve.LUA + """
      local key = ARGV[3]
      local url = ARGV[4]
      if redis.call('HGET', qk(key), 'salt') ~= ARGV[5] then return {-3} end
      local due = redis.call('ZSCORE', wk(key), url)
      if not due and redis.call('ZSCORE', lk(key), url) then
        due = redis.call('HGET', dk(key), url)
      end
      if due then return {-4, due, redis.call('HGET', mk(key), url)} end
      local ok, layers, i = sieve_begin(1, 6)
      if not ok then return {-1} end
      local out = {sieve_url(1, layers, i, 'has') and 2 or 0}
      sieve_counts(1, out)
      return out
      """;

  /** Returns the leases ended at or before {@code now} to the waiting URLs, due as they were. */
  private static final String RELEASE_FN = """
      local function release(k, now)
        for _, u in ipairs(redis.call('ZRANGEBYSCORE', lk(k), '-inf', now)) do
          redis.call('ZADD', wk(k), redis.call('HGET', dk(k), u), u)
          redis.call('ZREM', lk(k), u)
          redis.call('HDEL', dk(k), u)
        end
      end
      """;

  /**
   * GetURLs from one crawl, as {@link CrawlSpace#take}. ARGV = P, GEN, key ('' for all), max per
   * queue, max queues, max URLs, now, lease end, default delay. Returns the queues that produced,
   * then key, URL, due, metadata per URL leased.
   */
  static final String TAKE = CRAWL + RELEASE_FN + """
      local maxPerQueue = tonumber(ARGV[4])
      local maxQueues, maxUrls = tonumber(ARGV[5]), tonumber(ARGV[6])
      local now = tonumber(ARGV[7])
      local out = {0}
      local produced = {}
      local n = 0
      for _, k in ipairs(candidates(ARGV[3])) do
        if #produced >= maxQueues or n >= maxUrls then break end
        local f = redis.call('HMGET', qk(k), 'blocked', 'limit', 'completed', 'delay', 'last')
        local limit = tonumber(f[2] or '0')
        local delay = tonumber(f[4] or '-1')
        if delay < 0 then delay = tonumber(ARGV[9]) end
        local last = tonumber(f[5] or '0')
        if now >= tonumber(f[1] or '0') and not (limit > 0 and tonumber(f[3] or '0') >= limit)
            and not (last ~= 0 and now < last + delay) then
          release(k, now)
          if redis.call('ZCARD', lk(k)) < maxPerQueue then
            local due = redis.call('ZRANGEBYSCORE', wk(k), '-inf', now, 'WITHSCORES', 'LIMIT', 0,
              math.min(maxPerQueue, maxUrls - n))
            for j = 1, #due, 2 do
              local u = due[j]
              redis.call('ZREM', wk(k), u)
              redis.call('ZADD', lk(k), ARGV[8], u)
              redis.call('HSET', dk(k), u, due[j + 1])
              out[#out + 1] = k
              out[#out + 1] = u
              out[#out + 1] = due[j + 1]
              out[#out + 1] = redis.call('HGET', mk(k), u)
              n = n + 1
            end
            if #due > 0 then
              redis.call('HSET', qk(k), 'last', now)
              produced[#produced + 1] = k
            end
          end
        end
      end
      for _, k in ipairs(produced) do
        redis.call('ZADD', QUEUES, redis.call('INCR', P .. 'seq'), k)
      end
      out[1] = #produced
      if n > 0 then redis.call('HINCRBY', P .. 'stats', 'get.leased', n) end
      return out
      """;

  /**
   * Totals, as {@link QueueStats}. ARGV = P, GEN, key ('' for all), now. Returns size, in flight,
   * queues, active queues, completed.
   */
  static final String STATS = CRAWL + """
      local size, flying, queues, active, completed = 0, 0, 0, 0, 0
      for _, k in ipairs(candidates(ARGV[3])) do
        local pending = redis.call('ZCARD', wk(k)) + redis.call('ZCARD', lk(k))
        size = size + pending
        flying = flying + redis.call('ZCOUNT', lk(k), '(' .. ARGV[4], '+inf')
        queues = queues + 1
        if pending > 0 then active = active + 1 end
        completed = completed + tonumber(redis.call('HGET', qk(k), 'completed') or '0')
      end
      return {size, flying, queues, active, completed}
      """;

  /** DeleteQueue: ARGV = P, GEN, key. Returns the URLs pending in it, or -1 if there was none. */
  static final String DELETE_QUEUE = CRAWL + """
      local k = ARGV[3]
      if redis.call('EXISTS', qk(k)) == 0 then return {-1} end
      local n = redis.call('ZCARD', wk(k)) + redis.call('ZCARD', lk(k))
      redis.call('UNLINK', qk(k), wk(k), lk(k), dk(k), mk(k))
      redis.call('ZREM', QUEUES, k)
      return {n}
      """;

  /** A queue control: ARGV = P, GEN, key, field, value. Returns 1, or 0 if there is no queue. */
  static final String CONTROL = CRAWL + """
      if redis.call('EXISTS', qk(ARGV[3])) == 0 then return {0} end
      redis.call('HSET', qk(ARGV[3]), ARGV[4], ARGV[5])
      return {1}
      """;

  /**
   * Queue keys: ARGV = P, GEN, include inactive (1/0), now. All, or those with URLs pending and
   * not blocked.
   */
  static final String QUEUE_KEYS = CRAWL + """
      local out = {}
      for _, k in ipairs(redis.call('ZRANGE', QUEUES, 0, -1)) do
        if ARGV[3] == '1' or (redis.call('ZCARD', wk(k)) + redis.call('ZCARD', lk(k)) > 0
            and tonumber(ARGV[4]) >= tonumber(redis.call('HGET', qk(k), 'blocked') or '0')) then
          out[#out + 1] = k
        end
      end
      return out
      """;

  /**
   * ListURLs and CountURLs: ARGV = P, GEN, key ('' for all), text ('' for all), ignore case (1/0),
   * start, size, count only (1/0). Returns the count, or key, URL, due, metadata per URL listed.
   */
  static final String LIST = CRAWL + """
      local text = ARGV[4]
      local ignoreCase = ARGV[5] == '1'
      if ignoreCase then text = string.lower(text) end
      local start, size, countOnly = tonumber(ARGV[6]), tonumber(ARGV[7]), ARGV[8] == '1'
      local position = 0
      local out = {}
      local function matches(u)
        if text == '' then return true end
        if ignoreCase then u = string.lower(u) end
        return string.find(u, text, 1, true) ~= nil
      end
      local function visit(k, u, due)
        if not countOnly and #out >= 4 * size then return false end
        if matches(u) then
          if not countOnly and position >= start then
            out[#out + 1] = k
            out[#out + 1] = u
            out[#out + 1] = due
            out[#out + 1] = redis.call('HGET', mk(k), u)
          end
          position = position + 1
        end
        return true
      end
      for _, k in ipairs(candidates(ARGV[3])) do
        local waiting = redis.call('ZRANGE', wk(k), 0, -1, 'WITHSCORES')
        for j = 1, #waiting, 2 do
          if not visit(k, waiting[j], waiting[j + 1]) then return out end
        end
        for _, u in ipairs(redis.call('ZRANGE', lk(k), 0, -1)) do
          if not visit(k, u, redis.call('HGET', dk(k), u)) then return out end
        end
      end
      if countOnly then return {position} end
      return out
      """;
}
