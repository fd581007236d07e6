--[[
  Included by every script that refuses with an error of its own: one that reads the same on every Redis. Redis 7
  and newer take the error's code (WRONGTYPE, DEADLINE) from a table raised with error(); Redis 6.2's error handler
  cannot take a table (it reports "attempt to concatenate local 'err' (a table value)" instead), so there the
  message is raised as text, which Redis wraps as "ERR Error running script ... <message>".
]]

-- fails the script with message, whose first word is the error code; nothing after it in the script runs
local function fail(message)
  if redis.REDIS_VERSION then
    error({err = message})
  end
  error(message, 0)
end
