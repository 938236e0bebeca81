-- PurgeURLs over one shard: drops the pending URLs, waiting or leased, of queue key ('' for every
-- queue) first stored before the epoch second cutoff (its creation date: see created in
-- lib-serve-shard.lua). ARGV = P, key, cutoff. Returns {URLs dropped}. The Sieve still remembers them; each queue
-- that lost URLs is scored in ready anew.
--! include lib-serve-shard.lua
local cutoff = tonumber(ARGV[3])
local dropped = 0
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
    end
  end
  local waiting = redis.call('ZRANGE', W, 0, -1, 'WITHSCORES')
  for j = 1, #waiting, 2 do purge(W, waiting[j], waiting[j + 1]) end
  for _, u in ipairs(redis.call('ZRANGE', L, 0, -1)) do purge(L, u, redis.call('HGET', D, u)) end
  if dropped > before then rescore(k) end
end
return {dropped}
