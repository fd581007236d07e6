--[[
  list/includes/capacity: capacity_freed, the wake-up after a claim found the queue at its maxInflight (ack, nack).]]

include("includes/wake")

local function capacity_freed(capped, wake_key)
  if redis.call('DEL', capped) == 1 then
    wake(wake_key)
  end
end
