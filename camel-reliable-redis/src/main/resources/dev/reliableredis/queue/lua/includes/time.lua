--[[
  Included by every script that reads the clock: the Redis server's, never a client's.
]]

-- the Redis server time in epoch milliseconds
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
