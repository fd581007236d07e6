--[[
  stream/enqueue: adds a batch of messages to the stream (or to the delayed set), each idempotently on its id.

  The entry's fields are: body, id, headers (only when there are headers), enqueued (server time of the first
  enqueue, ms) and, last, expires (server time, ms, after which it is not delivered; only for a message with a
  time to live: see claim).

  KEYS[1] stream       the stream consumers read
  KEYS[2] dead         the dead-letter stream
  KEYS[3] ids          hash message id -> entry id in the stream, or 'd:' .. entry id in the dead stream
  KEYS[4] acked        zset message id -> time until which the acked id is remembered (ms)
  KEYS[5] delayed      zset message id -> due time (ms)
  KEYS[6] delayed-msg  hash message id -> cmsgpack {body, headers, enqueued[, expires]} of a delayed message
  KEYS[7] meta         hash of the queue's own settings, whose shard count marker the endpoint's count must match
                       (see includes/shards)

  ARGV[1] approximate MAXLEN for the XADDs, 0 for none
  ARGV[4k-2] id of the k-th message
  ARGV[4k-1] its body bytes
  ARGV[4k]   its headers JSON, '' for none
  ARGV[4k+1] its delay in ms, 0 for now, followed by '|' and its time to live in ms when it has one ('0|60000');
             the time to live counts from now, not from the end of the delay
  ARGV[last] optional, after the messages: the deadline, server time in ms (see includes/time)

  With 7 keys, ARGV[2] is the endpoint's shard count, and the messages' arguments start at ARGV[3] (4k-1 on): a
  count that the marker does not match (a reshard changed it, or one is under way) fails the call before it
  writes anything, with the error 'SHARDS <recorded> <resharding to, or 0> <count> <meta>' (includes/shards).

  Returns one code per message, in order: 1 stored, 0 when the id is known: in the stream (undelivered or
  pending), delayed, dead, acked within the idempotency window, or earlier in the same batch. An id whose entry
  was trimmed away counts as unknown.

  Fails with a DEADLINE error, before it reads or writes anything, when Redis runs it after its deadline.
  Fails with an error, before it writes anything, for a batch of more than 1000 (includes/limits), a key of the
  wrong type or a delay argument of another shape.
]]
--- @include "includes/limits"
--- @include "includes/shards"
--- @include "includes/time"
--- @include "stream/includes/enqueue_steps"

local first = KEYS[7] and 3 or 2
local last = (#ARGV - first + 1) % 4 == 1 and #ARGV - 1 or #ARGV
local now = now_before(ARGV[last + 1])
if KEYS[7] then
  local refused = shards_refusal(KEYS[7], ARGV[2])
  if refused then
    return refused
  end
end
require_batch((last - first + 1) / 4, 'enqueue')
local plan = stream_enqueue_plan(KEYS, ARGV, first, last, now)
stream_enqueue_write(KEYS, plan, ARGV[1], now)
return plan.codes
