--[[
  Included by both modes' nack scripts: the retry delay after a failed delivery, the same rule in both modes.
]]

-- retryDelay * multiplier^(deliveries - 1), capped at maxDelay, in whole ms; the exponent is capped so that a
-- huge delivery count cannot turn 0 * inf into nan
local function retry_delay(retryDelay, multiplier, maxDelay, deliveries)
  if retryDelay <= 0 then
    return 0
  end
  return math.floor(math.min(retryDelay * multiplier ^ math.min(math.max(deliveries - 1, 0), 64), maxDelay))
end
