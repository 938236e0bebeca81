-- A batch of PutURLs items of one shard, applied in order, checked against the shard's Sieve in
-- the same step (exactly-once admission). Laid out by a FilterCall with KEYS[1] = the tombstone,
-- ARGV header = P, now; per item: key, url, discovered (1/0), refetch date, metadata ('': none),
-- the queue's salt the caller hashed the URL with, then its filter arguments. Returns {-1} when
-- the Sieve's newest layer is sealed (nothing changed), else per item the PutResult ordinal (0
-- created, 1 seen, 2 scheduled, 3 completed), 4 when the queue's salt is another (deleted and
-- created again: the item was not applied) or 5 when a Sieve segment filled up before it (not
-- applied: the segment is sealed, the caller grows the filter and puts it again), then the
-- filter's counts. Each queue the batch changed is touched in ready once (lib-serve-shard.lua).
-- A URL stored anew is dated now (discovered: by its due time alone, see t:K in
-- lib-serve-shard.lua); a completed one goes to c:K, out of it when scheduled again.
--! include lib-serve-shard.lua
--! include lib-sieve.lua
local now = ARGV[2]
local nowTime = tonumber(now)
local ok, layers, i = sieve_begin(1, 3)
if not ok then return {-1} end
local names = {'put.discovered.created', 'put.discovered.seen', 'put.known.scheduled',
  'put.known.completed'}
local counts = {0, 0, 0, 0}
local out = {}
local full = false
-- Per queue changed, the soonest time the batch may have made it produce from.
local touched = {}
-- The salts of the batch's queues (false: none), read with one HMGET per 1,000 queues.
local salts = {}
local keys = {}
for j = i, #ARGV, 6 + SIEVE_ARGS * layers do
  local key = ARGV[j]
  if salts[key] == nil then
    salts[key] = false
    keys[#keys + 1] = key
  end
end
for from = 1, #keys, 1000 do
  local to = math.min(from + 999, #keys)
  local got = redis.call('HMGET', SALTS, unpack(keys, from, to))
  for j = from, to do salts[keys[j]] = got[j - from + 1] end
end
local function changed(key, t)
  if not touched[key] or t < touched[key] then touched[key] = t end
end
while i <= #ARGV do
  local key, url, discovered, refetch, meta, salt =
    ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5]
  i = i + 6
  local result
  if full then
    local _
    _, i = sieve_url(1, layers, i, 'skip')
    result = 5
  elseif salts[key] ~= salt then
    local _
    _, i = sieve_url(1, layers, i, 'skip')
    result = 4
  elseif discovered == '1' then
    local seen
    seen, i = sieve_url(1, layers, i, 'set')
    if seen then
      result = 1
    else
      redis.call('ZADD', wk(key), now, url)
      if meta ~= '' then redis.call('HSET', mk(key), url, meta) end
      changed(key, nowTime)
      result = 0
    end
  else
    local W, L, D, M = wk(key), lk(key), dk(key), mk(key)
    local waiting = redis.call('ZSCORE', W, url)
    local leased = redis.call('ZSCORE', L, url)
    local fresh = false
    if waiting or leased then
      local _
      _, i = sieve_url(1, layers, i, 'skip')
    else
      local seen
      seen, i = sieve_url(1, layers, i, 'set')
      fresh = not seen
    end
    if leased then
      if refetch ~= '0' then
        local due = redis.call('HGET', D, url)
        if due then redis.call('HSETNX', tk(key), url, due) end
      end
      redis.call('ZREM', L, url)
      redis.call('HDEL', D, url)
      changed(key, nowTime)
    end
    if refetch == '0' then
      if waiting or leased then
        redis.call('ZREM', W, url)
        redis.call('HDEL', M, url)
        redis.call('HDEL', tk(key), url)
      end
      redis.call('ZADD', ck(key), 'NX', now, url)
      if waiting or leased or fresh then redis.call('HINCRBY', qk(key), 'completed', 1) end
      result = 3
    else
      if waiting then
        redis.call('HSETNX', tk(key), url, waiting)
      elseif not leased then
        redis.call('HSET', tk(key), url, now)
        redis.call('ZREM', ck(key), url)
      end
      redis.call('ZADD', W, refetch, url)
      if meta == '' then redis.call('HDEL', M, url) else redis.call('HSET', M, url, meta) end
      changed(key, tonumber(refetch))
      result = 2
    end
  end
  if result < 4 then
    counts[result + 1] = counts[result + 1] + 1
    if sieve_full then
      full = true
      sieve_seal(1)
    end
  end
  out[#out + 1] = result
end
touch_all(touched)
for r = 1, 4 do
  if counts[r] > 0 then redis.call('HINCRBY', P .. 'stats', names[r], counts[r]) end
end
sieve_counts(1, out)
return out
