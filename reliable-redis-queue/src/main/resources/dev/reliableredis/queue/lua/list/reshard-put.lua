--[[
  list/reshard-put: stores the messages and acked ids a reshard moves to this shard, as they were, once each.

  KEYS[1] ready     list of ids
  KEYS[2] delayed   zset id -> time it becomes ready (ms)
  KEYS[3] dead      zset id -> time available to a dead-letter consumer
  KEYS[4] acked     zset id -> time until which the acked id is remembered (ms)
  KEYS[5] messages  hash id -> "enqueuedAt|payload"
  KEYS[6] leases    hash id -> "deliveries|leaseToken[|credits|flags]"
  KEYS[7] failure   hash id -> last failure
  KEYS[8] wake      list of wake-up tokens for idle consumers
  KEYS[9] extras    hash id -> "expiresAt||" of a message sent with a time to live

  ARGV[7k-6 .. 7k] the k-th message: its section ('ready', 'delayed', 'dead' or 'acked'), id, score ('' for ready),
    record ('' for an acked id), leases-hash value, failure and extras value ('' for none)

  Returns: the number of messages and ids stored.
  Errors: 'ERR reshard put of <n> in one call; at most 1000' for more than 1000 messages, before any write.]]
include("includes/limits", "includes/types", "includes/wake")

require_batch(#ARGV / 7, 'reshard put')

require_type(KEYS[1], 'list')
require_types('zset', KEYS[2], KEYS[3], KEYS[4])
require_types('hash', KEYS[5], KEYS[6], KEYS[7], KEYS[9])
local stored, ready = 0, false
for i = 1, #ARGV, 7 do
  local section, id, score = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  if section == 'acked' then
    stored = stored + redis.call('ZADD', KEYS[4], 'GT', 'CH', score, id)
  elseif redis.call('HEXISTS', KEYS[5], id) == 0 and not redis.call('ZSCORE', KEYS[4], id) then
    redis.call('HSET', KEYS[5], id, ARGV[i + 3])
    if ARGV[i + 4] ~= '' then
      redis.call('HSET', KEYS[6], id, ARGV[i + 4])
    end
    if ARGV[i + 5] ~= '' then
      redis.call('HSET', KEYS[7], id, ARGV[i + 5])
    end
    if ARGV[i + 6] ~= '' then
      redis.call('HSET', KEYS[9], id, ARGV[i + 6])
    end
    if section == 'ready' then
      redis.call('RPUSH', KEYS[1], id)
      ready = true
    else
      redis.call('ZADD', section == 'delayed' and KEYS[2] or KEYS[3], score, id)
    end
    stored = stored + 1
  end
end
if ready then
  wake(KEYS[8])
end
return stored
