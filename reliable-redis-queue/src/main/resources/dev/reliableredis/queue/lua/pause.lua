--[[
  pause: stops every claim of a queue (all JVMs, both modes) until resumed or its duration ends. Returns: 1

  KEYS[1] paused   string: the server time (ms) the pause began; with a TTL when the pause has a duration

  ARGV[1] the pause's duration in ms; 0: until resumed]]
include("includes/time")

local duration = tonumber(ARGV[1])
if duration > 0 then
  redis.call('SET', KEYS[1], now_ms(), 'PX', duration)
else
  redis.call('SET', KEYS[1], now_ms())
end
return 1
