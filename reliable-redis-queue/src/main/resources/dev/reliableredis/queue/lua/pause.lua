--[[
  pause: pauses a queue for every consumer of it, in every JVM: while the paused key exists, a claim takes
  nothing (see includes/pause). Sends, lease extensions, acks, nacks, the reaper and the dead-letter consumers go
  on. A pause with a duration ends by itself when its key expires, on the Redis clock; the consumers waiting on it
  claim again at that time. Pausing a paused queue replaces its pause, the duration counting from now. One script
  for both modes: the keys are named alike.

  KEYS[1] paused   string: the server time (ms) the pause began; with a TTL when the pause has a duration

  ARGV[1] the pause's duration in ms; 0: until resumed

  Returns 1.
]]
--- @include "includes/time"

local duration = tonumber(ARGV[1])
if duration > 0 then
  redis.call('SET', KEYS[1], now_ms(), 'PX', duration)
else
  redis.call('SET', KEYS[1], now_ms())
end
return 1
