--[[
  pause: paused_reply, for both claim scripts: nil or {'paused', ms left (-1: until resumed), last resume id or '0-0'}]]

local function paused_reply(paused, resumed)
  local left = redis.call('PTTL', paused)
  if left == -2 then
    return nil
  end
  local last = redis.call('XREVRANGE', resumed, '+', '-', 'COUNT', 1)[1]
  return {'paused', left, last and last[1] or '0-0'}
end
