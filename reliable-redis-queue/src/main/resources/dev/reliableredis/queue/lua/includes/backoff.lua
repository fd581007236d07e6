--[[
  backoff: retry_delay, the ms before a failed delivery's retry, for list/nack.lua and stream/nack.lua.]]

local function retry_delay(retryDelay, multiplier, maxDelay, deliveries)
  if retryDelay <= 0 then
    return 0
  end
  return math.floor(math.min(retryDelay * multiplier ^ math.min(math.max(deliveries - 1, 0), 64), maxDelay))
end
