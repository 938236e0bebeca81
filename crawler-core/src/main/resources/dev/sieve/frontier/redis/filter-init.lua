-- Creates a filter's settings and its first layer, or returns the settings it was created with.
-- KEYS = meta, layer list; ARGV = layer 0's descriptor, then field, value pairs.
-- Returns {} when created, else the stored pairs.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return redis.call('HGETALL', KEYS[1])
end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('DEL', KEYS[2])
redis.call('RPUSH', KEYS[2], ARGV[1])
return {}
