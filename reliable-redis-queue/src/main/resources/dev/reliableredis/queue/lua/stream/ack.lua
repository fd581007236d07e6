--[[
  stream/ack: settles a batch of deliveries as done. A delivery is settled only while it is still this
  consumer's with the same delivery count (its lease token): an entry taken over by another consumer,
  or delivered again, refuses the late ack. Each step is one command for the whole batch (the tokens are
  checked against one read of the consumer's pending entries).

  After the XACK the entry is deleted when ARGV[4] is 'all-groups' and every other group of the stream
  has read and acked it too, or at once when ARGV[4] is 'always' (dead letters); 'never' keeps it.

  KEYS[1] stream  the stream read (the dead-letter stream for a dead-letter consumer)
  KEYS[2] retry   zset entry id -> retry due time, of this group
  KEYS[3] ids     hash message id -> entry reference
  KEYS[4] acked   zset message id -> time until which the acked id is remembered (ms)
  KEYS[5] deliveries  hash entry id -> "batchedAt|credits|solo" of this group on KEYS[1]
  KEYS[6] capped  exists while a claim found the group at its maxInflight (see stream/includes/capacity)
  KEYS[7] freed   stream the claimants waiting at the cap read (see stream/includes/capacity)

  ARGV[1] group
  ARGV[2] consumer
  ARGV[3] idempotency window in ms (0: the id is forgotten at once)
  ARGV[4] 'all-groups', 'always' or 'never': when to delete the acked entry
  ARGV[5] how the id index refers to an entry of KEYS[1]: '' for the stream, 'd:' for the dead-letter stream
  ARGV[3k+3], ARGV[3k+4], ARGV[3k+5]  entry id, lease token (the delivery count) and message id of the k-th
          delivery

  Only a message id that the id index maps to the acked entry is remembered: an entry another program wrote has
  none, so nothing of it is remembered, and the entry is not read.

  An ack that settles anything wakes the consumers waiting at the group's maxInflight, if any.

  Returns an array with one code per delivery: 1 acked, 0 refused.

  Fails with an error, before it writes anything, for a batch of more than 1000 (includes/limits).
]]
--- @include "includes/limits"
--- @include "includes/time"
--- @include "stream/includes/ack_steps"

require_batch((#ARGV - 5) / 3, 'ack')
local plan = stream_ack_plan(KEYS, ARGV[1], ARGV[2], 6, #ARGV)
stream_ack_write(KEYS, ARGV[1], plan, tonumber(ARGV[3]), ARGV[4], ARGV[5], now_ms())
return plan.codes
