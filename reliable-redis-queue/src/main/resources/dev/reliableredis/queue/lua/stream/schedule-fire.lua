--[[
  stream/schedule-fire: stream mode's schedule-fire (see list/schedule-fire.lua): enqueues the messages of a schedule's
  due ticks and advances its last fired tick, in one step, while the schedule is the one the caller computed the
  ticks from; nothing fires while the message of the last tick fired, or of a tick a redrive moved back (noted in
  the schedule by stream/redrive), is in the stream unacked, waiting for a retry or delayed.

  KEYS[1] schedule  hash: cron, zone, last, redriven (see schedule-declare)
  KEYS[2..7] the queue's keys, as stream/enqueue's (see stream/enqueue.lua)
  KEYS[8] meta      hash of the queue's own settings, whose shard count marker ARGV[6] must match (includes/shards);
                    without this key the count is not checked

  ARGV[1] the cron expression the ticks come from
  ARGV[2] the last tick fired that they come after (epoch ms, as stored)
  ARGV[3] the last tick fired after this call (epoch ms)
  ARGV[4] the message id of the last tick fired
  ARGV[5] approximate MAXLEN for the XADDs, 0 for none
  ARGV[6] the endpoint's shard count, with KEYS[8]
  then 4 arguments per tick's message, as stream/enqueue's; none when the call only moves the last tick past
  missed ones

  Returns 1 fired, 0 not fired (the schedule changed, was removed or fired by another instance), -1 not fired
  (the last tick's message, or a redriven tick's, is not settled yet).

  Fails with an error, before it writes anything, for a key of the wrong type or a delay argument stream/enqueue
  refuses; or, with the error 'SHARDS <recorded> <resharding to, or 0> <count> <meta>', for a shard count the
  marker does not match (includes/shards).
]]
--- @include "includes/limits"
--- @include "includes/schedule"
--- @include "includes/shards"
--- @include "includes/time"
--- @include "stream/includes/enqueue_steps"

local refused = KEYS[8] and shards_refusal(KEYS[8], ARGV[6])
if refused then
  return refused
end
local first = KEYS[8] and 7 or 6
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
