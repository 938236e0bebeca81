-- Test only: a push through the Sieve library alone, as the store's put uses it. KEYS[1] a lead
-- key (unused), ARGV = prefix, two unused header values, then per URL two payload values and its
-- filter arguments. Answers per URL 1 (new: its bits set) or 0 (seen), then the filter's counts.
--! include lib-sieve.lua
local ok, i = sieve_begin(1, 4)
if not ok then return {-1} end
local out = {}
while i <= #ARGV do
  i = i + 2
  local seen
  seen, i = sieve_url(1, i, 'set')
  out[#out + 1] = seen and 0 or 1
end
sieve_counts(1, out)
return out
