-- The salts of queues ARGV[3..], creating each missing one (last in turn) when ARGV[2] = 1.
-- ARGV[1] = P. Returns one salt per queue, '' for a queue that does not exist (and was not made).
-- A salt is kept in q:K and in the shard's salts (which a queue made before salts existed joins
-- here, so that puts find it).
--! include lib-serve-shard.lua
local out = {}
for j = 3, #ARGV do
  local key = ARGV[j]
  local q = qk(key)
  local salt = redis.call('HGET', q, 'salt')
  if not salt then
    if ARGV[2] == '1' then
      salt = tostring(redis.call('INCR', P .. 'salt'))
      redis.call('HSET', q, 'salt', salt)
      redis.call('HSET', SALTS, key, salt)
      redis.call('ZADD', QUEUES, 'NX', redis.call('INCR', P .. 'seq'), key)
    else
      salt = ''
    end
  else
    redis.call('HSETNX', SALTS, key, salt)
  end
  out[#out + 1] = salt
end
return out
