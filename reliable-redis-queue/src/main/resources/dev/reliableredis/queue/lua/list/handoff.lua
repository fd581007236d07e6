--[[
  list/handoff: acks one delivery and enqueues the messages its exchange sent to other queues, in one step: either the
  ack and every enqueue happen, or nothing does. The delivery's lease token fences it: an exchange whose lease was
  lost (the message was returned or claimed again) enqueues nothing, so a message is handed on once however often
  it runs. The target queues are on the same Redis (on a Cluster, in the same slot) as the consumed one.

  KEYS[1..13] the consumed queue's keys, as ack's (see list/ack.lua)
  KEYS[14] the requester's inbox, when the delivery is a request answered with this ack (r = 1; else r = 0 and
    there is no such key)
  KEYS[14 + r + 13(q-1) .. 13 + r + 13q] the keys of the q-th target queue, as enqueue's (see list/enqueue.lua),
    its meta hash last

  ARGV[1] idempotency window of the consumed queue in ms (0: the id is forgotten at once)
  ARGV[2], ARGV[3] id and lease token of the delivery
  ARGV[4], ARGV[5] the reply and how long its inbox is kept, in ms (see includes/reply); "" and 0 for none
  then for each target queue, in the order of its keys: the shard count of its endpoint, which its marker must
  match ('' for no check; see includes/shards), the number m of its messages, then 3m arguments, 3 per message
  as enqueue's
  ARGV[#ARGV] the deadline, server time in ms (see includes/time)

  Returns {1, codes of the first target queue, codes of the second, ...} when the delivery was acked, each code
  as enqueue's (1 stored, 0 a no-op: the id is known), and the reply appended to the inbox; {0} when it was
  refused: the token is not the current lease, or the message no longer exists; nothing is written then.

  Fails with a DEADLINE error, before it reads or writes anything, when Redis runs it after its deadline.
  Fails with an error, before it writes anything, for a key of the wrong type, more than 1000 messages for one
  queue (includes/limits), or a message enqueue refuses; or, with the error 'SHARDS <recorded> <resharding to,
  or 0> <count> <meta>', for a target whose marker does not match its shard count (includes/shards).
]]
--- @include "list/includes/ack_steps"
--- @include "list/includes/enqueue_steps"
--- @include "includes/limits"
--- @include "includes/reply"
--- @include "includes/shards"
--- @include "includes/time"

local ACK_KEYS, ENQUEUE_KEYS = 13, 13

local now = now_before(ARGV[#ARGV])
-- the enqueues write before the ack
local ack = ack_plan(KEYS, 2, 3, true)
if ack.codes[1] == 0 then
  return {0}
end
local inbox = ARGV[4] ~= '' and KEYS[ACK_KEYS + 1] or nil
if inbox then
  reply_check(inbox)
end
local targets, at = {}, 6
for first = ACK_KEYS + (inbox and 2 or 1), #KEYS, ENQUEUE_KEYS do
  local k = {unpack(KEYS, first, first + ENQUEUE_KEYS - 1)}
  local refused = ARGV[at] ~= '' and shards_refusal(k[ENQUEUE_KEYS], ARGV[at])
  if refused then
    return refused
  end
  local m = tonumber(ARGV[at + 1])
  require_batch(m, 'handoff')
  targets[#targets + 1] = {keys = k, plan = m > 0
    and enqueue_plan(k, ARGV, at + 2, at + 1 + ENQUEUE_STRIDE * m, now) or {codes = {}, records = {}}}
  at = at + 2 + ENQUEUE_STRIDE * m
end
-- the enqueues first: their HSET is what Redis refuses when it is out of memory, before anything is written
local reply = {1}
for _, target in ipairs(targets) do
  enqueue_write(target.keys, target.plan)
  reply[#reply + 1] = target.plan.codes
end
if inbox then
  reply_write(inbox, ARGV[4], tonumber(ARGV[5]))
end
ack_write(KEYS, ack, tonumber(ARGV[1]), now)
return reply
