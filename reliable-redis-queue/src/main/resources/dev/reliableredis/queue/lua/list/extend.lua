--[[
  list/extend: moves the lease deadlines of a batch of deliveries, each checked on its own lease token, forward.

  KEYS[1] inflight  zset id -> lease deadline (the dead-inflight set for dead letters)
  KEYS[2] leases    hash id -> "deliveries|leaseToken[|credits|flags]"

  ARGV[1] visibility timeout in ms
  ARGV[2k], ARGV[2k+1]  id and lease token of the k-th delivery

  Returns: one code per delivery, in order:
    1 extended to server time + ARGV[1] (a deadline already further out is kept)
    0 refused: the token is not the current lease, or the message no longer exists
  Errors: 'ERR extend of <n> in one call; at most 1000' for more than 1000 deliveries, before any write.]]
include("list/includes/lease", "includes/limits", "includes/time")

require_batch((#ARGV - 1) / 2, 'extend')

local deadline = now_ms() + tonumber(ARGV[1])
local ids, held, _, _, deadlines = held_leases(KEYS[1], KEYS[2], 2, 2, nil, true)
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
