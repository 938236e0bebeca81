-- Totals over one shard of a serve crawl, as QueueStats. ARGV = P, key ('' for every queue), now.
-- Returns size, in flight, queues, active queues, completed.
--! include lib-serve-shard.lua
local size, flying, queues, active, completed = 0, 0, 0, 0, 0
for _, k in ipairs(candidates(ARGV[2])) do
  local pending = redis.call('ZCARD', wk(k)) + redis.call('ZCARD', lk(k))
  size = size + pending
  flying = flying + redis.call('ZCOUNT', lk(k), '(' .. ARGV[3], '+inf')
  queues = queues + 1
  if pending > 0 then active = active + 1 end
  completed = completed + tonumber(redis.call('HGET', qk(k), 'completed') or '0')
end
return {size, flying, queues, active, completed}
