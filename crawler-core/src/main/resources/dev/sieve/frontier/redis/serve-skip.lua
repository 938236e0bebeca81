-- Skips queue key for good (CrawlStore.SKIP): marks it skipped in q:K and SKIPPED (serve-put.lua
-- then refuses its discovered URLs the Sieve finds new) and drops every URL waiting in it, counting
-- them in stats' queue.skipped.dropped; its leased URLs are given back by their holders, its
-- completed URLs stay. ARGV = P, key. Returns {1, URLs dropped}, or {0} if there is no such queue.
-- DeleteQueue (serve-delete-queue.lua) removes the mark with the queue.
--! include lib-serve-shard.lua
local k = ARGV[2]
if redis.call('EXISTS', qk(k)) == 0 then return {0} end
redis.call('HSET', qk(k), 'skipped', '1')
redis.call('SADD', SKIPPED, k)
local dropped = drop_pending(k, nil, nil)
if dropped > 0 then
  rescore(k)
  redis.call('HINCRBY', TOTALS, 'pending', -dropped)
  deactivate_empty({[k] = true})
  redis.call('HINCRBY', P .. 'stats', 'queue.skipped.dropped', dropped)
end
return {1, dropped}
