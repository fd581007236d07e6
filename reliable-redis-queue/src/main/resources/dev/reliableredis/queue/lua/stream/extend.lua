--[[
  stream/extend: resets the idle time of a batch of deliveries, each checked on its lease, so the reaper leaves them.

  KEYS[1] stream  the stream read (the dead-letter stream for a dead-letter consumer)

  ARGV[1], ARGV[2] group, consumer
  ARGV[2k+1], ARGV[2k+2]  entry id and lease token (delivery count) of the k-th delivery

  Returns: one code per delivery: 1 extended, 0 refused (not this consumer's at that count, or trimmed away)
  Errors: 'ERR extend of <n> in one call; at most 1000', before any write]]
local stream, group, consumer = KEYS[1], ARGV[1], ARGV[2]

include("includes/limits", "stream/includes/groups")

require_batch((#ARGV - 2) / 2, 'extend')

local entries, held = held_entries(stream, group, consumer, 3, 2)
local xclaim = {'XCLAIM', stream, group, consumer, 0}
for k, entry in ipairs(entries) do
  if held[k] then
    xclaim[#xclaim + 1] = entry
  end
end
local extended = {}
if #xclaim > 5 then
  xclaim[#xclaim + 1] = 'JUSTID'
  for _, entry in ipairs(redis.call(unpack(xclaim))) do
    extended[entry] = true
  end
end
local codes = {}
for k, entry in ipairs(entries) do
  codes[k] = held[k] and extended[entry] and 1 or 0
end
return codes
