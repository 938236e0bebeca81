-- Library (filter): checks URLs against every layer of a seen filter, in a script whose keys and
-- arguments a FilterCall built (lead: the number of the script's own keys before the triples).
-- sieve_begin(lead, a), with the layer count at ARGV[a], returns false when a segment of the newest
-- layer is sealed (sealing it when it holds its seal-at bits: the script must then change nothing
-- and return {-1}), else true, the layer count and the index of the first URL's arguments.
-- sieve_url(lead, layers, i, mode) reads one URL's filter arguments from ARGV[i] (per layer,
-- SIEVE_ARGS of them: its triple, its block's first and last byte, its bits' positions packed; see
-- FilterCall) and returns whether it was seen and the index after them: mode 'set' sets its bits
-- in the newest layer (seen: an older layer holds it, or no bit was new), 'has' only reads,
-- 'skip' neither. Each layer costs
-- one GETRANGE of the URL's 512-bit block, and a SETRANGE when 'set' found a bit new.
-- Setting bits, sieve_url keeps each newest segment's count: sieve_full tells that one reached
-- its seal-at bits, and a script that then stops setting calls sieve_seal(lead) to seal it (the
-- next call finds it sealed and the filter grows), so a batch never overfills a layer by more
-- than one URL. sieve_counts(lead, out) adds the bits sieve_url set to the segments' counters (once per
-- counter, not per URL) and appends each triple's set-bit count: a script that set bits calls it.
--! include lib-filter-admit.lua
--! include lib-filter-has.lua
local SIEVE_ARGS = 4
local sieve_flips = {}
local sieve_fill = {}
local sieve_full = false
local function sieve_begin(lead, a)
  local layers = tonumber(ARGV[a])
  local m = tonumber(ARGV[a + 1])
  for j = 1, m do
    local t = tonumber(ARGV[a + 2 * j])
    local seal = KEYS[lead + 3 * t]
    if redis.call('EXISTS', seal) == 1 then return false end
    local sealAt = tonumber(ARGV[a + 1 + 2 * j])
    if sealAt >= 0 then
      local count = tonumber(redis.call('GET', KEYS[lead + 3 * t - 1]) or '0')
      if count >= sealAt then
        redis.call('SET', seal, 1)
        return false
      end
      sieve_fill[t] = {count, sealAt}
    end
  end
  return true, layers, a + 2 + 2 * m
end
local function sieve_url(lead, layers, i, mode)
  local seen = false
  for l = 1, layers do
    if mode ~= 'skip' and not seen then
      local t = tonumber(ARGV[i])
      local seg, at = KEYS[lead + 3 * t - 2], ARGV[i + 1]
      local bytes = block_bits(seg, at, ARGV[i + 2])
      local codes = {string.byte(ARGV[i + 3], 1, -1)}
      if l < layers or mode == 'has' then
        seen = has_block(bytes, codes)
      else
        local flipped = admit_block(seg, at, bytes, codes)
        seen = flipped == 0
        if flipped > 0 then
          local cnt = KEYS[lead + 3 * t - 1]
          sieve_flips[cnt] = (sieve_flips[cnt] or 0) + flipped
        end
        local fill = sieve_fill[t]
        if fill then
          fill[1] = fill[1] + flipped
          if fill[1] >= fill[2] then sieve_full = true end
        end
      end
    end
    i = i + SIEVE_ARGS
  end
  return seen, i
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
