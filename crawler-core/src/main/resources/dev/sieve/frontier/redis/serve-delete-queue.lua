-- DeleteQueue. ARGV = P, key. Returns {URLs that were pending in it}, or {-1} if there was none.
--! include lib-serve-shard.lua
local k = ARGV[2]
if redis.call('EXISTS', qk(k)) == 0 then return {-1} end
local n = pending(k)
local ended = {}
local leases = redis.call('ZRANGE', lk(k), 0, -1, 'WITHSCORES')
for j = 2, #leases, 2 do ended[leases[j]] = (ended[leases[j]] or 0) + 1 end
leases_ended(ended)
if n > 0 then redis.call('HINCRBY', TOTALS, 'pending', -n) end
local completed = tonumber(redis.call('HGET', qk(k), 'completed') or '0')
if completed > 0 then redis.call('HINCRBY', TOTALS, 'completed', -completed) end
redis.call('SREM', ACTIVE, k)
redis.call('UNLINK', qk(k), wk(k), lk(k), dk(k), mk(k), tk(k), ck(k))
redis.call('ZREM', QUEUES, k)
redis.call('ZREM', READY, k)
redis.call('HDEL', SALTS, k)
redis.call('SREM', SKIPPED, k)
return {n}
