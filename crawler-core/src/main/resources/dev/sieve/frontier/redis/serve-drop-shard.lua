-- Drops one shard of a deleted serve crawl, at most ARGV[2] queues per call so that no call holds
-- Redis long: sets its tombstone KEYS[1] first (from then on a node still holding the generation
-- is told {-2}, see lib-serve-shard.lua), then removes queues; the call that finds none left
-- removes the shard's own keys. ARGV = P, the most queues to remove. Returns {URLs that were
-- pending in the queues it removed, 1 when the shard is gone whole, else 0}. Calling it again on
-- a dropped shard answers {0, 1}.
--! include lib-serve-keys.lua
redis.call('SET', KEYS[1], 1)
local n = 0
local keys = redis.call('ZRANGE', QUEUES, 0, tonumber(ARGV[2]) - 1)
for _, k in ipairs(keys) do
  n = n + pending(k)
  redis.call('UNLINK', qk(k), wk(k), lk(k), dk(k), mk(k), tk(k), ck(k))
end
if #keys > 0 then redis.call('ZREM', QUEUES, unpack(keys)) end
if redis.call('EXISTS', QUEUES) == 1 then return {n, 0} end
redis.call('UNLINK', READY, SALTS, SKIPPED, P .. 'seq', P .. 'salt', P .. 'stats', P .. 'delay',
  TOTALS, ACTIVE, LEASES, LEASE_ENDS)
return {n, 1}
