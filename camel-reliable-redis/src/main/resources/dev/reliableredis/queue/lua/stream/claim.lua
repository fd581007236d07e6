--[[
  stream/claim: delivers up to ARGV[3] entries to one consumer of a group: first the entries whose retry
  is due (re-claimed with XCLAIM, which counts the delivery in the pending entries list), then new
  entries (XREADGROUP '>'). The same script serves the dead-letter stream for a dead-letter consumer.

  KEYS[1] stream  the stream read (the dead-letter stream for a dead-letter consumer)
  KEYS[2] retry   zset entry id -> time its retry is due (ms), entries pending in the group

  ARGV[1] group
  ARGV[2] consumer
  ARGV[3] most entries to deliver

  Returns a flat array, 3 entries per delivery: entry id, delivery count, field array {k1, v1, ...}.
  A due retry whose entry was deleted meanwhile is acked away and not returned.
  Errors with NOGROUP when the group does not exist (the caller creates it).
]]
--- @include "includes/time"

local now = now_ms()
local stream, group, consumer, count = KEYS[1], ARGV[1], ARGV[2], tonumber(ARGV[3])
local out = {}
for _, entry in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, count)) do
  redis.call('ZREM', KEYS[2], entry)
  local claimed = redis.call('XCLAIM', stream, group, consumer, 0, entry)
  if #claimed > 0 and claimed[1] then
    local pending = redis.call('XPENDING', stream, group, entry, entry, 1)
    out[#out + 1] = entry
    out[#out + 1] = pending[1][4]
    out[#out + 1] = claimed[1][2]
  else
    redis.call('XACK', stream, group, entry)
  end
end
local room = count - #out / 3
if room > 0 then
  local read = redis.call('XREADGROUP', 'GROUP', group, consumer, 'COUNT', room, 'STREAMS', stream, '>')
  if read then
    for _, e in ipairs(read[1][2]) do
      out[#out + 1] = e[1]
      out[#out + 1] = 1
      out[#out + 1] = e[2]
    end
  end
end
return out
