-- Gives a lease back. ARGV = prefix, id, mode (complete | retry | back), maxInFlight,
-- defaultDelayMs, backoffMs, entry (queued first in its host for retry and back). Returns 1, or 0
-- when the lease had expired and was re-queued already.
--! include lib-crawl-queues.lua
local id = ARGV[2]
local mode = ARGV[3]
local maxInFlight = tonumber(ARGV[4])
local now = now_ms()
local h = redis.call('HGET', LH, id)
if not h then return 0 end
redis.call('ZREM', LEASES, id)
redis.call('HDEL', LH, id)
redis.call('HDEL', LE, id)
redis.call('HINCRBY', S, 'leased', -1)
local hk = hkey(h)
redis.call('HINCRBY', hk, 'inflight', -1)
local delay = tonumber(redis.call('HGET', hk, 'delay') or ARGV[5])
local nxt = tonumber(redis.call('HGET', hk, 'next') or '0')
if mode == 'complete' then
  if maxInFlight == 1 then nxt = math.max(nxt, now + delay) end
else
  local wait = delay
  if mode == 'retry' then wait = math.max(delay, tonumber(ARGV[6])) end
  nxt = math.max(nxt, now + wait)
  if redis.call('HGET', hk, 'skipped') == '1' then
    redis.call('HINCRBY', S, 'droppedSkipped', 1)
  else
    redis.call('LPUSH', qkey(h), ARGV[7])
    redis.call('HINCRBY', S, 'pending', 1)
  end
end
redis.call('HSET', hk, 'next', nxt)
schedule(h, maxInFlight)
return 1
