-- Library (serve): the key names of one shard of a serve crawl generation, from ARGV[1], its key
-- prefix P (serve:{serve.NS.GEN.S}:, so in a cluster every key of the shard, its Sieve's too, lies
-- in one slot). What each key holds: lib-serve-shard.lua, which every script over a live shard
-- includes; the script that drops a shard includes this one alone (it runs past the tombstone).
local P = ARGV[1]
local QUEUES = P .. 'queues'
local READY = P .. 'ready'
local SALTS = P .. 'salts'
local SKIPPED = P .. 'skipped'
-- Totals GetStats reads rather than every queue (serve-stats.lua), kept by each script that
-- changes them: TOTALS (pending: URLs waiting or leased; completed: the queues' completed, summed;
-- kept: '1' once they were counted from every queue), ACTIVE (the queues with URLs pending),
-- LEASES (per lease end, in epoch seconds, the URLs leased until then) and LEASE_ENDS (those ends,
-- each scored by itself; GetStats drops the past ones, whose leases no longer count).
local TOTALS = P .. 'totals'
local ACTIVE = P .. 'active'
local LEASES = P .. 'leases'
local LEASE_ENDS = P .. 'lease-ends'
-- Scores in READY count milliseconds from here (2026-01-01T00:00Z), so that their fraction (the
-- queue's turn, lib-serve-shard.lua) keeps its bits.
local READY_EPOCH = 1767225600000
local function qk(k) return P .. 'q:' .. k end
local function wk(k) return P .. 'w:' .. k end
local function lk(k) return P .. 'l:' .. k end
local function dk(k) return P .. 'd:' .. k end
local function mk(k) return P .. 'm:' .. k end
local function tk(k) return P .. 't:' .. k end
local function ck(k) return P .. 'c:' .. k end
-- The URLs pending in queue k: waiting or leased.
local function pending(k)
  return redis.call('ZCARD', wk(k)) + redis.call('ZCARD', lk(k))
end
