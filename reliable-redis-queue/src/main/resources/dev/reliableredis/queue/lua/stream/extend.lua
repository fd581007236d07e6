--[[
  stream/extend: keeps a batch of deliveries from looking idle, so that the reaper does not take them over:
  each is re-claimed by its own consumer with XCLAIM JUSTID, which resets its idle time and does not count a
  delivery. Each is checked on its lease token (owner and delivery count): an entry the reaper took over, or a
  nack parked, belongs to another consumer now. Two commands check the whole batch, and one XCLAIM extends it.

  KEYS[1] stream  the stream read (the dead-letter stream for a dead-letter consumer)

  ARGV[1] group
  ARGV[2] consumer
  ARGV[2k+1], ARGV[2k+2]  entry id and lease token of the k-th delivery

  Returns an array with one code per delivery: 1 extended, 0 refused.

  Fails with an error, before it writes anything, for a batch of more than 1000 (includes/limits).
]]
local stream, group, consumer = KEYS[1], ARGV[1], ARGV[2]

--- @include "includes/limits"
--- @include "stream/includes/groups"

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
  -- Redis 7 answers nothing for an entry trimmed away meanwhile (and drops it from the pending entries list)
  for _, entry in ipairs(redis.call(unpack(xclaim))) do
    extended[entry] = true
  end
end
local codes = {}
for k, entry in ipairs(entries) do
  codes[k] = held[k] and extended[entry] and 1 or 0
end
return codes
