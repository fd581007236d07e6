--[[
  list/redrive: moves up to ARGV[1] dead letters, oldest first, back to the ready list with
  a fresh delivery count; their first enqueue time is kept and the failure cleared.
  Dead letters being consumed (dead-inflight) are not moved. With ARGV[3], only the dead
  letter of that one message id is looked at. A moved tick of the queue's schedule is noted in the schedule, which
  fires nothing while it is queued or running (see schedule-fire).

  KEYS[1] dead      zset id -> time available to a dead-letter consumer (ms)
  KEYS[2] ready     list of ids
  KEYS[3] messages  hash id -> "enqueuedAt|payload"
  KEYS[4] leases    hash id -> "deliveries|leaseToken[|credits|flags]"
  KEYS[5] failure   hash id -> last failure
  KEYS[6] wake      list of wake-up tokens for idle consumers (see includes/wake)
  KEYS[7] expires   hash id -> server time (ms) after which the message is not delivered (see enqueue)
  KEYS[8] prioritized  zset id -> level and place of a ready message with a priority (see includes/priority)
  KEYS[9] priority  hash id -> priority level of a message sent with one
  KEYS[10] seq      counter the places in a level's line, and in a group's, are drawn from
  KEYS[11] group    hash id -> group id of a message sent with one (see includes/group)
  KEYS[12] groups   hash group id -> id of its current message
  KEYS[13] grouped  zset of the groups' lines
  KEYS[14] schedule hash: cron, zone, last, redriven (see schedule-declare)

  ARGV[1] most dead letters to move
  ARGV[2] what the message ids of the schedule's ticks start with (<queue>@)
  ARGV[3] optional: the message id of the one dead letter to move

  A dead letter without a stored message is dropped. A redriven message has no time to live any more; it keeps its
  priority and its group: the group that waited for it (groupOnDeadLetter=block) goes on with it, one that went on
  without it takes it next (includes/group).

  Returns the number of messages moved.
]]
--- @include "list/includes/group"
--- @include "list/includes/priority"
--- @include "includes/schedule"
--- @include "includes/types"
--- @include "includes/wake"

require_type(KEYS[2], 'list')
require_type(KEYS[3], 'hash')
require_type(KEYS[4], 'hash')
require_type(KEYS[5], 'hash')
require_type(KEYS[6], 'list')
require_type(KEYS[7], 'hash')
require_type(KEYS[11], 'hash')
require_type(KEYS[12], 'hash')
require_type(KEYS[13], 'zset')
require_type(KEYS[14], 'hash')
local ids
if ARGV[3] then
  ids = redis.call('ZSCORE', KEYS[1], ARGV[3]) and {ARGV[3]} or {}
else
  ids = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
end
local moved, movedIds = 0, {}
for _, id in ipairs(ids) do
  redis.call('ZREM', KEYS[1], id)
  if redis.call('HEXISTS', KEYS[3], id) == 1 then
    redis.call('HDEL', KEYS[4], id)
    redis.call('HDEL', KEYS[5], id)
    redis.call('HDEL', KEYS[7], id)
    local gid = redis.call('HGET', KEYS[11], id)
    if not gid or redis.call('HGET', KEYS[12], gid) == id then
      make_ready(KEYS[2], KEYS[8], KEYS[9], KEYS[10], id, false)
    else
      join_group(KEYS[2], KEYS[12], KEYS[13], KEYS[10], gid, id, true)
    end
    moved = moved + 1
    movedIds[moved] = id
  end
end
if moved > 0 then
  schedule_note_redriven(KEYS[14], ARGV[2], movedIds)
  wake(KEYS[6])
end
return moved
