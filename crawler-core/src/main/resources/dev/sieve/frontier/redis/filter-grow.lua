-- Appends a filter layer unless another process did. KEYS = the layer list; ARGV = the layers
-- the caller saw, the new layer's descriptor. Returns the list.
if redis.call('LLEN', KEYS[1]) == tonumber(ARGV[1]) then
  redis.call('RPUSH', KEYS[1], ARGV[2])
end
return redis.call('LRANGE', KEYS[1], 0, -1)
