--[[
  ack: settles a batch of deliveries as done. Each is checked on its own lease token, so one stale entry does not
  affect the others in the batch; each step is one command for the whole batch.

  KEYS[1] inflight  zset id -> lease deadline (the dead-inflight set for dead letters)
  KEYS[2] messages  hash id -> "enqueuedAt|payload"
  KEYS[3] leases    hash id -> "deliveries|leaseToken[|credits|flags]"
  KEYS[4] failure   hash id -> last failure
  KEYS[5] acked     zset id -> time until which the acked id is remembered (ms)
  KEYS[6] capped    exists while a claim found the queue at its maxInflight (see includes/capacity)
  KEYS[7] wake      list of wake-up tokens for idle consumers (see includes/wake)
  KEYS[8] expires   hash id -> server time (ms) after which the message is not delivered (see enqueue)
  KEYS[9] priority  hash id -> priority level of a message sent with one (see includes/priority)
  KEYS[10] group    hash id -> group id of a message sent with one (see includes/group)
  KEYS[11] groups   hash group id -> id of its current message
  KEYS[12] grouped  zset of the groups' lines
  KEYS[13] ready    list of ids

  ARGV[1]  idempotency window in ms (0: the id is forgotten at once)
  ARGV[2k], ARGV[2k+1]  id and lease token of the k-th delivery

  An ack that settles anything wakes a consumer when a claim found the queue at its maxInflight
  (includes/capacity). An ack of a group's current message makes the next of the group ready (includes/group).

  Returns an array with one code per delivery:
    1 acked
    0 refused: the token is not the current lease (the lease expired and the message was returned or claimed
      again), or the message no longer exists

  Fails with an error, before it writes anything, for a batch of more than 1000 (includes/limits).
]]
--- @include "includes/time"
--- @include "includes/lease"
--- @include "includes/types"
--- @include "includes/limits"
--- @include "includes/wake"
--- @include "includes/capacity"
--- @include "includes/group"

require_batch((#ARGV - 1) / 2, 'ack')

require_type(KEYS[2], 'hash')
require_type(KEYS[4], 'hash')
require_type(KEYS[5], 'zset')
require_type(KEYS[7], 'list')
require_type(KEYS[8], 'hash')
require_type(KEYS[9], 'hash')
local window = tonumber(ARGV[1])
local ids, held = held_leases(KEYS[1], KEYS[3], 2, 2)
local codes, done, remember = {}, {}, {}
local until_ms = window > 0 and now_ms() + window
for k, id in ipairs(ids) do
  codes[k] = held[k] and 1 or 0
  if held[k] then
    done[#done + 1] = id
    remember[#remember + 1] = until_ms
    remember[#remember + 1] = id
  end
end
if #done > 0 then
  local gids, grouped = groups_of(KEYS[10], KEYS[11], KEYS[12], KEYS[13], done)
  -- ZREM first: on a Redis at its maxmemory only a script whose first write cannot need memory runs
  redis.call('ZREM', KEYS[1], unpack(done))
  redis.call('HDEL', KEYS[2], unpack(done))
  redis.call('HDEL', KEYS[3], unpack(done))
  redis.call('HDEL', KEYS[4], unpack(done))
  redis.call('HDEL', KEYS[8], unpack(done))
  redis.call('HDEL', KEYS[9], unpack(done))
  if until_ms then
    redis.call('ZADD', KEYS[5], unpack(remember))
  end
  capacity_freed(KEYS[6], KEYS[7])
  if grouped and groups_move_on(KEYS[13], KEYS[10], KEYS[11], KEYS[12], done, gids, false, false) > 0 then
    wake(KEYS[7])
  end
end
return codes
