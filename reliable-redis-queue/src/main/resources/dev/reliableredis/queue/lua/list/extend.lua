--[[
  list/extend: moves the lease deadline of a batch of deliveries forward to server time +
  visibility timeout. Each is checked on its own lease token; a deadline never moves back.

  KEYS[1] inflight  zset id -> lease deadline (the dead-inflight set for dead letters)
  KEYS[2] leases    hash id -> "deliveries|leaseToken[|credits|flags]"

  ARGV[1] visibility timeout in ms
  ARGV[2k], ARGV[2k+1]  id and lease token of the k-th delivery

  Returns an array with one code per delivery:
    1 extended (or already further out)
    0 refused: the token is not the current lease, or the message no longer exists

  The deadlines are moved with ZREM, then ZADD: Redis at its maxmemory refuses a script whose first write is one
  that may need memory (ZADD), and lets a script that has written once run to its end; ZREM it never refuses.
  A lease must be kept on a full Redis, or long exchanges lose theirs.

  Fails with an error, before it writes anything, for a batch of more than 1000 (includes/limits).
]]
--- @include "list/includes/lease"
--- @include "includes/limits"
--- @include "includes/time"

require_batch((#ARGV - 1) / 2, 'extend')

local deadline = now_ms() + tonumber(ARGV[1])
local ids, held, _, deadlines = held_leases(KEYS[1], KEYS[2], 2, 2)
local codes, moved, scored = {}, {}, {}
for k, id in ipairs(ids) do
  codes[k] = held[k] and 1 or 0
  if held[k] then
    moved[#moved + 1] = id
    scored[#scored + 1] = math.max(deadline, tonumber(deadlines[k]))
    scored[#scored + 1] = id
  end
end
if #moved > 0 then
  redis.call('ZREM', KEYS[1], unpack(moved))
  redis.call('ZADD', KEYS[1], unpack(scored))
end
return codes
