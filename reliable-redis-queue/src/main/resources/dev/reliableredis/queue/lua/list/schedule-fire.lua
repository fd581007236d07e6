--[[
  list/schedule-fire: enqueues the messages of a schedule's due ticks and advances its last fired tick, in one step, so
  that a tick fires once however many instances see it: the call fires only while the schedule is the one the
  caller computed the ticks from (its expression and last tick unchanged), and a tick's message id is its own
  (<queue>@<tick epoch ms>). The ticks of one schedule never run at the same time: while the message of the last
  tick fired, or of a tick a redrive moved back (noted in the schedule by list/redrive), is queued, delayed or in
  flight (not yet acked or dead-lettered), nothing fires.

  KEYS[1] schedule  hash: cron, zone, last, redriven (see schedule-declare)
  KEYS[2] dead      zset of the dead letters
  KEYS[3..14] the queue's keys, as enqueue's (see list/enqueue.lua)
  KEYS[15] meta     hash of the queue's own settings, whose shard count marker ARGV[5] must match (includes/shards);
                    without this key the count is not checked

  ARGV[1] the cron expression the ticks come from
  ARGV[2] the last tick fired that they come after (epoch ms, as stored)
  ARGV[3] the last tick fired after this call (epoch ms)
  ARGV[4] the message id of the last tick fired
  ARGV[5] the endpoint's shard count, with KEYS[15]
  then 3 arguments per tick's message, as enqueue's; none when the call only moves the last tick past missed ones

  Returns 1 fired (each tick's message enqueued, or a no-op for an id already known); 0 not fired: the schedule
  was changed, removed, or fired by another instance since the caller read it; -1 not fired: the last tick's
  message, or a redriven tick's, is not settled yet.

  Fails with an error, before it writes anything, for a key of the wrong type or a message enqueue refuses; or,
  with the error 'SHARDS <recorded> <resharding to, or 0> <count> <meta>', for a shard count the marker does not
  match (includes/shards).
]]
--- @include "list/includes/enqueue_steps"
--- @include "includes/limits"
--- @include "includes/schedule"
--- @include "includes/shards"
--- @include "includes/time"
--- @include "includes/types"

local refused = KEYS[15] and shards_refusal(KEYS[15], ARGV[5])
if refused then
  return refused
end
local first = KEYS[15] and 6 or 5
if not schedule_unchanged(KEYS[1], ARGV[1], ARGV[2]) then
  return 0
end
local k = {unpack(KEYS, 3, 14)}
require_type(KEYS[2], 'zset')
require_type(k[3], 'hash')
if schedule_tick_unsettled(KEYS[1], ARGV[4], schedule_list_unsettled(k[3], KEYS[2])) then
  return -1
end
require_batch((#ARGV - first + 1) / ENQUEUE_STRIDE, 'schedule-fire')
if #ARGV >= first then
  enqueue_write(k, enqueue_plan(k, ARGV, first, #ARGV, now_ms()))
end
redis.call('HDEL', KEYS[1], 'redriven')
redis.call('HSET', KEYS[1], 'last', ARGV[3])
return 1
