-- DeleteQueue. ARGV = P, key. Returns {URLs that were pending in it}, or {-1} if there was none.
--! include lib-serve-shard.lua
local k = ARGV[2]
if redis.call('EXISTS', qk(k)) == 0 then return {-1} end
local n = redis.call('ZCARD', wk(k)) + redis.call('ZCARD', lk(k))
redis.call('UNLINK', qk(k), wk(k), lk(k), dk(k), mk(k), tk(k), ck(k))
redis.call('ZREM', QUEUES, k)
redis.call('ZREM', READY, k)
redis.call('HDEL', SALTS, k)
return {n}
