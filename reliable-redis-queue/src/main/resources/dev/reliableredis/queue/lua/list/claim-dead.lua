--[[
  list/claim-dead: takes up to ARGV[2] dead letters whose time has come, under a lease, for a dead-letter consumer.

  KEYS[1] dead           zset id -> time available to a dead-letter consumer
  KEYS[2] dead-inflight  zset id -> lease deadline
  KEYS[3] messages       hash id -> "enqueuedAt|payload"
  KEYS[4] leases         hash id -> "deliveries|leaseToken[|credits|flags]"
  KEYS[5] failure        hash id -> last failure
  KEYS[6] extras         hash id -> "expiresAt|level|groupId" of a message sent with any of them

  ARGV[1] visibility timeout in ms
  ARGV[2] most messages to claim
  ARGV[3] the lease token of what the claim takes, one no other claim has

  Returns: {id, lease token, delivery count (unchanged), record, failure, ... 5 per message, then 0}
  Errors: 'ERR claim of <n> in one call; at most 1000' for more than 1000 messages, before any write.]]
include("list/includes/extras", "list/includes/lease", "includes/limits", "includes/time", "includes/types")

require_batch(tonumber(ARGV[2]), 'claim')

require_type(KEYS[2], 'zset')
require_types('hash', KEYS[3], KEYS[4], KEYS[5], KEYS[6])
local now = now_ms()
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
if #ids == 0 then
  return {0}
end
redis.call('ZREM', KEYS[1], unpack(ids))
local records = redis.call('HMGET', KEYS[3], unpack(ids))
local states = redis.call('HMGET', KEYS[4], unpack(ids))
local failures = redis.call('HMGET', KEYS[5], unpack(ids))
local extras = extras_of(KEYS[6], ids)
local deadline = now + tonumber(ARGV[1])
local out, leases, inflight = {}, {}, {}
for i, id in ipairs(ids) do
  local record = records[i]
  local deliveries = deliveries_of(states[i])
  if record and deliveries then
    leases[#leases + 1] = id
    leases[#leases + 1] = lease_value(deliveries, ARGV[3], 0, lease_flags(false, false, extras[i], failures[i]))
    inflight[#inflight + 1] = deadline
    inflight[#inflight + 1] = id
    local n = #out
    out[n + 1] = id
    out[n + 2] = ARGV[3]
    out[n + 3] = deliveries
    out[n + 4] = record
    out[n + 5] = failures[i]
  end
end
if #leases > 0 then
  redis.call('HSET', KEYS[4], unpack(leases))
  redis.call('ZADD', KEYS[2], unpack(inflight))
end
out[#out + 1] = 0
return out
