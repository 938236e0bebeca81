-- Library (serve): the prelude of a script over one shard of a serve crawl generation. KEYS[1] is
-- the shard's tombstone (P .. 'gone', set when the crawl was deleted), ARGV[1] its key prefix P
-- (serve:{serve.NS.GEN.S}:, so in a cluster every key of the shard, its Sieve's too, lies in one
-- slot). Answers {-2} and changes nothing when the shard is gone. Per queue K: q:K (salt,
-- completed, blocked, delay, limit, last), w:K (waiting URLs by due time), l:K (leased URLs by
-- lease end), d:K (the due time of leased URLs), m:K (metadata, Base64); queues (queue keys by
-- turn), seq, salt, stats (counters).
local P = ARGV[1]
if redis.call('EXISTS', KEYS[1]) == 1 then return {-2} end
local QUEUES = P .. 'queues'
local function qk(k) return P .. 'q:' .. k end
local function wk(k) return P .. 'w:' .. k end
local function lk(k) return P .. 'l:' .. k end
local function dk(k) return P .. 'd:' .. k end
local function mk(k) return P .. 'm:' .. k end
local function candidates(key)
  if key == '' then return redis.call('ZRANGE', QUEUES, 0, -1) end
  if redis.call('EXISTS', qk(key)) == 1 then return {key} end
  return {}
end
