-- PurgeURLs over one shard: drops the pending URLs, waiting or leased, of queue key ('' for every
-- queue) first stored before the epoch second cutoff (a URL with no creation date counts as stored
-- at 0). ARGV = P, key, cutoff. Returns {URLs dropped}. The Sieve still remembers them; each queue
-- that lost URLs is scored in ready anew.
--! include lib-serve-shard.lua
local cutoff = tonumber(ARGV[3])
local dropped = 0
for _, k in ipairs(candidates(ARGV[2])) do
  local before = dropped
  local T = tk(k)
  for _, z in ipairs({wk(k), lk(k)}) do
    for _, u in ipairs(redis.call('ZRANGE', z, 0, -1)) do
      if tonumber(redis.call('HGET', T, u) or '0') < cutoff then
        redis.call('ZREM', z, u)
        redis.call('HDEL', dk(k), u)
        redis.call('HDEL', mk(k), u)
        redis.call('HDEL', T, u)
        dropped = dropped + 1
      end
    end
  end
  if dropped > before then rescore(k) end
end
return {dropped}
