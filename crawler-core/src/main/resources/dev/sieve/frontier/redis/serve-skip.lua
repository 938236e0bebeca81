-- Skips queue key for good (CrawlStore.SKIP): marks it skipped in q:K and SKIPPED (serve-put.lua
-- then refuses its discovered URLs the Sieve finds new) and drops every URL pending in it, waiting
-- or leased, as serve-purge.lua does, counting them in stats' queue.skipped.dropped; its
-- completed URLs stay. ARGV = P, key. Returns {1, URLs dropped}, or {0} if there is no such queue.
-- DeleteQueue (serve-delete-queue.lua) removes the mark with the queue.
--! include lib-serve-shard.lua
local k = ARGV[2]
if redis.call('EXISTS', qk(k)) == 0 then return {0} end
redis.call('HSET', qk(k), 'skipped', '1')
redis.call('SADD', SKIPPED, k)
local ended = {}
local dropped = drop_pending(k, nil, ended)
if dropped > 0 then
  rescore(k)
  redis.call('HINCRBY', TOTALS, 'pending', -dropped)
  deactivate_empty({[k] = true})
  leases_ended(ended)
  redis.call('HINCRBY', P .. 'stats', 'queue.skipped.dropped', dropped)
end
return {1, dropped}
