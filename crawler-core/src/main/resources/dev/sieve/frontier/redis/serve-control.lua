-- A queue control (block until, delay, crawl limit). ARGV = P, key, field, value. Returns {1}, or
-- {0} if there is no such queue. The queue is scored in ready anew.
--! include lib-serve-shard.lua
if redis.call('EXISTS', qk(ARGV[2])) == 0 then return {0} end
redis.call('HSET', qk(ARGV[2]), ARGV[3], ARGV[4])
rescore(ARGV[2])
return {1}
