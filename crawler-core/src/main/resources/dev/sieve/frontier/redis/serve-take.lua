-- GetURLs from one shard of a serve crawl: first returns the leases ended by now to the waiting
-- URLs (due as they were), then leases due URLs queue by queue in turn. ARGV = P, key ('' for
-- every queue), max per queue, max queues, max URLs, now, lease end, default delay. Returns the
-- queues that produced (each goes to the back of the turn), then key, URL, due, metadata per URL
-- leased.
--! include lib-serve-shard.lua
local function release(k, now)
  for _, u in ipairs(redis.call('ZRANGEBYSCORE', lk(k), '-inf', now)) do
    redis.call('ZADD', wk(k), redis.call('HGET', dk(k), u), u)
    redis.call('ZREM', lk(k), u)
    redis.call('HDEL', dk(k), u)
  end
end
local maxPerQueue = tonumber(ARGV[3])
local maxQueues, maxUrls = tonumber(ARGV[4]), tonumber(ARGV[5])
local now = tonumber(ARGV[6])
local out = {0}
local produced = {}
local n = 0
for _, k in ipairs(candidates(ARGV[2])) do
  if #produced >= maxQueues or n >= maxUrls then break end
  local f = redis.call('HMGET', qk(k), 'blocked', 'limit', 'completed', 'delay', 'last')
  local limit = tonumber(f[2] or '0')
  local delay = tonumber(f[4] or '-1')
  if delay < 0 then delay = tonumber(ARGV[8]) end
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
        redis.call('ZADD', lk(k), ARGV[7], u)
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
