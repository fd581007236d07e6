--[[
  stream/enqueue: adds a batch of messages to the stream (or to the delayed set), each idempotently on its id.

  KEYS[1] stream       the stream consumers read; fields body, id, [headers], enqueued (ms), [expires (ms), last]
  KEYS[2] dead         the dead-letter stream
  KEYS[3] ids          hash message id -> entry id in the stream, or 'd:' .. entry id in the dead stream
  KEYS[4] acked        zset message id -> time until which the acked id is remembered (ms)
  KEYS[5] delayed      zset message id -> due time (ms)
  KEYS[6] delayed-msg  hash message id -> cmsgpack {body, headers, enqueued[, expires]} of a delayed message
  KEYS[7] meta         optional: hash of the queue's own settings, whose shard count marker must match ARGV[2]

  ARGV[1] approximate MAXLEN for the XADDs, 0 for none
  ARGV[2] with KEYS[7] only: the endpoint's shard count; the messages' arguments then start at ARGV[3] (4k-1 on)
  ARGV[4k-2] id of the k-th message
  ARGV[4k-1] its body bytes
  ARGV[4k]   its headers JSON, '' for none
  ARGV[4k+1] its delay in ms (0: now), then '|' and its time to live in ms from now when it has one: '0|60000'
  ARGV[last] optional, after the messages: the deadline, server time in ms

  Returns: one code per message: 1 stored, 0 id known (in a stream, delayed, acked in the window, or in the batch)
  Errors, before any write: 'DEADLINE the call ran <n> ms after its deadline ...' when run late (before any read)
    'SHARDS <recorded> <resharding to, or 0> <count> <meta>' for a count the marker does not match
    'ERR enqueue of <n> in one call; at most 1000' or WRONGTYPE for a key of the wrong type
    "ERR enqueue: the delay of message <id> is '<arg>', not ms[|ms]"]]
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
