--[[
  claim: takes up to ARGV[2] ready messages under a lease.

  Each claimed message moves to the in-flight set with deadline = server time + visibility timeout, its delivery
  count goes up by one, and it gets a fresh lease token: ack, nack and extend are refused for any other token. An
  id in the ready list without a stored message, or with an unreadable record or delivery state (written there by
  something else), is dropped. Each step is one command for the whole batch.

  KEYS[1] ready     list of ids
  KEYS[2] inflight  zset id -> lease deadline (ms)
  KEYS[3] messages  hash id -> "enqueuedAt|payload" (see enqueue)
  KEYS[4] leases    hash id -> "deliveries|leaseToken" (see includes/lease)
  KEYS[5] seq       counter the lease tokens are drawn from
  KEYS[6] wake      list of wake-up tokens for idle consumers (see includes/wake)

  ARGV[1] visibility timeout in ms
  ARGV[2] most messages to claim

  Returns a flat array, 5 entries per message, then the number of ready messages left behind:
    id, lease token, delivery count, record ("enqueuedAt|payload"), nil
  (the 5th, the failure, is only set by claim-dead; the shape is shared). When ready messages are left behind, a
  wake-up token is left for another consumer.
]]
--- @include "includes/wake"
--- @include "includes/time"
--- @include "includes/lease"
--- @include "includes/types"

require_type(KEYS[2], 'zset')
require_type(KEYS[3], 'hash')
require_type(KEYS[4], 'hash')
require_counter(KEYS[5])
require_type(KEYS[6], 'list')
local ids = redis.call('LPOP', KEYS[1], tonumber(ARGV[2]))
if not ids then
  return {0}
end
local left = redis.call('LLEN', KEYS[1])
if left > 0 then
  wake(KEYS[6])
end
local records = redis.call('HMGET', KEYS[3], unpack(ids))
local states = redis.call('HMGET', KEYS[4], unpack(ids))
local deadline = now_ms() + tonumber(ARGV[1])
local firstToken = redis.call('INCRBY', KEYS[5], #ids) - #ids
local out, leases, inflight = {}, {}, {}
for i, id in ipairs(ids) do
  local record = records[i]
  local deliveries = deliveries_of(states[i])
  if record and deliveries and string.find(record, '^%d+|%d+|') then
    deliveries = deliveries + 1
    local token = string.format('%d', firstToken + i)
    leases[#leases + 1] = id
    leases[#leases + 1] = lease_value(deliveries, token)
    inflight[#inflight + 1] = deadline
    inflight[#inflight + 1] = id
    local n = #out
    out[n + 1] = id
    out[n + 2] = token
    out[n + 3] = deliveries
    out[n + 4] = record
    out[n + 5] = false
  end
end
if #leases > 0 then
  redis.call('HSET', KEYS[4], unpack(leases))
  redis.call('ZADD', KEYS[2], unpack(inflight))
end
out[#out + 1] = left
return out
