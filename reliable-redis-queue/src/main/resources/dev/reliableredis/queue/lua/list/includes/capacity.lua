--[[
  Included by the list scripts that end leases (ack, nack): the wake-up after a claim found the queue at its
  maxInflight (see claim). Such a claim marks the queue capped and leaves no wake-up token, so that the consumers
  wait instead of claiming nothing again and again; the first settlement after it frees room and leaves a token for
  one of them, and a claim that leaves messages behind leaves one for the next, as after an arrival.
]]

--- @include "includes/wake"

-- leaves a wake-up token in the wake list when a claim found the queue capped since the last settlement
local function capacity_freed(capped, wake_key)
  if redis.call('DEL', capped) == 1 then
    wake(wake_key)
  end
end
