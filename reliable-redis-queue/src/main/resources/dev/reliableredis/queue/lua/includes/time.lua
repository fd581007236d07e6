--[[
  time: now_ms, the Redis clock in epoch ms; now_before(deadline, '' for none) fails 'DEADLINE the call ran ...'.]]

include("includes/errors")

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local function now_before(deadline)
  local now = now_ms()
  if deadline ~= '' and now > tonumber(deadline) then
    fail('DEADLINE the call ran ' .. string.format('%d', now - tonumber(deadline)) .. ' ms after its '
        .. 'deadline on the Redis server clock; nothing was stored')
  end
  return now
end
