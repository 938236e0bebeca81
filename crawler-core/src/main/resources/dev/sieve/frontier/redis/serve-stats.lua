-- Totals over one shard of a serve crawl, as QueueStats. ARGV = P, key ('' for every queue), now.
-- Returns size, in flight, queues, active queues, completed. One queue's are read from the queue;
-- every queue's from the totals the scripts keep as they change (lib-serve-shard.lua), so that a
-- GetStats (or a metrics scrape) does not walk a shard's queues. A shard whose totals were never
-- counted (made before they were kept) is walked once here to count them.
--! include lib-serve-shard.lua
local now = tonumber(ARGV[3])
if ARGV[2] ~= '' then
  local k = ARGV[2]
  if redis.call('EXISTS', qk(k)) == 0 then return {0, 0, 0, 0, 0} end
  local size = pending(k)
  return {size, redis.call('ZCOUNT', lk(k), '(' .. ARGV[3], '+inf'), 1, size > 0 and 1 or 0,
    tonumber(redis.call('HGET', qk(k), 'completed') or '0')}
end
if redis.call('HGET', TOTALS, 'kept') ~= '1' then
  redis.call('DEL', ACTIVE, LEASES, LEASE_ENDS)
  local size, completed, active = 0, 0, {}
  for _, k in ipairs(redis.call('ZRANGE', QUEUES, 0, -1)) do
    local n = pending(k)
    size = size + n
    if n > 0 then
      active[#active + 1] = k
    else
      redis.call('ZREM', READY, k) -- ready holds active queues only (lib-serve-shard.lua)
    end
    completed = completed + tonumber(redis.call('HGET', qk(k), 'completed') or '0')
    local leases = redis.call('ZRANGEBYSCORE', lk(k), '(' .. ARGV[3], '+inf', 'WITHSCORES')
    for j = 2, #leases, 2 do
      redis.call('HINCRBY', LEASES, leases[j], 1)
      redis.call('ZADD', LEASE_ENDS, leases[j], leases[j])
    end
  end
  activate(active)
  redis.call('HSET', TOTALS, 'pending', size, 'completed', completed, 'kept', '1')
end
-- Leases ended by now no longer count: their ends go (a lease ended early then finds none).
local past = redis.call('ZRANGEBYSCORE', LEASE_ENDS, '-inf', ARGV[3])
for from = 1, #past, 1000 do
  redis.call('HDEL', LEASES, unpack(past, from, math.min(from + 999, #past)))
end
if #past > 0 then redis.call('ZREMRANGEBYSCORE', LEASE_ENDS, '-inf', ARGV[3]) end
local flying = 0
local ends = redis.call('ZRANGE', LEASE_ENDS, 0, -1)
for from = 1, #ends, 1000 do
  for _, n in ipairs(redis.call('HMGET', LEASES, unpack(ends, from, math.min(from + 999, #ends)))) do
    flying = flying + tonumber(n or '0')
  end
end
local totals = redis.call('HMGET', TOTALS, 'pending', 'completed')
return {tonumber(totals[1] or '0'), flying, redis.call('ZCARD', QUEUES),
  redis.call('SCARD', ACTIVE), tonumber(totals[2] or '0')}
