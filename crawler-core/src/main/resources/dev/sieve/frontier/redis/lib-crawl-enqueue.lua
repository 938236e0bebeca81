-- Library (crawl): enqueue(h, entry, maxPerHost, maxInFlight) queues an entry in host h unless the
-- host is skipped or over its budget. Returns 1 (queued) or 2 (dropped). Uses the host keys of
-- lib-crawl-queues.lua.
--! include lib-crawl-queues.lua
local function enqueue(h, entry, maxPerHost, maxInFlight)
  local hk = hkey(h)
  if redis.call('HSETNX', hk, 'admitted', 0) == 1 then
    redis.call('HINCRBY', S, 'hosts', 1)
  end
  if redis.call('HGET', hk, 'skipped') == '1' then
    redis.call('HINCRBY', S, 'droppedSkipped', 1)
    return 2
  end
  if tonumber(redis.call('HGET', hk, 'admitted')) >= maxPerHost then
    redis.call('HINCRBY', S, 'droppedBudget', 1)
    return 2
  end
  redis.call('HINCRBY', hk, 'admitted', 1)
  redis.call('RPUSH', qkey(h), entry)
  redis.call('HINCRBY', S, 'pending', 1)
  if not redis.call('ZSCORE', SCHED, h) then
    schedule(h, maxInFlight)
  end
  return 1
end
