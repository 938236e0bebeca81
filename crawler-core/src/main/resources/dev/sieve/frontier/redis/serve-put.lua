-- A batch of PutURLs items of one shard, applied in order, checked against the shard's Sieve in
-- the same step (exactly-once admission). Laid out by a FilterCall with KEYS[1] = the tombstone,
-- ARGV header = P, now, the queue budget (0: none), the number of the batch's queues, then per
-- queue: its key, the salt the caller hashed its URLs with, and how many of its discovered URLs
-- the caller's read of the Sieve found seen and left out of the call (they count as seen here when
-- the salt holds); per item sent: key, url, 'd' (discovered) or its refetch date ('0': completed),
-- metadata ('': none), then its filter arguments. Returns {-1} when the Sieve's newest layer is
-- sealed (nothing changed), else per item the PutResult ordinal (0 created, 1 seen, 2 scheduled,
-- 3 completed, 4 over budget, 5 skipped), 6 when the queue's salt is another (deleted and created
-- again: the item was not applied) or 7 when a Sieve segment filled up before it (not applied: the
-- segment is sealed, the caller grows the filter and puts it again), then the place (1 = first) of
-- each queue whose salt was another (its items left out were not counted: the caller puts them
-- again), then the filter's counts. Each queue the batch changed is touched in ready once
-- (lib-serve-shard.lua).
-- A discovered URL the Sieve finds new is set in it, then refused (not stored) when its queue is
-- skipped (in SKIPPED, serve-skip.lua: 5) or, with a budget, already holds that many URLs,
-- pending (waiting or leased) and completed (q:K's completed: 4). Whether the batch's queues are
-- skipped is read with their salts; what a queue holds (with a budget only) once per batch, at
-- its first such URL, and kept as the batch changes it.
-- A URL stored anew is dated now (discovered: by its due time alone, see t:K in
-- lib-serve-shard.lua); a completed one goes to c:K, out of it when scheduled again.
--! include lib-serve-shard.lua
--! include lib-sieve.lua
local now = ARGV[2]
local nowTime = tonumber(now)
local budget = tonumber(ARGV[3])
local nkeys = tonumber(ARGV[4])
local ok, i = sieve_begin(1, 5 + 3 * nkeys)
if not ok then return {-1} end
local OTHER_SALT, FULL = 6, 7
local names = {'put.discovered.created', 'put.discovered.seen', 'put.known.scheduled',
  'put.known.completed', 'put.discovered.over_budget', 'put.discovered.skipped'}
local counts = {0, 0, 0, 0, 0, 0}
local out = {}
local full = false
-- Per queue changed, the soonest time the batch may have made it produce from.
local touched = {}
-- Whether each of the batch's queues has the salt the caller used, and whether it is skipped,
-- read with one HMGET and (while any queue of the shard is skipped) one SMISMEMBER per 1,000.
local salted = {}
local others = {}
local skipped = {}
local anySkipped = redis.call('SCARD', SKIPPED) > 0
for from = 1, nkeys, 1000 do
  local to = math.min(from + 999, nkeys)
  local keys = {}
  for j = from, to do keys[#keys + 1] = ARGV[2 + 3 * j] end
  local got = redis.call('HMGET', SALTS, unpack(keys))
  local skips = anySkipped and redis.call('SMISMEMBER', SKIPPED, unpack(keys)) or {}
  for j = from, to do
    if skips[j - from + 1] == 1 then skipped[ARGV[2 + 3 * j]] = true end
    if got[j - from + 1] == ARGV[3 + 3 * j] then
      salted[ARGV[2 + 3 * j]] = true
      counts[2] = counts[2] + tonumber(ARGV[4 + 3 * j])
    else
      others[#others + 1] = j
    end
  end
end
-- The queues a lease of which the batch ended: their 'released' is now, written once each.
local released = {}
local function changed(key, t)
  if not touched[key] or t < touched[key] then touched[key] = t end
end
-- Per queue read, the URLs it holds (pending and completed) as the batch goes: read at its first
-- discovered URL new under a budget; held(key, n) adds n to a queue read.
local holds = {}
local function held(key, n)
  if holds[key] then holds[key] = holds[key] + n end
end
local function holding(key)
  if not holds[key] then
    holds[key] = pending(key) + tonumber(redis.call('HGET', qk(key), 'completed') or '0')
  end
  return holds[key]
end
-- The batch's change to the kept totals (lib-serve-shard.lua): URLs pending and completed, the
-- queues that lost a pending URL, leases ended. A queue that gained one is in touched: it joins
-- ACTIVE if ready lacked it (a queue in ready has URLs pending, so it is in ACTIVE already).
local pendingDelta, completedDelta = 0, 0
local lost, ended = {}, {}
while i <= #ARGV do
  local key, url, refetch, meta = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  i = i + 4
  local result
  if full then
    local _
    _, i = sieve_url(1, i, 'skip')
    result = FULL
  elseif not salted[key] then
    local _
    _, i = sieve_url(1, i, 'skip')
    result = OTHER_SALT
  elseif refetch == 'd' then
    local seen
    seen, i = sieve_url(1, i, 'set')
    if seen then
      result = 1
    else
      if skipped[key] then
        result = 5
      elseif budget > 0 and holding(key) >= budget then
        result = 4
      else
        redis.call('ZADD', wk(key), now, url)
        if meta ~= '' then redis.call('HSET', mk(key), url, meta) end
        changed(key, nowTime)
        pendingDelta = pendingDelta + 1
        held(key, 1)
        result = 0
      end
    end
  else
    local W, L, D, M = wk(key), lk(key), dk(key), mk(key)
    local waiting = redis.call('ZSCORE', W, url)
    local leased = redis.call('ZSCORE', L, url)
    local fresh = false
    if waiting or leased then
      local _
      _, i = sieve_url(1, i, 'skip')
    else
      local seen
      seen, i = sieve_url(1, i, 'set')
      fresh = not seen
    end
    if leased then
      if refetch ~= '0' then
        local due = redis.call('HGET', D, url)
        if due then redis.call('HSETNX', tk(key), url, due) end
      end
      redis.call('ZREM', L, url)
      redis.call('HDEL', D, url)
      released[key] = true
      changed(key, nowTime)
      ended[leased] = (ended[leased] or 0) + 1
    end
    if refetch == '0' then
      if waiting or leased then
        redis.call('ZREM', W, url)
        redis.call('HDEL', M, url)
        redis.call('HDEL', tk(key), url)
      end
      redis.call('ZADD', ck(key), 'NX', now, url)
      if waiting or leased or fresh then
        redis.call('HINCRBY', qk(key), 'completed', 1)
        completedDelta = completedDelta + 1
        if not (waiting or leased) then held(key, 1) end
      end
      if waiting or leased then
        pendingDelta = pendingDelta - 1
        lost[key] = true
      end
      result = 3
    else
      if waiting then
        redis.call('HSETNX', tk(key), url, waiting)
      elseif not leased then
        redis.call('HSET', tk(key), url, now)
        redis.call('ZREM', ck(key), url)
        pendingDelta = pendingDelta + 1
        held(key, 1)
      end
      redis.call('ZADD', W, refetch, url)
      if meta == '' then redis.call('HDEL', M, url) else redis.call('HSET', M, url, meta) end
      changed(key, tonumber(refetch))
      result = 2
    end
  end
  if result < OTHER_SALT then
    counts[result + 1] = counts[result + 1] + 1
    if sieve_full then
      full = true
      sieve_seal(1)
    end
  end
  out[#out + 1] = result
end
for key in pairs(released) do redis.call('HSET', qk(key), 'released', now) end
activate(touch_all(touched))
if pendingDelta ~= 0 then redis.call('HINCRBY', TOTALS, 'pending', pendingDelta) end
if completedDelta ~= 0 then redis.call('HINCRBY', TOTALS, 'completed', completedDelta) end
deactivate_empty(lost)
leases_ended(ended)
for r = 1, #names do
  if counts[r] > 0 then redis.call('HINCRBY', P .. 'stats', names[r], counts[r]) end
end
for _, j in ipairs(others) do out[#out + 1] = j end
sieve_counts(1, out)
return out
