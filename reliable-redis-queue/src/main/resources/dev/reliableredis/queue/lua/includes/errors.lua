--[[
  errors: fail(message), an error whose first word is its code (WRONGTYPE, DEADLINE, ERR), alike on Redis 6.2 and 7+.]]

local function fail(message)
  if redis.REDIS_VERSION then
    error({err = message})
  end
  error(message, 0)
end
