--[[
  stream/includes/capacity: for stream/ack, nack and handoff, the wake-up of the claimants waiting at maxInflight.]]

local function capacity_freed(capped, freed, now)
  if redis.call('DEL', capped) == 1 then
    -- pcall: the settlement is done by now, and a waiting claimant claims again within a second anyway
    redis.pcall('XADD', freed, 'MAXLEN', 1, '*', 'at', now)
  end
end
