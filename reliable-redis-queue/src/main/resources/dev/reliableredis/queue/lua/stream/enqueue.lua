--[[
  stream/enqueue: adds a batch of messages to the stream (or to the delayed set), each idempotently on its id.

  KEYS[1] stream       the stream consumers read; fields body, id, [headers], enqueued (ms), [expires (ms), last]
  KEYS[2] dead         the dead-letter stream
  KEYS[3] ids          hash message id -> entry id in the stream, or 'd:' .. entry id in the dead stream
  KEYS[4] acked        zset message id -> time until which the acked id is remembered (ms)
  KEYS[5] delayed      zset message id -> due time (ms)
  KEYS[6] delayed-msg  hash message id -> cmsgpack {body, headers, enqueued[, expires]} of a delayed message
  KEYS[7] meta         hash of the queue's own settings with its shard count marker; read only for a count in ARGV[2]

  ARGV[1] approximate MAXLEN for the XADDs, 0 for none
  ARGV[2] the endpoint's shard count, checked against KEYS[7]'s marker; '' for no check
  ARGV[4k-1] id of the k-th message
  ARGV[4k]   its body bytes
  ARGV[4k+1] its headers JSON, '' for none
  ARGV[4k+2] its delay in ms (0: now), then '|' and its time to live in ms from now when it has one: '0|60000'
  ARGV[#ARGV] the deadline, server time in ms; '' for none

  Returns: one code per message: 1 stored, 0 id known (in a stream, delayed, acked in the window, or in the batch)
  Errors, before any write: 'DEADLINE the call ran <n> ms after its deadline ...' when run late (before any read)
    'SHARDS <recorded> <resharding to, or 0> <count> <meta>' for a count the marker does not match
    'ERR enqueue of <n> in one call; at most 1000' or WRONGTYPE for a key of the wrong type
    "ERR enqueue: the delay of message <id> is '<arg>', not ms[|ms]"]]
include("includes/limits", "includes/shards", "includes/time", "stream/includes/enqueue_steps")

local first, last = 3, #ARGV - 1
local now = now_before(ARGV[#ARGV])
require_shards(KEYS[7], ARGV[2])
require_batch((last - first + 1) / 4, 'enqueue')
local plan = stream_enqueue_plan(KEYS, ARGV, first, last, now)
stream_enqueue_write(KEYS, plan, ARGV[1], now)
return plan.codes
