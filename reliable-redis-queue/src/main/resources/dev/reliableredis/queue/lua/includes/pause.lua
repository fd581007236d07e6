--[[
  Included by the claim scripts (claim, stream/claim): the queue-wide pause gate (see pause and resume).
]]

-- nil when the queue is not paused; else the reply of a claim that takes nothing because of the pause:
-- {'paused', ms until the pause ends (-1: until resumed), the id of the last resume ('0-0' when none)}, so that the
-- claimant waits for the next resume with XREAD after that id, and no longer than the pause lasts
local function paused_reply(paused, resumed)
  local left = redis.call('PTTL', paused)
  if left == -2 then
    return nil
  end
  local last = redis.call('XREVRANGE', resumed, '+', '-', 'COUNT', 1)[1]
  return {'paused', left, last and last[1] or '0-0'}
end
