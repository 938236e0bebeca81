-- Newest-layer filter step (Cluster). KEYS = segment, its counter, its seal, its intents; ARGV = k,
-- push id, seal-at (set bits; -1: never), then per URL: host, entry, k offsets. Sets nothing and
-- returns {-1} when the segment is sealed, or seals it when it holds seal-at bits. Otherwise returns
-- 1 (new) or 0 (seen) per URL, then the segment's set-bit count, and records the new URLs as the
-- push's intent, "time\nhost\nentry...", in the intents hash under the push id, until the queue
-- step has them.
--! include lib-filter-admit.lua
if redis.call('EXISTS', KEYS[3]) == 1 then return {-1} end
local sealAt = tonumber(ARGV[3])
if sealAt >= 0 and tonumber(redis.call('GET', KEYS[2]) or '0') >= sealAt then
  redis.call('SET', KEYS[3], 1)
  return {-1}
end
local k = tonumber(ARGV[1])
local out = {}
local fresh = {}
local i = 4
while i <= #ARGV do
  if admit(KEYS[1], KEYS[2], k, ARGV, i + 2) > 0 then
    out[#out + 1] = 1
    fresh[#fresh + 1] = ARGV[i]
    fresh[#fresh + 1] = ARGV[i + 1]
  else
    out[#out + 1] = 0
  end
  i = i + 2 + k
end
if #fresh > 0 then
  local t = redis.call('TIME')
  local ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  redis.call('HSET', KEYS[4], ARGV[2], ms .. '\n' .. table.concat(fresh, '\n'))
end
out[#out + 1] = tonumber(redis.call('GET', KEYS[2]) or '0')
return out
