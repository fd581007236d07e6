--[[
  stream/handoff: acks one delivery and enqueues the messages its exchange sent to other stream-mode queues, in one
  step: either the ack and every enqueue happen, or nothing does. The delivery's lease token (its delivery count,
  pending with this consumer) fences it: an exchange whose entry was taken over or delivered again enqueues
  nothing. The target queues are on the same Redis (on a Cluster, in the same slot) as the consumed one.

  KEYS[1..7] the consumed queue's keys, as stream/ack's (see stream/ack.lua)
  KEYS[8] the requester's inbox, when the delivery is a request answered with this ack (r = 1; else r = 0 and
    there is no such key)
  KEYS[8 + r + 7(q-1) .. 7 + r + 7q] the keys of the q-th target queue, as stream/enqueue's (see stream/enqueue.lua),
    its meta hash last

  ARGV[1..5] group, consumer, idempotency window, deletion rule and entry reference prefix, as stream/ack's
  ARGV[6], ARGV[7], ARGV[8] entry id, lease token and message id of the delivery
  ARGV[9], ARGV[10] the reply and how long its inbox is kept, in ms (see includes/reply); "" and 0 for none
  then for each target queue, in the order of its keys: its approximate MAXLEN (0 for none), the shard count of
  its endpoint, which its marker must match ('' for no check; see includes/shards), the number m of its
  messages, then 4m arguments, 4 per message as stream/enqueue's
  ARGV[#ARGV] the deadline, server time in ms (see includes/time)

  Returns {1, codes of the first target queue, codes of the second, ...} when the delivery was acked, each code
  as stream/enqueue's (1 stored, 0 a no-op: the id is known), and the reply appended to the inbox; {0} when it
  was refused: the delivery is not pending with this consumer at that count; nothing is written then.

  Fails with a DEADLINE error, before it reads or writes anything, when Redis runs it after its deadline.
  Fails with an error, before it writes anything, for a key of the wrong type, more than 1000 messages for one
  queue (includes/limits), or a delay argument stream/enqueue refuses; or, with the error 'SHARDS <recorded>
  <resharding to, or 0> <count> <meta>', for a target whose marker does not match its shard count
  (includes/shards).
]]
--- @include "includes/limits"
--- @include "includes/reply"
--- @include "includes/shards"
--- @include "includes/time"
--- @include "stream/includes/ack_steps"
--- @include "stream/includes/enqueue_steps"

local ACK_KEYS, ENQUEUE_KEYS = 7, 7

local now = now_before(ARGV[#ARGV])
local ack = stream_ack_plan(KEYS, ARGV[1], ARGV[2], 6, 8)
if ack.codes[1] == 0 then
  return {0}
end
local inbox = ARGV[9] ~= '' and KEYS[ACK_KEYS + 1] or nil
if inbox then
  reply_check(inbox)
end
local targets, at = {}, 11
for first = ACK_KEYS + (inbox and 2 or 1), #KEYS, ENQUEUE_KEYS do
  local k = {unpack(KEYS, first, first + ENQUEUE_KEYS - 1)}
  local refused = ARGV[at + 1] ~= '' and shards_refusal(k[ENQUEUE_KEYS], ARGV[at + 1])
  if refused then
    return refused
  end
  local maxLen, m = ARGV[at], tonumber(ARGV[at + 2])
  require_batch(m, 'handoff')
  targets[#targets + 1] = {keys = k, maxLen = maxLen, plan = stream_enqueue_plan(k, ARGV, at + 3, at + 2 + 4 * m, now)}
  at = at + 3 + 4 * m
end
-- the enqueues first: their HSET or XADD is what Redis refuses when it is out of memory, before anything is written
local reply = {1}
for _, target in ipairs(targets) do
  stream_enqueue_write(target.keys, target.plan, target.maxLen, now)
  reply[#reply + 1] = target.plan.codes
end
if inbox then
  reply_write(inbox, ARGV[9], tonumber(ARGV[10]))
end
stream_ack_write(KEYS, ARGV[1], ack, tonumber(ARGV[3]), ARGV[4], ARGV[5], now)
return reply
