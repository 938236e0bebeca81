-- Drops one shard of a deleted serve crawl: sets its tombstone KEYS[1] (so a node still holding
-- the generation is told {-2}) and removes every queue. ARGV = P. Returns {URLs that were
-- pending}, or {-2} when it was dropped already.
--! include lib-serve-shard.lua
local n = 0
for _, k in ipairs(redis.call('ZRANGE', QUEUES, 0, -1)) do
  n = n + redis.call('ZCARD', wk(k)) + redis.call('ZCARD', lk(k))
  redis.call('UNLINK', qk(k), wk(k), lk(k), dk(k), mk(k), tk(k), ck(k))
end
redis.call('UNLINK', QUEUES, READY, SALTS, P .. 'seq', P .. 'salt', P .. 'stats', P .. 'delay',
  TOTALS, ACTIVE, LEASES, LEASE_ENDS)
redis.call('SET', KEYS[1], 1)
return {n}
