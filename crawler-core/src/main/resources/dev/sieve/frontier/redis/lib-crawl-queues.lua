-- Library (crawl): the crawl's queue keys under prefix P = ARGV[1] (stats hash S = KEYS[1]), Redis's
-- clock in epoch millis, and schedule(h, maxInFlight), which puts host h in the schedule when it
-- can be leased from.
local P = ARGV[1]
local S = KEYS[1]
local SCHED = P .. 'sched'
local LEASES = P .. 'leases'
local LH = P .. 'lh'
local LE = P .. 'le'
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function hkey(h) return P .. 'h:' .. h end
local function qkey(h) return P .. 'q:' .. h end
local function schedule(h, maxInFlight)
  local f = redis.call('HMGET', hkey(h), 'inflight', 'next', 'skipped')
  local inflight = tonumber(f[1] or '0')
  local nxt = tonumber(f[2] or '0')
  if f[3] == '1' or inflight >= maxInFlight or redis.call('LLEN', qkey(h)) == 0 then
    redis.call('ZREM', SCHED, h)
  else
    redis.call('ZADD', SCHED, nxt, h)
  end
end
