--[[
  list/reshard-read: reads one chunk of a shard's messages as a reshard moves them, or ('check') what stops it.

  KEYS[1] ready          list of ids
  KEYS[2] delayed        zset id -> due time
  KEYS[3] dead           zset id -> time available
  KEYS[4] acked          zset id -> time until which the acked id is remembered
  KEYS[5] messages       hash id -> "enqueuedAt|payload"
  KEYS[6] leases         hash id -> "deliveries|leaseToken[|credits|flags]"
  KEYS[7] failure        hash id -> last failure
  KEYS[8] inflight       zset id -> lease deadline
  KEYS[9] dead-inflight  zset id -> lease deadline
  KEYS[10] claimers      zset claimant id -> server time (ms) until which it counts as live
  KEYS[11] extras        hash id -> "expiresAt||" of a message sent with a time to live

  ARGV[1] 'check', or the section to read: 'ready', 'delayed', 'dead' or 'acked'
  ARGV[2] rank of the first message to read (from the head of the list, the lowest score of a set)
  ARGV[3] most messages to read

  Returns: for 'check', {messages in flight, dead letters in flight, live claimants, ready messages}
    for a section, 6 per message: id, score ('' for ready), record, leases-hash value, failure, extras (false: none)
  Errors: 'ERR reshard read of <n> in one call; at most 1000' for a chunk of more than 1000.]]
include("includes/limits", "includes/time")

if ARGV[1] == 'check' then
  return {redis.call('ZCARD', KEYS[8]), redis.call('ZCARD', KEYS[9]), redis.call('ZCOUNT', KEYS[10], now_ms(), '+inf'),
    redis.call('LLEN', KEYS[1])}
end
local first, count = tonumber(ARGV[2]), tonumber(ARGV[3])
require_batch(count, 'reshard read')
local ids, scores = {}, {}
if ARGV[1] == 'ready' then
  ids = redis.call('LRANGE', KEYS[1], first, first + count - 1)
else
  local key = ({delayed = KEYS[2], dead = KEYS[3], acked = KEYS[4]})[ARGV[1]]
  local range = redis.call('ZRANGE', key, first, first + count - 1, 'WITHSCORES')
  for i = 1, #range, 2 do
    ids[#ids + 1] = range[i]
    scores[#scores + 1] = range[i + 1]
  end
end
if #ids == 0 then
  return {}
end
local records, leases, failures, extras = {}, {}, {}, {}
if ARGV[1] ~= 'acked' then
  records = redis.call('HMGET', KEYS[5], unpack(ids))
  leases = redis.call('HMGET', KEYS[6], unpack(ids))
  failures = redis.call('HMGET', KEYS[7], unpack(ids))
  extras = redis.call('HMGET', KEYS[11], unpack(ids))
end
local out = {}
for k, id in ipairs(ids) do
  local n = #out
  out[n + 1] = id
  out[n + 2] = scores[k] or ''
  out[n + 3] = records[k] or false
  out[n + 4] = leases[k] or false
  out[n + 5] = failures[k] or false
  out[n + 6] = extras[k] or false
end
return out
