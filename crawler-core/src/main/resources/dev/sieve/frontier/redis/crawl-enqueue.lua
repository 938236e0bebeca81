-- Queue step (Cluster), of a push or of the recovery of a dead one. ARGV = prefix, maxPerHost,
-- maxInFlight, mode (push | recover), intent time, staleMs, then groups (one per intent: its marker
-- pushId@segmentKey, its URL count c, then host, entry per URL). A recovery of an intent younger
-- than staleMs returns {-2} (its process may be alive), of one recovered already {-1}; otherwise it
-- marks the intent recovered (kept a day) and counts its URLs 'recovered'. A push skips the groups
-- recovered already (their URLs counted 'late'). Returns 1 (queued), 2 (dropped: host budget or
-- skipped) or 3 (queued by a recovery before) per URL.
--! include lib-crawl-queues.lua
--! include lib-crawl-enqueue.lua
local maxPerHost = tonumber(ARGV[2])
local maxInFlight = tonumber(ARGV[3])
local recover = ARGV[4] == 'recover'
local REC = P .. 'recovered'
local now = now_ms()
if recover then
  if now - tonumber(ARGV[5]) < tonumber(ARGV[6]) then return {-2} end
  redis.call('ZREMRANGEBYSCORE', REC, '-inf', now - 86400000)
  if redis.call('ZADD', REC, 'NX', now, ARGV[7]) == 0 then return {-1} end
  redis.call('HINCRBY', S, 'recovered', tonumber(ARGV[8]))
end
local out = {}
local i = 7
while i <= #ARGV do
  local c = tonumber(ARGV[i + 1])
  local late = (not recover) and redis.call('ZSCORE', REC, ARGV[i])
  if late then redis.call('HINCRBY', S, 'late', c) end
  for j = 0, c - 1 do
    if late then
      out[#out + 1] = 3
    else
      out[#out + 1] = enqueue(ARGV[i + 2 + 2 * j], ARGV[i + 3 + 2 * j], maxPerHost, maxInFlight)
    end
  end
  i = i + 2 + 2 * c
end
return out
