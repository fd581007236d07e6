--[[
  Included by the scripts that fire a schedule (schedule-fire, stream/schedule-fire): the compare-and-set that makes a
  tick fire once, whichever instance fires it; and by the redrives, which note the ticks they make live again (a tick
  redriven after a newer one fired is not the last tick fired, yet holds the schedule as it does).
]]

--- @include "includes/types"

-- whether the schedule hash still holds the expression and the last tick fired that the caller read
local function schedule_unchanged(schedule, cron, last)
  require_type(schedule, 'hash')
  local state = redis.call('HMGET', schedule, 'cron', 'last')
  return state[1] == cron and state[2] == last
end

-- the message ids of the redriven ticks that may still be queued or running (the field redriven: ids, one space apart)
local function schedule_redriven(schedule)
  local ids = {}
  for id in string.gmatch(redis.call('HGET', schedule, 'redriven') or '', '%S+') do
    ids[#ids + 1] = id
  end
  return ids
end

-- notes the ids that a redrive moved back and that are ticks of the queue's schedule (they start with prefix),
-- when the queue has a schedule; the caller checked the schedule's type before its first write
local function schedule_note_redriven(schedule, prefix, moved)
  if redis.call('HEXISTS', schedule, 'cron') == 0 then
    return
  end
  local ids, known = schedule_redriven(schedule), {}
  for _, id in ipairs(ids) do
    known[id] = true
  end
  local added = false
  for _, id in ipairs(moved) do
    if not known[id] and string.sub(id, 1, #prefix) == prefix then
      ids[#ids + 1], known[id], added = id, true, true
    end
  end
  if added then
    redis.call('HSET', schedule, 'redriven', table.concat(ids, ' '))
  end
end
