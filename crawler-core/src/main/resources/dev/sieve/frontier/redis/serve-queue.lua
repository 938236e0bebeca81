-- The salt of queue ARGV[2], creating the queue (last in turn) when ARGV[3] = 1. ARGV[1] = P.
-- Returns {1, salt}, or {0} when there is no such queue.
--! include lib-serve-shard.lua
local q = qk(ARGV[2])
local salt = redis.call('HGET', q, 'salt')
if not salt then
  if ARGV[3] ~= '1' then return {0} end
  salt = tostring(redis.call('INCR', P .. 'salt'))
  redis.call('HSET', q, 'salt', salt)
  redis.call('ZADD', QUEUES, 'NX', redis.call('INCR', P .. 'seq'), ARGV[2])
end
return {1, salt}
