-- ListURLs and CountURLs over one shard. ARGV = P, key ('' for every queue), text ('' for all),
-- ignore case (1/0), start, size, count only (1/0). Returns the matching URLs walked (all of them
-- unless size were listed first), then key, URL, due, metadata, creation date per URL listed from
-- position start on: per queue, its completed URLs (due 0, no metadata, creation date 0) by when
-- they completed, then its waiting URLs by due time, then its leased ones. With no text, a set
-- wholly before start (or counted only) is passed by its size without being read.
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
local function full()
  return not countOnly and #out > 5 * size
end
local function visit(k, u, due, meta, created)
  if full() then return false end
  if matches(u) then
    if not countOnly and position >= start then
      out[#out + 1] = k
      out[#out + 1] = u
      out[#out + 1] = due
      out[#out + 1] = meta or false
      out[#out + 1] = created or 0
    end
    position = position + 1
  end
  return true
end
-- Walks sorted set z of queue k (kind: 'c' completed, 'w' waiting, 'l' leased); false once full.
local function walkSet(k, z, kind)
  if full() then return false end
  local from = 0
  if text == '' then
    local n = redis.call('ZCARD', z)
    if countOnly or position + n <= start then
      position = position + n
      return true
    end
    if position < start then
      from = start - position
      position = start
    end
  end
  local stop = -1
  local want = size - (#out - 1) / 5
  if text == '' and want < 1e9 then stop = from + want - 1 end
  local members = redis.call('ZRANGE', z, from, stop, 'WITHSCORES')
  for j = 1, #members, 2 do
    local u = members[j]
    local ok = true
    if countOnly then
      if matches(u) then position = position + 1 end
    elseif kind == 'c' then
      ok = visit(k, u, 0, false, 0)
    elseif kind == 'w' then
      ok = visit(k, u, members[j + 1], redis.call('HGET', mk(k), u),
        created(k, u, members[j + 1]))
    else
      local due = redis.call('HGET', dk(k), u)
      ok = visit(k, u, due, redis.call('HGET', mk(k), u), created(k, u, due))
    end
    if not ok then return false end
  end
  return true
end
for _, k in ipairs(candidates(ARGV[2])) do
  if not (walkSet(k, ck(k), 'c') and walkSet(k, wk(k), 'w') and walkSet(k, lk(k), 'l')) then
    break
  end
end
out[1] = position
return out
