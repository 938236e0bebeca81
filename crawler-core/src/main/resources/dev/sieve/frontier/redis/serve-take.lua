-- GetURLs from one shard of a serve crawl: leases due URLs from the queues that ready (see
-- lib-serve-shard.lua) holds as ready by now, soonest first, or from queue key only; a queue's
-- leases ended by now first go back to its waiting URLs (due as they were). ARGV = P, key (''
-- for every queue), max per queue, max queues, max URLs, now, lease end, default delay, since (the
-- shard's seq when the GetURLs call began, -1 on its first script: a call asking many URLs runs
-- several, and a queue whose turn is past since produced in it already, so the script stops
-- there), from release ('1': a queue's delay also counts from its last lease given back, its
-- 'released' field, as a crawl's politeness asks; '0': from its last production only, as GetURLs
-- does). Returns the queues that produced (each goes to the back of the turn), since, then key,
-- URL, due, metadata per URL leased. Its work is bounded by what it returns and at most STALE
-- queues whose score proved early, each scored anew after now; it never walks the other queues,
-- except once after the service's default delay was shortened (those not ready by now).
--! include lib-serve-shard.lua
local STALE = 256
local maxPerQueue = tonumber(ARGV[3])
local maxQueues, maxUrls = tonumber(ARGV[4]), tonumber(ARGV[5])
local now = tonumber(ARGV[6])
local defaultDelay = tonumber(ARGV[8])
local fromRelease = ARGV[10] == '1'
local stored = redis.call('GET', P .. 'delay')
if stored ~= ARGV[8] then
  redis.call('SET', P .. 'delay', ARGV[8])
  -- A shorter default delay (SetDelay, rare) may make queues due sooner than ready says.
  if stored and tonumber(stored) > defaultDelay then
    for _, k in ipairs(redis.call('ZRANGEBYSCORE', READY, '(' .. (now - READY_EPOCH + 1), '+inf')) do
      rescore(k, defaultDelay)
    end
  end
end
local since = tonumber(ARGV[9])
if since < 0 then since = tonumber(redis.call('GET', P .. 'seq') or '0') end
local out = {0, since}
local produced = {}
local n = 0
local function release(k)
  for _, u in ipairs(redis.call('ZRANGEBYSCORE', lk(k), '-inf', now)) do
    redis.call('ZADD', wk(k), redis.call('HGET', dk(k), u), u)
    redis.call('ZREM', lk(k), u)
    redis.call('HDEL', dk(k), u)
  end
end
-- Leases from queue k what it may give now: true when it produced, else k is scored anew (after
-- now, or out of ready); nil when k produced in this GetURLs call already.
local function lease(k)
  if tonumber(redis.call('ZSCORE', QUEUES, k) or '0') > since then return nil end
  local f = redis.call('HMGET', qk(k), 'blocked', 'limit', 'completed', 'delay', 'last',
    'released')
  local limit = tonumber(f[2] or '0')
  local delay = tonumber(f[4] or '-1')
  if delay < 0 then delay = defaultDelay end
  local last = tonumber(f[5] or '0')
  if now < tonumber(f[1] or '0') or (limit > 0 and tonumber(f[3] or '0') >= limit)
      or (last ~= 0 and now < last + delay) then
    rescore(k, defaultDelay)
    return false
  end
  local released = tonumber(f[6] or '0')
  if fromRelease and released ~= 0 and now < released + delay then
    -- Later than rescore's score (which knows no release): a GetURLs of the same crawl then
    -- waits for it too.
    ready_at(k, released + delay)
    return false
  end
  release(k)
  if redis.call('ZCARD', lk(k)) >= maxPerQueue then
    ready_at(k, tonumber(redis.call('ZRANGE', lk(k), 0, 0, 'WITHSCORES')[2]))
    return false
  end
  local due = redis.call('ZRANGEBYSCORE', wk(k), '-inf', now, 'WITHSCORES', 'LIMIT', 0,
    math.min(maxPerQueue, maxUrls - n))
  if #due == 0 then
    rescore(k, defaultDelay)
    return false
  end
  for j = 1, #due, 2 do
    local u = due[j]
    redis.call('ZREM', wk(k), u)
    redis.call('ZADD', lk(k), ARGV[7], u)
    redis.call('HSET', dk(k), u, due[j + 1])
    out[#out + 1] = k
    out[#out + 1] = u
    out[#out + 1] = due[j + 1]
    out[#out + 1] = redis.call('HGET', mk(k), u)
    n = n + 1
  end
  redis.call('HSET', qk(k), 'last', now)
  produced[#produced + 1] = k
  return true
end
if ARGV[2] ~= '' then
  if redis.call('EXISTS', qk(ARGV[2])) == 1 then lease(ARGV[2]) end
else
  -- Queues that produced keep their scores until the end, ahead of those not read yet; the others
  -- leave the range: each batch starts after the producers.
  local stale = 0
  while #produced < maxQueues and n < maxUrls and stale < STALE do
    local batch = redis.call('ZRANGEBYSCORE', READY, '-inf', '(' .. (now - READY_EPOCH + 1), 'LIMIT',
      #produced, math.min(maxQueues - #produced, maxUrls - n, STALE))
    if #batch == 0 then break end
    for _, k in ipairs(batch) do
      if #produced >= maxQueues or n >= maxUrls or stale >= STALE then break end
      local leased = lease(k)
      if leased == nil then
        stale = STALE
      elseif not leased then
        stale = stale + 1
      end
    end
  end
end
for _, k in ipairs(produced) do
  redis.call('ZADD', QUEUES, redis.call('INCR', P .. 'seq'), k)
  rescore(k, defaultDelay)
end
out[1] = #produced
if n > 0 then
  redis.call('HINCRBY', P .. 'stats', 'get.leased', n)
  redis.call('HINCRBY', LEASES, ARGV[7], n)
  redis.call('ZADD', LEASE_ENDS, ARGV[7], ARGV[7])
end
return out
