--[[
  stream/ack: settles a batch of deliveries as done, each checked on its own lease.

  KEYS[1] stream      the stream read (the dead-letter stream for a dead-letter consumer)
  KEYS[2] retry       zset entry id -> retry due time (ms), of this group
  KEYS[3] ids         hash message id -> entry reference
  KEYS[4] acked       zset message id -> time until which the acked id is remembered (ms)
  KEYS[5] deliveries  hash entry id -> "batchedAt|credits|solo" of this group on KEYS[1]
  KEYS[6] capped      exists while a claim found the group at its maxInflight
  KEYS[7] freed       stream the claimants waiting at the cap read

  ARGV[1], ARGV[2] group, consumer
  ARGV[3] idempotency window in ms (0: the id is forgotten at once)
  ARGV[4] when to delete the acked entry: 'all-groups', 'always' (dead letters) or 'never'
  ARGV[5] how the id index refers to an entry of KEYS[1]: '' for the stream, 'd:' for the dead-letter stream
  ARGV[3k+3], ARGV[3k+4], ARGV[3k+5]  entry id, lease token (delivery count) and message id of the k-th delivery

  Returns: one code per delivery: 1 acked, 0 refused (no longer this consumer's at that delivery count)
  Errors: 'ERR ack of <n> in one call; at most 1000' or WRONGTYPE for a key of the wrong type, before any write]]
include("includes/limits", "includes/time", "stream/includes/ack_steps")

require_batch((#ARGV - 5) / 3, 'ack')
local plan = stream_ack_plan(KEYS, ARGV[1], ARGV[2], 6, #ARGV)
stream_ack_write(KEYS, ARGV[1], plan, tonumber(ARGV[3]), ARGV[4], ARGV[5], now_ms())
return plan.codes
