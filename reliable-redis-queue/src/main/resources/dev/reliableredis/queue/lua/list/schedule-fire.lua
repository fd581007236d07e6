--[[
  list/schedule-fire: enqueues the messages of a schedule's due ticks and advances its last tick, once per tick.

  KEYS[1] schedule  hash: cron, zone, last, redriven
  KEYS[2] dead      zset of the dead letters
  KEYS[3..13] the queue's keys, as list/enqueue.lua's KEYS[1..11], its meta hash last

  ARGV[1] the cron expression the ticks come from
  ARGV[2] the last tick fired that they come after (epoch ms, as stored)
  ARGV[3] the last tick fired after this call (epoch ms)
  ARGV[4] the message id of the last tick fired
  ARGV[5] the endpoint's shard count, checked against KEYS[13]'s marker; '' for no check
  then 3 arguments per tick's message (id <queue>@<tick epoch ms>), as enqueue's; none to skip missed ticks

  Returns: 1 fired (each message enqueued, or a no-op for an id already known)
    0 not fired: the schedule was changed, removed, or fired by another instance since the caller read it
    -1 not fired: the last tick's message, or a redriven tick's, is not settled yet
  Errors: 'SHARDS <recorded> <resharding to, or 0> <count> <meta>' when KEYS[13]'s marker does not match ARGV[5]
    'ERR schedule-fire of <n> in one call; at most 1000', WRONGTYPE, or enqueue's errors; all before any write]]
include("list/includes/enqueue_steps", "includes/limits", "includes/schedule", "includes/shards", "includes/time")
include("includes/types")

require_shards(KEYS[13], ARGV[5])
local first = 6
if not schedule_unchanged(KEYS[1], ARGV[1], ARGV[2]) then
  return 0
end
local k = {unpack(KEYS, 3, 12)}
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
