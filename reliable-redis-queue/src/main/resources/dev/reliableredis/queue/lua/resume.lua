--[[
  resume: ends a queue's pause and wakes every consumer that waits on it, in both modes.

  KEYS[1] paused   string: the pause (pause.lua), deleted
  KEYS[2] resumed  stream: the last resume, one entry {at = server time (ms)}
  KEYS[3] wake     list mode only: wake-up tokens for idle consumers (includes/wake.lua)

  Returns: 1 when the queue was paused, 0 when it was not (the consumers are woken either way)]]
include("includes/time", "includes/wake")

local was = redis.call('DEL', KEYS[1])
redis.call('XADD', KEYS[2], 'MAXLEN', 1, '*', 'at', now_ms())
if KEYS[3] then
  wake(KEYS[3])
end
return was
