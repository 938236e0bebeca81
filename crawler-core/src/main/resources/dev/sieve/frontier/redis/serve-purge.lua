-- PurgeURLs over one shard: drops the pending URLs, waiting or leased, of queue key ('' for every
-- queue) first stored before the epoch second cutoff (its creation date: see created in
-- lib-serve-shard.lua). ARGV = P, key, cutoff. Returns {URLs dropped}. The Sieve still remembers
-- them; each queue that lost URLs is scored in ready anew.
--! include lib-serve-shard.lua
local cutoff = tonumber(ARGV[3])
local dropped = 0
local ended, lost = {}, {}
for _, k in ipairs(candidates(ARGV[2])) do
  local n = drop_pending(k, cutoff, ended)
  if n > 0 then
    dropped = dropped + n
    rescore(k)
    lost[k] = true
  end
end
if dropped > 0 then redis.call('HINCRBY', TOTALS, 'pending', -dropped) end
deactivate_empty(lost)
leases_ended(ended)
return {dropped}
