--[[
  list/release: gives back claimed deliveries never started, to the head of their line, the delivery undone.

  KEYS[1] inflight  zset id -> lease deadline (the dead-inflight set for dead letters)
  KEYS[2] target    the ready list (the dead zset for dead letters)
  KEYS[3] leases    hash id -> "deliveries|leaseToken[|credits|flags]"
  KEYS[4] wake      list of wake-up tokens for idle consumers
  KEYS[5] prioritized  zset id -> level and place of a ready message with a priority
  KEYS[6] extras    hash id -> "expiresAt|level|groupId" of a message sent with any of them
  KEYS[7] seq       counter the places in a level's line are drawn from

  ARGV[1] 'ready' or 'dead': what KEYS[2] is
  ARGV[2k], ARGV[2k+1]  id and lease token of the k-th delivery

  Returns: the number of deliveries released (refused ones are not counted).
  Errors: 'ERR release of <n> in one call; at most 1000' for more than 1000 deliveries, before any write.]]
include("list/includes/lease", "includes/limits", "list/includes/priority", "includes/time", "includes/types")
include("includes/wake")

require_batch((#ARGV - 1) / 2, 'release')

local toReady = ARGV[1] == 'ready'
require_type(KEYS[2], toReady and 'list' or 'zset')
require_type(KEYS[4], 'list')
local now = not toReady and now_ms()
local ids, held, values = held_leases(KEYS[1], KEYS[3], 2, 2)
local released = 0
for k = #ids, 1, -1 do
  if held[k] then
    local id = ids[k]
    local deliveries, _, credits, flags = parse_lease(values[k])
    redis.call('ZREM', KEYS[1], id)
    if toReady then
      deliveries = math.max(deliveries - 1, 0)
      make_ready(KEYS[2], KEYS[5], KEYS[6], KEYS[7], id, true, not has_flag(flags, 'x') and DEFAULT_LEVEL or nil)
    else
      redis.call('ZADD', KEYS[2], now, id)
    end
    unlease(KEYS[3], id, deliveries, credits, unleased_flags(flags))
    released = released + 1
  end
end
if toReady and released > 0 then
  wake(KEYS[4])
end
return released
