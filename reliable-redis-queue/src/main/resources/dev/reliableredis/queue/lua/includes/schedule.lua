--[[
  Included by the scripts that fire a schedule (schedule-fire, stream/schedule-fire): the compare-and-set that makes a
  tick fire once, whichever instance fires it; and by the redrives, which note the ticks they make live again (a tick
  redriven after a newer one fired is not the last tick fired, yet holds the schedule as it does), and leave a tick
  dead while another tick of its schedule is queued or running: the ticks of one schedule never run at the same time.
  Whether a tick is queued or running is each mode's own (schedule_list_unsettled, schedule_stream_unsettled), the
  same for firing and redriving.
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

-- list mode's notion of a tick that is queued, delayed or in flight: stored, not dead-lettered
local function schedule_list_unsettled(messages, dead)
  return function(id)
    return redis.call('HEXISTS', messages, id) == 1 and not redis.call('ZSCORE', dead, id)
  end
end

-- stream mode's: in the stream (unacked, or waiting for a retry) or delayed
local function schedule_stream_unsettled(ids, delayed)
  return function(id)
    local ref = redis.call('HGET', ids, id)
    return (ref and string.sub(ref, 1, 2) ~= 'd:') or redis.call('ZSCORE', delayed, id) ~= false
  end
end

-- whether the last tick fired (its message id last_id) or a redriven tick is unsettled, as the mode's function says
local function schedule_tick_unsettled(schedule, last_id, unsettled)
  if unsettled(last_id) then
    return true
  end
  for _, id in ipairs(schedule_redriven(schedule)) do
    if unsettled(id) then
      return true
    end
  end
  return false
end

-- a redrive's guard of the queue's schedule: held(id) tells whether the dead letter of id stays dead, for it is a tick
-- (it starts with prefix) and another tick of the schedule is unsettled: the last tick fired, a redriven one, or one
-- this redrive moved (the caller calls moved(id) for each id it moves). Other ids cost nothing; the schedule is read
-- once, at the first tick.
local function schedule_redrive_guard(schedule, prefix, unsettled)
  local scheduled, busy
  local function tick(id)
    return id ~= nil and string.sub(id, 1, #prefix) == prefix
  end
  local function held(id)
    if not tick(id) then
      return false
    end
    if scheduled == nil then
      local state = redis.call('HMGET', schedule, 'cron', 'last')
      scheduled = state[1] ~= false
      busy = scheduled and schedule_tick_unsettled(schedule, prefix .. (state[2] or ''), unsettled)
    end
    return busy
  end
  local function moved(id)
    if scheduled and tick(id) then
      busy = true
    end
  end
  return held, moved
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
