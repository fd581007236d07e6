--[[
  Included by every script that reads the clock: the Redis server's, never a client's.
]]

--- @include "includes/errors"

-- the Redis server time in epoch milliseconds
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- the server time in ms, once the caller's deadline (server time in ms; nil for none) is known not to have passed.
-- A call that a paused or busy Redis runs after its deadline fails here, before it reads or writes anything: its
-- caller has given up on it (commandTimeout) and told the application that it failed, so it must not store.
local function now_before(deadline)
  local now = now_ms()
  if deadline and now > tonumber(deadline) then
    fail('DEADLINE the call ran ' .. string.format('%d', now - tonumber(deadline)) .. ' ms after its '
        .. 'deadline on the Redis server clock; nothing was stored')
  end
  return now
end
