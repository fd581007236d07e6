--[[
  list/ack: settles a batch of deliveries as done, each checked on its own lease token.

  KEYS[1] inflight  zset id -> lease deadline (the dead-inflight set for dead letters)
  KEYS[2] messages  hash id -> "enqueuedAt|payload"
  KEYS[3] leases    hash id -> "deliveries|leaseToken[|credits|flags]"
  KEYS[4] failure   hash id -> last failure
  KEYS[5] acked     zset id -> time until which the acked id is remembered
  KEYS[6] capped    exists while a claim found the queue at its maxInflight
  KEYS[7] wake      list of wake-up tokens for idle consumers
  KEYS[8] extras    hash id -> "expiresAt|level|groupId" of a message sent with any of them
  KEYS[9] groups    hash group id -> id of its current message
  KEYS[10] grouped  zset of the groups' lines
  KEYS[11] ready    list of ids

  ARGV[1] idempotency window in ms (0: the id is forgotten at once)
  ARGV[2k], ARGV[2k+1]  id and lease token of the k-th delivery

  Returns: one code per delivery: 1 acked, 0 refused (not the current lease token, or the message is gone)
  Errors: 'ERR ack of <n> in one call; at most 1000' for more than 1000 deliveries, before any write.]]
include("list/includes/ack_steps", "includes/limits", "includes/time")

require_batch((#ARGV - 1) / 2, 'ack')
local window = tonumber(ARGV[1])
local plan = ack_plan(KEYS, 2, #ARGV)
ack_write(KEYS, plan, window, window > 0 and now_ms() or 0)
return plan.codes
