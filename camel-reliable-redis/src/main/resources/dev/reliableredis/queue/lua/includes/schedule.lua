--[[
  Included by the scripts that fire a schedule (schedule-fire, stream/schedule-fire): the compare-and-set that makes a
  tick fire once, whichever instance fires it.
]]

--- @include "includes/types"

-- whether the schedule hash still holds the expression and the last tick fired that the caller read
local function schedule_unchanged(schedule, cron, last)
  require_type(schedule, 'hash')
  local state = redis.call('HMGET', schedule, 'cron', 'last')
  return state[1] == cron and state[2] == last
end
