-- The queue keys of one shard. ARGV = P, include inactive (1/0), now. All, or those with URLs
-- pending and not blocked.
--! include lib-serve-shard.lua
local out = {}
for _, k in ipairs(redis.call('ZRANGE', QUEUES, 0, -1)) do
  if ARGV[2] == '1' or (pending(k) > 0
      and tonumber(ARGV[3]) >= tonumber(redis.call('HGET', qk(k), 'blocked') or '0')) then
    out[#out + 1] = k
  end
end
return out
