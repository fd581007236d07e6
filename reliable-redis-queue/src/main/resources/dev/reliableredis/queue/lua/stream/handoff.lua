--[[
  stream/handoff: acks one delivery and enqueues what its exchange sent to other stream-mode queues, all or nothing.

  KEYS[1..7] the consumed queue's keys, as stream/ack's
  KEYS[8] the requester's inbox (list), only when ARGV[9] is a reply (r = 1; else r = 0)
  KEYS[8 + r + 7(q-1) .. 7 + r + 7q] the keys of the q-th target queue, as stream/enqueue's, its meta hash last

  ARGV[1..5] group, consumer, idempotency window, deletion rule and entry reference prefix, as stream/ack's
  ARGV[6], ARGV[7], ARGV[8] entry id, lease token and message id of the delivery
  ARGV[9], ARGV[10] the reply and how long its inbox is kept, in ms; '' and 0 for none
  ARGV[11..] per target queue, in the order of its keys: MAXLEN (0: none), shard count ('' for no check), the number
    m of its messages, then 4m arguments as stream/enqueue's
  ARGV[#ARGV] the deadline, server time in ms

  Returns: {1, codes of the first target queue, of the second, ...} when acked (codes as stream/enqueue's)
    {0} when refused (not pending with this consumer at that count); nothing is written then
  Errors, before any write: 'DEADLINE the call ran <n> ms after its deadline ...' when run late (before any read)
    'ERR handoff of <n> in one call; at most 1000' for one target queue, or WRONGTYPE for a key of the wrong type
    "ERR enqueue: the delay of message <id> is '<arg>', not ms[|ms]"
    'SHARDS <recorded> <resharding to, or 0> <count> <meta>' for a target whose marker does not match]]
include("includes/limits", "includes/reply", "includes/shards", "includes/time", "stream/includes/ack_steps")
include("stream/includes/enqueue_steps")

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
  require_shards(k[ENQUEUE_KEYS], ARGV[at + 1])
  local maxLen, m = ARGV[at], tonumber(ARGV[at + 2])
  require_batch(m, 'handoff')
  targets[#targets + 1] = {keys = k, maxLen = maxLen, plan = stream_enqueue_plan(k, ARGV, at + 3, at + 2 + 4 * m, now)}
  at = at + 3 + 4 * m
end
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
