--[[
  stream/schedule-fire: enqueues the messages of a schedule's due ticks and advances its last fired tick, in one step.

  KEYS[1] schedule  hash: cron, zone, last, redriven
  KEYS[2..8] the queue's keys, as stream/enqueue.lua's KEYS[1..7], its meta hash last

  ARGV[1] the cron expression the ticks come from
  ARGV[2] the last tick fired that they come after (epoch ms, as stored)
  ARGV[3] the last tick fired after this call (epoch ms)
  ARGV[4] the message id of the last tick fired
  ARGV[5] approximate MAXLEN for the XADDs, 0 for none
  ARGV[6] the endpoint's shard count, checked against KEYS[8]'s marker; '' for no check
  then 4 arguments per tick's message, as stream/enqueue's; none when the call only moves the last tick on

  Returns: 1 fired, 0 not fired (the schedule changed, was removed or fired by another instance),
    -1 not fired (the last tick's message, or a redriven tick's, is not settled yet)
  Errors, before any write: 'SHARDS <recorded> <resharding to, or 0> <count> <meta>' when the marker differs
    'ERR schedule-fire of <n> in one call; at most 1000' or WRONGTYPE for a key of the wrong type
    "ERR enqueue: the delay of message <id> is '<arg>', not ms[|ms]"]]
include("includes/limits", "includes/schedule", "includes/shards", "includes/time", "stream/includes/enqueue_steps")

require_shards(KEYS[8], ARGV[6])
local first = 7
if not schedule_unchanged(KEYS[1], ARGV[1], ARGV[2]) then
  return 0
end
local k = {unpack(KEYS, 2, 7)}
if schedule_tick_unsettled(KEYS[1], ARGV[4], schedule_stream_unsettled(k[3], k[5])) then
  return -1
end
require_batch((#ARGV - first + 1) / 4, 'schedule-fire')
if #ARGV >= first then
  local now = now_ms()
  stream_enqueue_write(k, stream_enqueue_plan(k, ARGV, first, #ARGV, now), ARGV[5], now)
end
redis.call('HDEL', KEYS[1], 'redriven')
redis.call('HSET', KEYS[1], 'last', ARGV[3])
return 1
