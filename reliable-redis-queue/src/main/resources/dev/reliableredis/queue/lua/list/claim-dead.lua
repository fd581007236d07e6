--[[
  list/claim-dead: takes up to ARGV[2] dead letters whose time has come, under a lease, for a dead-letter consumer.

  Like claim, from the dead-letter set instead of the ready list. Only dead letters whose score (the time they became
  available) has passed are taken: a dead letter whose consumption failed waits there until its retry time. While
  claimed it sits in the dead-inflight set and counts as in flight. The delivery count is not raised: it says how
  often the message failed before it was dead-lettered. A malformed record (see includes/record) is returned as it
  is, for the consumer to deliver whole. A dead letter without a stored message, or with an unreadable delivery
  state, is dropped.

  KEYS[1] dead           zset id -> time available to a dead-letter consumer (ms)
  KEYS[2] dead-inflight  zset id -> lease deadline (ms)
  KEYS[3] messages       hash id -> "enqueuedAt|payload"
  KEYS[4] leases         hash id -> "deliveries|leaseToken[|credits|flags]"
  KEYS[5] failure        hash id -> last failure

  ARGV[1] visibility timeout in ms
  ARGV[2] most messages to claim
  ARGV[3] the claim's lease token, one no other claim has

  Returns a flat array, 5 entries per message, then 0:
    id, lease token, delivery count, record, failure

  Fails with an error, before it writes anything, for a batch of more than 1000 (includes/limits).
]]
--- @include "list/includes/lease"
--- @include "includes/limits"
--- @include "includes/time"
--- @include "includes/types"

require_batch(tonumber(ARGV[2]), 'claim')

require_type(KEYS[2], 'zset')
for _, key in ipairs({KEYS[3], KEYS[4], KEYS[5]}) do
  require_type(key, 'hash')
end
local now = now_ms()
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
if #ids == 0 then
  return {0}
end
-- ZREM first: on a Redis at its maxmemory only a script whose first write cannot need memory runs
redis.call('ZREM', KEYS[1], unpack(ids))
local records = redis.call('HMGET', KEYS[3], unpack(ids))
local states = redis.call('HMGET', KEYS[4], unpack(ids))
local failures = redis.call('HMGET', KEYS[5], unpack(ids))
local deadline = now + tonumber(ARGV[1])
local out, leases, inflight = {}, {}, {}
for i, id in ipairs(ids) do
  local record = records[i]
  local deliveries = deliveries_of(states[i])
  if record and deliveries then
    leases[#leases + 1] = id
    leases[#leases + 1] = lease_value(deliveries, ARGV[3])
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
