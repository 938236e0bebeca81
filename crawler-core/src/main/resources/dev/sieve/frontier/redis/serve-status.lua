-- GetURLStatus of one URL, laid out by a FilterCall with KEYS[1] = the tombstone, ARGV header =
-- P, key, url, salt. Returns {-3} when the queue's salt is another; {-4, due, metadata, creation
-- date (0: not known)} when the URL is pending; else 2 (the Sieve says seen) or 0, then the
-- filter's counts.
--! include lib-serve-shard.lua
--! include lib-sieve.lua
local key = ARGV[2]
local url = ARGV[3]
if redis.call('HGET', qk(key), 'salt') ~= ARGV[4] then return {-3} end
local due = redis.call('ZSCORE', wk(key), url)
if not due and redis.call('ZSCORE', lk(key), url) then
  due = redis.call('HGET', dk(key), url)
end
if due then
  return {-4, due, redis.call('HGET', mk(key), url) or false, created(key, url, due)}
end
local ok, i = sieve_begin(1, 5)
if not ok then return {-1} end
local out = {sieve_url(1, i, 'has') and 2 or 0}
sieve_counts(1, out)
return out
