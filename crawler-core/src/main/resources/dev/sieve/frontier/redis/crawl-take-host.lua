-- Leases up to max pending URLs of one host now, whatever its schedule and in-flight limit.
-- ARGV = prefix, host, max, leaseMs, maxInFlight. Returns {id, entry, id, entry, ...}.
--! include lib-crawl-queues.lua
local h = ARGV[2]
local max = tonumber(ARGV[3])
local leaseMs = tonumber(ARGV[4])
local q = qkey(h)
if redis.call('LLEN', q) == 0 then return {} end
local now = now_ms()
local out = {}
for i = 1, max do
  local e = redis.call('LPOP', q)
  if not e then break end
  local id = tostring(redis.call('INCR', P .. 'seq'))
  redis.call('ZADD', LEASES, now + leaseMs, id)
  redis.call('HSET', LH, id, h)
  redis.call('HSET', LE, id, e)
  redis.call('HINCRBY', hkey(h), 'inflight', 1)
  redis.call('HINCRBY', S, 'pending', -1)
  redis.call('HINCRBY', S, 'leased', 1)
  out[#out + 1] = id
  out[#out + 1] = e
end
schedule(h, tonumber(ARGV[5]))
return out
