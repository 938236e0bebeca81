-- Older-layer check (Cluster). KEYS = segment; ARGV = k, then k offsets per URL.
-- Returns 1 (the layer holds it) or 0 per URL. Sets nothing.
--! include lib-filter-has.lua
local k = tonumber(ARGV[1])
local out = {}
for base = 2, #ARGV, k do
  out[#out + 1] = has(KEYS[1], k, ARGV, base) and 1 or 0
end
return out
