-- Per-host settings. ARGV = prefix, op (delay | spacing | skip), host, value ms, maxInFlight,
-- defaultDelayMs. Returns the pending URLs dropped for skip, else 0.
--! include lib-crawl-queues.lua
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
