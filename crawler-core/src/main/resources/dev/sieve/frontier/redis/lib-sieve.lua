-- Library (filter): checks URLs against a seen filter, in a script whose keys and arguments a
-- FilterCall built (lead: the number of the script's own keys before the triples). The node read
-- each URL's block in every layer before the call (bits are only ever set, so a URL whose bits it
-- found all set is seen for good) and passes, per URL, SIEVE_ARGS arguments: tf, '0' when that
-- read found it seen, else 1024·t + f with t the newest layer's triple and f the bits the URL adds to
-- the block as read; the block's first and last byte in the segment; the block as read (old) and
-- with the URL's bits (new). Older layers are sealed before a newer one exists, so only the newest
-- can have changed since the read.
-- sieve_begin(lead, a), given from ARGV[a] the newest layer's triples (their count, then each
-- one's number and seal-at bits), returns false when a segment of the newest layer is sealed
-- (sealing it when it holds its seal-at bits: the script must then change nothing and return
-- {-1}), else true and the index of the first URL's arguments.
-- sieve_url(lead, i, mode) reads one URL's arguments from ARGV[i] and returns whether it was seen
-- and the index after them: mode 'set' sets its bits in the newest layer (seen: the read found it
-- so, or no bit was new), 'has' answers the read, 'skip' neither. Setting costs one GETRANGE of the
-- block and, when it is still the block read, one SETRANGE of new (none when f is 0): the Lua never
-- touches a bit unless another call changed the block in between (sieve_merge).
-- Setting bits, sieve_url keeps each newest segment's count: sieve_full tells that one reached
-- its seal-at bits, and a script that then stops setting calls sieve_seal(lead) to seal it (the
-- next call finds it sealed and the filter grows), so a batch never overfills a layer by more
-- than one URL. sieve_counts(lead, out) adds the bits sieve_url set to the segments' counters (once per
-- counter, not per URL) and appends each triple's set-bit count: a script that set bits calls it,
-- last (the node reads the counts from the end of the answer).
local SIEVE_ARGS = 5
local sieve_flips = {}
local sieve_fill = {}
local sieve_full = false
local function sieve_begin(lead, a)
  local m = tonumber(ARGV[a])
  for j = 1, m do
    local t = tonumber(ARGV[a - 1 + 2 * j])
    local seal = KEYS[lead + 3 * t]
    if redis.call('EXISTS', seal) == 1 then return false end
    local sealAt = tonumber(ARGV[a + 2 * j])
    if sealAt >= 0 then
      local count = tonumber(redis.call('GET', KEYS[lead + 3 * t - 1]) or '0')
      if count >= sealAt then
        redis.call('SET', seal, 1)
        return false
      end
      sieve_fill[t] = {count, sealAt}
    end
  end
  return true, a + 1 + 2 * m
end
-- The block cur (as it is now, shorter past the end of the segment) changed since the node read
-- it: adds new's bits to it, writing it back when one was missing; returns how many were.
local function sieve_merge(seg, at, cur, new)
  local out = {}
  local flipped = 0
  for j = 1, 64 do
    local c = string.byte(cur, j) or 0
    local n = string.byte(new, j)
    local add = bit.band(n, bit.bnot(c))
    while add ~= 0 do
      add = bit.band(add, add - 1)
      flipped = flipped + 1
    end
    out[j] = bit.bor(c, n)
  end
  if flipped > 0 then redis.call('SETRANGE', seg, at, string.char(unpack(out))) end
  return flipped
end
local function sieve_url(lead, i, mode)
  local tf = ARGV[i]
  if tf == '0' then return true, i + SIEVE_ARGS end
  if mode ~= 'set' then return false, i + SIEVE_ARGS end
  local x = tonumber(tf)
  local f = x % 1024
  local t = (x - f) / 1024
  local seg, at = KEYS[lead + 3 * t - 2], ARGV[i + 1]
  local cur = redis.call('GETRANGE', seg, at, ARGV[i + 2])
  local flipped = f
  if cur ~= ARGV[i + 3] then
    flipped = sieve_merge(seg, at, cur, ARGV[i + 4])
  elseif f > 0 then
    redis.call('SETRANGE', seg, at, ARGV[i + 4])
  end
  if flipped > 0 then
    local cnt = KEYS[lead + 3 * t - 1]
    sieve_flips[cnt] = (sieve_flips[cnt] or 0) + flipped
  end
  local fill = sieve_fill[t]
  if fill then
    fill[1] = fill[1] + flipped
    if fill[1] >= fill[2] then sieve_full = true end
  end
  return flipped == 0, i + SIEVE_ARGS
end
local function sieve_seal(lead)
  for t, fill in pairs(sieve_fill) do
    if fill[1] >= fill[2] then redis.call('SET', KEYS[lead + 3 * t], 1) end
  end
end
local function sieve_counts(lead, out)
  for cnt, n in pairs(sieve_flips) do redis.call('INCRBY', cnt, n) end
  sieve_flips = {}
  for t = 1, (#KEYS - lead) / 3 do
    out[#out + 1] = tonumber(redis.call('GET', KEYS[lead + 3 * t - 1]) or '0')
  end
end
