--[[
  resume: ends a queue's pause, and wakes every consumer that waits on it at once: each waits with XREAD for an
  entry of the resumed stream after the last one its paused claim saw (includes/pause), so that a resume landing
  between that claim and the wait still wakes it. One script for both modes: the keys are named alike.

  KEYS[1] paused
  KEYS[2] resumed  stream: the last resume, one entry {at = server time (ms)}
  KEYS[3] wake     list mode only: a wake-up token for a consumer that waits for arrivals (includes/wake)

  Returns 1 when the queue was paused, 0 when it was not (the consumers are woken all the same: a timed pause may
  have ended a moment ago).
]]
--- @include "includes/time"
--- @include "includes/wake"

local was = redis.call('DEL', KEYS[1])
redis.call('XADD', KEYS[2], 'MAXLEN', 1, '*', 'at', now_ms())
if KEYS[3] then
  wake(KEYS[3])
end
return was
