--[[
  stream/extend: keeps a batch of deliveries from looking idle, so that the reaper does not take them over:
  each is re-claimed by its own consumer with XCLAIM JUSTID, which resets its idle time and does not count a
  delivery. Each is checked on its lease token (owner and delivery count): an entry the reaper took over, or a
  nack parked, belongs to another consumer now.

  KEYS[1] stream  the stream read (the dead-letter stream for a dead-letter consumer)

  ARGV[1] group
  ARGV[2] consumer
  ARGV[2k+1], ARGV[2k+2]  entry id and lease token of the k-th delivery

  Returns an array with one code per delivery: 1 extended, 0 refused.
]]
local stream, group, consumer = KEYS[1], ARGV[1], ARGV[2]
local codes = {}
for i = 3, #ARGV, 2 do
  local entry, token = ARGV[i], ARGV[i + 1]
  local pending = redis.call('XPENDING', stream, group, entry, entry, 1)
  -- Redis 7 answers nothing to the XCLAIM (and drops the pending entry) when the entry was trimmed away meanwhile
  if #pending == 1 and pending[1][2] == consumer and tostring(pending[1][4]) == token
      and #redis.call('XCLAIM', stream, group, consumer, 0, entry, 'JUSTID') > 0 then
    codes[#codes + 1] = 1
  else
    codes[#codes + 1] = 0
  end
end
return codes
