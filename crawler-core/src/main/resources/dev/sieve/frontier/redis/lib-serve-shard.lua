-- Library (serve): the prelude of a script over one shard of a serve crawl generation. KEYS[1] is
-- the shard's tombstone (P .. 'gone', set when the crawl was deleted), ARGV[1] its key prefix P
-- (lib-serve-keys.lua). Answers {-2} and changes nothing when the shard is gone. Per queue K: q:K
-- (salt, completed, blocked, delay, limit, last (its last production), released (when a lease of it
-- was last given back), skipped: '1' once serve-skip.lua skipped it), w:K (waiting URLs by due
-- time), l:K (leased URLs by lease end), d:K (the due time of leased URLs), m:K (metadata, Base64),
-- t:K (the creation date, the epoch second it was first stored, of each pending URL whose due time
-- is another: a URL missing from it was created at its due time, as a discovered URL is queued due
-- when stored and a put that moves a pending URL's due time writes the old one here first; see
-- created), c:K (completed URLs, by when they completed; a URL scheduled again leaves it); salts
-- (every queue's salt, as q:K holds it, so a put batch reads them all in one HMGET); skipped (the
-- set of the queues whose q:K is skipped, so a put batch reads them in one SMISMEMBER); queues
-- (queue keys by turn: the seq of their creation or last production), ready (queue keys by the time
-- they may next produce, see below), seq, salt, stats (counters), delay (the service's default
-- delay, as the last GetURLs was given it).
-- ready holds every queue that has URLs pending and is under its crawl limit, scored by when it may
-- produce: the latest of its block end, its last production plus its delay, and the soonest of its
-- earliest due URL and earliest lease end, in whole seconds, plus its turn as a fraction below 1/2
-- (queues ready in the same second come in turn). A score is never later than that time (a script
-- that changes a queue lowers it; GetURLs corrects a score that proved early, e.g. a queue with
-- max URLs in flight), so GetURLs reads only the queues it may lease from:
-- ZRANGEBYSCORE ready -inf (now+1. It holds no queue without URLs pending: one left with none
-- leaves it (and ACTIVE, lib-serve-keys.lua) in the script that emptied it.
--! include lib-serve-keys.lua
if redis.call('EXISTS', KEYS[1]) == 1 then return {-2} end
-- The creation date of pending URL u of queue k, due at due (a string).
local function created(k, u, due)
  return redis.call('HGET', tk(k), u) or due
end
local function candidates(key)
  if key == '' then return redis.call('ZRANGE', QUEUES, 0, -1) end
  if redis.call('EXISTS', qk(key)) == 1 then return {key} end
  return {}
end
-- Scores queue k in ready at time t (whole epoch milliseconds) in its turn: the milliseconds since
-- READY_EPOCH plus a fraction below one half in steps of 2^-15, which a double holds exactly while
-- the milliseconds stay under 2^37 (until 2030; later, neighbouring turns may tie and go by key).
-- Turns wrap every 16,384: a GetURLs call crossing a wrap may end early (it hands out the rest on
-- the next call), as it did at 524,288 when scores counted seconds.
local function ready_at(k, t)
  local turn = tonumber(redis.call('ZSCORE', QUEUES, k) or '0') % 16384
  redis.call('ZADD', READY, string.format('%.17g', t - READY_EPOCH + turn / 32768), k)
end
-- Sets queue k's score in ready from its state (out of ready when it cannot produce), with the
-- service's default delay defaultDelay (nil: as the last GetURLs was given it).
local function rescore(k, defaultDelay)
  local f = redis.call('HMGET', qk(k), 'blocked', 'limit', 'completed', 'delay', 'last')
  local limit = tonumber(f[2] or '0')
  if limit > 0 and tonumber(f[3] or '0') >= limit then
    redis.call('ZREM', READY, k)
    return
  end
  local w = redis.call('ZRANGE', wk(k), 0, 0, 'WITHSCORES')
  local l = redis.call('ZRANGE', lk(k), 0, 0, 'WITHSCORES')
  if #w == 0 and #l == 0 then
    redis.call('ZREM', READY, k)
    return
  end
  local t = math.min(tonumber(w[2] or l[2]), tonumber(l[2] or w[2]))
  t = math.max(t, tonumber(f[1] or '0'))
  local last = tonumber(f[5] or '0')
  if last ~= 0 then
    local delay = tonumber(f[4] or '-1')
    if delay < 0 then
      delay = tonumber(defaultDelay or redis.call('GET', P .. 'delay') or '0')
    end
    t = math.max(t, last + delay)
  end
  ready_at(k, t)
end
-- Counts leases that ended before their end (ends: lease end -> URLs whose lease it was), where
-- that end is still kept.
local function leases_ended(ends)
  for e, n in pairs(ends) do
    if redis.call('ZSCORE', LEASE_ENDS, e) then redis.call('HINCRBY', LEASES, e, -n) end
  end
end
-- Adds the queues of list keys to ACTIVE, one SADD per 1,000.
local function activate(keys)
  for from = 1, #keys, 1000 do
    redis.call('SADD', ACTIVE, unpack(keys, from, math.min(from + 999, #keys)))
  end
end
-- Takes the queues of set keys (key -> true) that have no URL pending out of ACTIVE, and out of
-- ready (which so holds active queues only: a put adds to ACTIVE only the queues ready lacks).
local function deactivate_empty(keys)
  for k in pairs(keys) do
    if pending(k) == 0 then
      redis.call('SREM', ACTIVE, k)
      redis.call('ZREM', READY, k)
    end
  end
end
-- After changes that may make queues produce sooner (touched: queue key -> the time t it may from):
-- rescores each one unless ready holds it at t or earlier, reading their scores in ready with one
-- ZMSCORE per 1,000 queues. Returns those that were not in ready.
local function touch_all(touched)
  local keys, times, absent = {}, {}, {}
  for k, t in pairs(touched) do
    keys[#keys + 1] = k
    times[#times + 1] = t
  end
  for from = 1, #keys, 1000 do
    local to = math.min(from + 999, #keys)
    local scores = redis.call('ZMSCORE', READY, unpack(keys, from, to))
    for j = from, to do
      local s = scores[j - from + 1]
      if not s then absent[#absent + 1] = keys[j] end
      if not s or math.floor(tonumber(s)) > times[j] - READY_EPOCH then rescore(keys[j]) end
    end
  end
  return absent
end
-- Drops the pending URLs, waiting or leased, of queue k first stored before cutoff (their creation
-- date, see created; nil: every one), adding the lease ends of those leased to ends (lease end ->
-- URLs); with ends nil, the waiting ones only. Returns how many; the caller keeps the totals and
-- scores k anew.
local function drop_pending(k, cutoff, ends)
  local W, L, D = wk(k), lk(k), dk(k)
  local dropped = 0
  local function drop(z, u, due)
    if cutoff == nil or tonumber(created(k, u, due) or '0') < cutoff then
      redis.call('ZREM', z, u)
      redis.call('HDEL', D, u)
      redis.call('HDEL', mk(k), u)
      redis.call('HDEL', tk(k), u)
      dropped = dropped + 1
      return true
    end
    return false
  end
  local waiting = redis.call('ZRANGE', W, 0, -1, 'WITHSCORES')
  for j = 1, #waiting, 2 do drop(W, waiting[j], waiting[j + 1]) end
  if ends == nil then return dropped end
  local leases = redis.call('ZRANGE', L, 0, -1, 'WITHSCORES')
  for j = 1, #leases, 2 do
    local u, e = leases[j], leases[j + 1]
    if drop(L, u, redis.call('HGET', D, u)) then ends[e] = (ends[e] or 0) + 1 end
  end
  return dropped
end
