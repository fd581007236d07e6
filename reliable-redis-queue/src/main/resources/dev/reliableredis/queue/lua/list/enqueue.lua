--[[
  list/enqueue: stores a batch of messages and makes each ready (or delayed), idempotently on its id.

  A message is stored once, as one field of the messages hash keyed by its id, "enqueuedAt|payload"; only the id
  moves between the ready list and the sorted sets afterwards, so equal payloads never collide and a large body is
  never copied. The payload is "<length of the headers JSON>|<headers JSON><body>", so that the body is stored byte
  for byte, whatever it holds. A message with a time to live gets the server time it ends at in the expires hash,
  which claim checks.

  KEYS[1] ready     list of ids, consumed from the head
  KEYS[2] delayed   zset id -> due time (ms)
  KEYS[3] messages  hash id -> "enqueuedAt|payload"
  KEYS[4] acked     zset id -> time until which the acked id is remembered (ms)
  KEYS[5] wake      list of wake-up tokens for idle consumers (see includes/wake)
  KEYS[6] expires   hash id -> server time (ms) after which the message is not delivered any more
  KEYS[7] prioritized  zset id -> level and place of a ready message with a priority (see includes/priority)
  KEYS[8] priority  hash id -> priority level of a message sent with one
  KEYS[9] seq       counter the places in a level's line, and in a group's, are drawn from
  KEYS[10] group    hash id -> group id of a message sent with one (see includes/group)
  KEYS[11] groups   hash group id -> id of its current message
  KEYS[12] grouped  zset of the groups' lines (see includes/group)
  KEYS[13] meta     hash of the queue's own settings, whose shard count marker the endpoint's count must match
                    (see includes/shards)

  ARGV[3k-2] id of the k-th message
  ARGV[3k-1] its payload
  ARGV[3k]   its options: its delay in ms alone (0: ready now), or 'delay|ttl|level|group id': its time to live in
             ms from now (0 for none; a message with one gets an expires field), its priority level, 0 to 9 (one
             of another level than 4 gets a priority field and waits in the prioritized set instead of the ready
             list) and its group id ('' for none; one with a group id joins its group, includes/group)

  ARGV[last]  optional, after the messages: the deadline, server time in ms (see includes/time)

  With 13 keys, ARGV[1] is the endpoint's shard count, and the messages' arguments start at ARGV[2]: a count
  that the marker does not match (a reshard changed it, or one is under way) fails the call before it writes
  anything, with the error 'SHARDS <recorded> <resharding to, or 0> <count> <meta>' (includes/shards). A caller
  may pass fewer keys, down to the first 5, when its messages use none of the rest: KEYS[6] for a time to live,
  up to KEYS[9] for a priority, up to KEYS[12] for a group; the arguments are the same.

  Returns one code per message, in order: 1 stored, 0 a no-op because the id is already queued, delayed, in
  flight, dead, acked within the idempotency window, or earlier in the same batch.

  Fails with a DEADLINE error, before it reads or writes anything, when Redis runs it after its deadline.
  Fails with an error, before it writes anything, for a batch of more than 1000 (includes/limits), malformed
  options, a priority that is not 0 to 9, a message that needs a key the call did not pass, or a message with a
  group id and a delay or a priority (a group is delivered in its order).
]]
--- @include "list/includes/enqueue_steps"
--- @include "includes/limits"
--- @include "includes/shards"
--- @include "includes/time"

local first = KEYS[13] and 2 or 1
local last = (#ARGV - first + 1) % ENQUEUE_STRIDE == 1 and #ARGV - 1 or #ARGV
local now = now_before(ARGV[last + 1])
if KEYS[13] then
  local refused = shards_refusal(KEYS[13], ARGV[1])
  if refused then
    return refused
  end
end
require_batch((last - first + 1) / ENQUEUE_STRIDE, 'enqueue')
local plan = enqueue_plan(KEYS, ARGV, first, last, now)
enqueue_write(KEYS, plan)
return plan.codes
