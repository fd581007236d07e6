--[[
  list/redrive: moves up to ARGV[1] dead letters (or the one of ARGV[4]) back to ready, delivery count reset.

  KEYS[1] dead      zset id -> time available to a dead-letter consumer
  KEYS[2] ready     list of ids
  KEYS[3] messages  hash id -> "enqueuedAt|payload"
  KEYS[4] leases    hash id -> "deliveries|leaseToken[|credits|flags]"
  KEYS[5] failure   hash id -> last failure
  KEYS[6] wake      list of wake-up tokens for idle consumers
  KEYS[7..11] extras, prioritized, seq, groups, grouped: as list/enqueue.lua's KEYS[6..10]
  KEYS[12] schedule hash: cron, zone, last, redriven

  ARGV[1] most dead letters to look at, oldest first
  ARGV[2] what the message ids of the schedule's ticks start with (<queue>@)
  ARGV[3] how many of the oldest dead letters to pass over: the ticks earlier calls of the same redrive left
  ARGV[4] optional: the message id of the one dead letter to move

  Returns: {messages moved, ticks left dead because another tick of their schedule is queued or running}]]
include("list/includes/group", "list/includes/priority", "includes/schedule", "includes/types", "includes/wake")

require_types('list', KEYS[2], KEYS[6])
require_types('hash', KEYS[3], KEYS[4], KEYS[5], KEYS[7], KEYS[10], KEYS[12])
require_type(KEYS[11], 'zset')
local ids
if ARGV[4] then
  ids = redis.call('ZSCORE', KEYS[1], ARGV[4]) and {ARGV[4]} or {}
else
  local skip = tonumber(ARGV[3])
  ids = redis.call('ZRANGE', KEYS[1], skip, skip + tonumber(ARGV[1]) - 1)
end
local held, tick_moved = schedule_redrive_guard(KEYS[12], ARGV[2], schedule_list_unsettled(KEYS[3], KEYS[1]))
local moved, movedIds, left = 0, {}, 0
for _, id in ipairs(ids) do
  if held(id) then
    left = left + 1
  else
    redis.call('ZREM', KEYS[1], id)
    if redis.call('HEXISTS', KEYS[3], id) == 1 then
      redis.call('HDEL', KEYS[4], id)
      redis.call('HDEL', KEYS[5], id)
      local current = extras_of(KEYS[7], {id})[1]
      local _, level, gid = parse_extras(current)
      local kept = extras_value('', level, gid or '')
      if current and not kept then
        redis.call('HDEL', KEYS[7], id)
      elseif kept ~= current then
        redis.call('HSET', KEYS[7], id, kept)
      end
      if not gid or redis.call('HGET', KEYS[10], gid) == id then
        make_ready(KEYS[2], KEYS[8], KEYS[7], KEYS[9], id, false, level)
      else
        join_group(KEYS[2], KEYS[10], KEYS[11], KEYS[9], gid, id, true)
      end
      moved = moved + 1
      movedIds[moved] = id
      tick_moved(id)
    end
  end
end
if moved > 0 then
  schedule_note_redriven(KEYS[12], ARGV[2], movedIds)
  wake(KEYS[6])
end
return {moved, left}
