-- Filter and queue in one atomic step (a single server), laid out by a FilterCall with
-- KEYS[1] = stats, ARGV header = prefix, maxPerHost, maxInFlight and per URL host, entry.
-- Returns {-1} when the newest layer is sealed (see lib-sieve.lua), otherwise 0 (seen),
-- 1 (queued) or 2 (new but dropped) per URL, then each triple's set-bit count.
--! include lib-crawl-queues.lua
--! include lib-crawl-enqueue.lua
--! include lib-sieve.lua
local maxPerHost = tonumber(ARGV[2])
local maxInFlight = tonumber(ARGV[3])
local ok, i = sieve_begin(1, 4)
if not ok then return {-1} end
local out = {}
while i <= #ARGV do
  local h = ARGV[i]
  local e = ARGV[i + 1]
  local seen
  seen, i = sieve_url(1, i + 2, 'set')
  if seen then
    out[#out + 1] = 0
  else
    out[#out + 1] = enqueue(h, e, maxPerHost, maxInFlight)
  end
end
sieve_counts(1, out)
return out
