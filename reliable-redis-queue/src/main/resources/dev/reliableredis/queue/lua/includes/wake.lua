--[[
  wake: wake(key) leaves a wake-up token in the wake list unless one is there; for list scripts making messages ready.]]

local function wake(key)
  if redis.call('LLEN', key) == 0 then
    redis.call('RPUSH', key, '1')
  end
end
