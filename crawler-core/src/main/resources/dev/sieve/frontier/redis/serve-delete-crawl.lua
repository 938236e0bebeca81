-- Ends a serve crawl's generation: KEYS = the crawl's hash, the set of crawl namespaces; ARGV = NS.
-- Returns {generation, shards}, or {-1} when there is none; the caller then drops every shard
-- (serve-drop-shard.lua).
local f = redis.call('HMGET', KEYS[1], 'gen', 'shards')
if not f[1] then return {-1} end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
return {f[1], f[2] or '1'}
