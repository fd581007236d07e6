--[[
  schedule: ticks fire once; a redrive keeps a tick dead while another tick of its schedule is queued or running.]]

include("includes/types")

local function schedule_unchanged(schedule, cron, last)
  require_type(schedule, 'hash')
  local state = redis.call('HMGET', schedule, 'cron', 'last')
  return state[1] == cron and state[2] == last
end

local function schedule_redriven(schedule)
  local ids = {}
  for id in string.gmatch(redis.call('HGET', schedule, 'redriven') or '', '%S+') do
    ids[#ids + 1] = id
  end
  return ids
end

local function schedule_list_unsettled(messages, dead)
  return function(id)
    return redis.call('HEXISTS', messages, id) == 1 and not redis.call('ZSCORE', dead, id)
  end
end

local function schedule_stream_unsettled(ids, delayed)
  return function(id)
    local ref = redis.call('HGET', ids, id)
    return (ref and string.sub(ref, 1, 2) ~= 'd:') or redis.call('ZSCORE', delayed, id) ~= false
  end
end

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
