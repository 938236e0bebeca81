-- Creates a serve crawl unless it exists. KEYS = the crawl's hash, the generation counter, the set
-- of crawl namespaces (one slot: {serve}); ARGV = NS, ID, shards. Returns {generation, shards,
-- ms}, of the crawl as it exists: ms is '1' for a crawl whose times are epoch milliseconds (every
-- crawl created here), '0' for one a Sieve that counted seconds created.
local f = redis.call('HMGET', KEYS[1], 'gen', 'shards', 'ms')
if f[1] then return {f[1], f[2] or '1', f[3] or '0'} end
local g = tostring(redis.call('INCR', KEYS[2]))
redis.call('HSET', KEYS[1], 'gen', g, 'id', ARGV[2], 'shards', ARGV[3], 'ms', '1')
redis.call('SADD', KEYS[3], ARGV[1])
return {g, ARGV[3], '1'}
