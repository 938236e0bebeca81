-- PurgeURLs over one shard: drops the pending URLs, waiting or leased, of queue key ('' for every
-- queue) first stored before the epoch second cutoff (its creation date: see created in
-- lib-serve-shard.lua). ARGV = P, key, cutoff. Returns {URLs dropped}. The Sieve still remembers them; each queue
-- that lost URLs is scored in ready anew.
--! include lib-serve-shard.lua
local cutoff = tonumber(ARGV[3])
local dropped = 0
local ended, lost = {}, {}
for _, k in ipairs(candidates(ARGV[2])) do
  local before = dropped
  local W, L, D = wk(k), lk(k), dk(k)
  local function purge(z, u, due)
    if tonumber(created(k, u, due) or '0') < cutoff then
      redis.call('ZREM', z, u)
      redis.call('HDEL', D, u)
      redis.call('HDEL', mk(k), u)
      redis.call('HDEL', tk(k), u)
      dropped = dropped + 1
      return true
    end
    return false
  end
  local waiting = redis.call('ZRANGE', W, 0, -1, 'WITHSCORES')
  for j = 1, #waiting, 2 do purge(W, waiting[j], waiting[j + 1]) end
  local leases = redis.call('ZRANGE', L, 0, -1, 'WITHSCORES')
  for j = 1, #leases, 2 do
    local u, e = leases[j], leases[j + 1]
    if purge(L, u, redis.call('HGET', D, u)) then ended[e] = (ended[e] or 0) + 1 end
  end
  if dropped > before then
    rescore(k)
    lost[k] = true
  end
end
if dropped > 0 then redis.call('HINCRBY', TOTALS, 'pending', -dropped) end
deactivate_empty(lost)
leases_ended(ended)
return {dropped}
