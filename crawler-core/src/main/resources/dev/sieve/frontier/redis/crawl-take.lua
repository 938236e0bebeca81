-- Re-queues expired leases (first in their hosts), then leases from the host ready soonest.
-- ARGV = prefix, leaseMs, maxInFlight, defaultDelayMs. Returns {'lease', id, host, entry, now},
-- {'wait', ms} (ms = -1: no hint) or {'done'} when nothing is pending or leased.
--! include lib-crawl-queues.lua
local leaseMs = tonumber(ARGV[2])
local maxInFlight = tonumber(ARGV[3])
local now = now_ms()
local expired = redis.call('ZRANGEBYSCORE', LEASES, '-inf', now, 'LIMIT', 0, 64)
for _, id in ipairs(expired) do
  local h = redis.call('HGET', LH, id)
  local e = redis.call('HGET', LE, id)
  redis.call('ZREM', LEASES, id)
  redis.call('HDEL', LH, id)
  redis.call('HDEL', LE, id)
  redis.call('HINCRBY', S, 'leased', -1)
  redis.call('HINCRBY', S, 'expired', 1)
  if h then
    redis.call('HINCRBY', hkey(h), 'inflight', -1)
    if redis.call('HGET', hkey(h), 'skipped') == '1' then
      redis.call('HINCRBY', S, 'droppedSkipped', 1)
    else
      redis.call('LPUSH', qkey(h), e)
      redis.call('HINCRBY', S, 'pending', 1)
    end
    schedule(h, maxInFlight)
  end
end
local head = redis.call('ZRANGE', SCHED, 0, 0, 'WITHSCORES')
local soonestExpiry = redis.call('ZRANGE', LEASES, 0, 0, 'WITHSCORES')
local expiryWait = -1
if #soonestExpiry > 0 then expiryWait = math.max(0, tonumber(soonestExpiry[2]) - now) end
if #head == 0 then
  local st = redis.call('HMGET', S, 'pending', 'leased')
  if tonumber(st[1] or '0') <= 0 and tonumber(st[2] or '0') <= 0 then
    return {'done'}
  end
  return {'wait', expiryWait}
end
local h = head[1]
local ready = tonumber(head[2])
if ready > now then
  local wait = ready - now
  if expiryWait >= 0 and expiryWait < wait then wait = expiryWait end
  return {'wait', wait}
end
local e = redis.call('LPOP', qkey(h))
if not e then
  redis.call('ZREM', SCHED, h)
  return {'wait', 0}
end
local hk = hkey(h)
redis.call('HINCRBY', hk, 'inflight', 1)
local delay = tonumber(redis.call('HGET', hk, 'delay') or ARGV[4])
redis.call('HSET', hk, 'next', now + delay)
schedule(h, maxInFlight)
local id = tostring(redis.call('INCR', P .. 'seq'))
redis.call('ZADD', LEASES, now + leaseMs, id)
redis.call('HSET', LH, id, h)
redis.call('HSET', LE, id, e)
redis.call('HINCRBY', S, 'pending', -1)
redis.call('HINCRBY', S, 'leased', 1)
return {'lease', id, h, e, now}
