--[[
  list/handoff: acks one delivery and enqueues what its exchange sent to queues of its slot, all or nothing.

  KEYS[1..11] the consumed queue's keys, as list/ack.lua's
  KEYS[12] the requester's inbox, only when ARGV[4] holds a reply (then r = 1, else r = 0)
  KEYS[12 + r + 11(q-1) .. 11 + r + 11q] the q-th target queue's keys, as list/enqueue.lua's, its meta hash last

  ARGV[1] idempotency window of the consumed queue in ms (0: the id is forgotten at once)
  ARGV[2], ARGV[3] id and lease token of the delivery
  ARGV[4], ARGV[5] the reply and how long its inbox is kept, in ms; "" and 0 for none
  then per target queue: its endpoint's shard count ('' for no check), its message count m, 3m arguments as enqueue's
  ARGV[#ARGV] the deadline, server time in ms

  Returns: {1, the first target's codes, the second's, ...} acked, the reply appended (codes as enqueue's)
    {0} refused, nothing written: the token is not the current lease, or the message no longer exists
  Errors: 'DEADLINE the call ran <n> ms after its deadline ...' when Redis runs it late, before any read
    'SHARDS <recorded> <resharding to, or 0> <count> <meta>' when a target's marker does not match its count
    'ERR handoff of <n> in one call; at most 1000', WRONGTYPE, or enqueue's errors; all before any write]]
include("list/includes/ack_steps", "list/includes/enqueue_steps", "includes/limits", "includes/reply")
include("includes/shards", "includes/time")

local ACK_KEYS, ENQUEUE_KEYS = 11, 11

local now = now_before(ARGV[#ARGV])
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
  require_shards(k[ENQUEUE_KEYS], ARGV[at])
  local m = tonumber(ARGV[at + 1])
  require_batch(m, 'handoff')
  targets[#targets + 1] = {keys = k, plan = m > 0
    and enqueue_plan(k, ARGV, at + 2, at + 1 + ENQUEUE_STRIDE * m, now) or {codes = {}, records = {}}}
  at = at + 2 + ENQUEUE_STRIDE * m
end
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
