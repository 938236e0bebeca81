-- ListURLs and CountURLs over one shard. ARGV = P, key ('' for every queue), text ('' for all),
-- ignore case (1/0), start, size, count only (1/0). Returns the matching URLs walked (all of them
-- unless size were listed first), then key, URL, due, metadata per URL listed from position start
-- on: each queue's waiting URLs by due time, then its leased ones.
--! include lib-serve-shard.lua
local text = ARGV[3]
local ignoreCase = ARGV[4] == '1'
if ignoreCase then text = string.lower(text) end
local start, size, countOnly = tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7] == '1'
local position = 0
local out = {0}
local function matches(u)
  if text == '' then return true end
  if ignoreCase then u = string.lower(u) end
  return string.find(u, text, 1, true) ~= nil
end
local function visit(k, u, due)
  if not countOnly and #out > 4 * size then return false end
  if matches(u) then
    if not countOnly and position >= start then
      out[#out + 1] = k
      out[#out + 1] = u
      out[#out + 1] = due
      out[#out + 1] = redis.call('HGET', mk(k), u)
    end
    position = position + 1
  end
  return true
end
local function walk()
  for _, k in ipairs(candidates(ARGV[2])) do
    local waiting = redis.call('ZRANGE', wk(k), 0, -1, 'WITHSCORES')
    for j = 1, #waiting, 2 do
      if not visit(k, waiting[j], waiting[j + 1]) then return end
    end
    for _, u in ipairs(redis.call('ZRANGE', lk(k), 0, -1)) do
      if not visit(k, u, redis.call('HGET', dk(k), u)) then return end
    end
  end
end
walk()
out[1] = position
return out
