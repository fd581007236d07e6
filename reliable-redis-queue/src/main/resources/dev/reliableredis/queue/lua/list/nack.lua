--[[
  list/nack: settles a batch of deliveries as failed, each checked on its own lease token.

  KEYS[1] inflight  zset id -> lease deadline (the dead-inflight set for dead letters)
  KEYS[2] retry     zset id -> due time: the delayed set (the dead set for dead letters)
  KEYS[3] dead      zset id -> time available to a dead-letter consumer
  KEYS[4] leases    hash id -> "deliveries|leaseToken[|credits|flags]"
  KEYS[5] failure   hash id -> last failure
  KEYS[6..11] capped, wake, extras, groups, grouped, ready: as list/ack.lua's KEYS[6..11]

  ARGV[1] settings, packed (cmsgpack map):
    maxDeliveries: failed deliveries after which a failure dead-letters (maxRetries + 1); 0: never
    retryDelay, multiplier, maxRetryDelay: the backoff, ms, factor, ms
    groupOnDeadLetter: 'block' keeps the group of a dead-lettered message waiting for it
  ARGV[4k-2 .. 4k+1] id, lease token, failure reason and retry-after in ms (-1: none) of the k-th delivery

  Returns: one code per delivery, in order:
    1 scheduled for a retry after its backoff
    2 dead-lettered: its failed deliveries are used up
    3 due again after its retry-after, which is not a failure
    0 refused: the token is not the current lease, or the message no longer exists
  Errors: 'ERR nack of <n> in one call; at most 1000' for more than 1000 deliveries, before any write.]]
include("includes/backoff", "list/includes/capacity", "list/includes/group", "list/includes/lease", "includes/limits")
include("includes/time", "includes/types", "includes/wake")

require_batch((#ARGV - 1) / 4, 'nack')

require_type(KEYS[2], 'zset')
require_type(KEYS[3], 'zset')
require_type(KEYS[5], 'hash')
require_type(KEYS[7], 'list')
local settings = cmsgpack.unpack(ARGV[1])
local maxDeliveries = settings.maxDeliveries
local retryDelay, multiplier, maxDelay = settings.retryDelay, settings.multiplier, settings.maxRetryDelay
local now = now_ms()
local ids, held, values = held_leases(KEYS[1], KEYS[4], 2, 4)
local codes, dead = {}, {}
for k in ipairs(ids) do
  if not held[k] then
    codes[k] = 0
  elseif tonumber(ARGV[4 * k + 1]) >= 0 then
    codes[k] = 3
  else
    local deliveries, _, credits = parse_lease(values[k])
    if maxDeliveries > 0 and deliveries - credits >= maxDeliveries then
      codes[k] = 2
      dead[#dead + 1] = ids[k]
    else
      codes[k] = 1
    end
  end
end
local gids, grouped
if #dead > 0 and settings.groupOnDeadLetter ~= 'block' then
  gids, grouped = groups_of(KEYS[8], KEYS[9], KEYS[10], KEYS[11], dead)
end
local freed = false
for k, id in ipairs(ids) do
  if codes[k] > 0 then
    freed = true
    local deliveries, _, credits, flags = parse_lease(values[k])
    redis.call('ZREM', KEYS[1], id)
    if codes[k] == 3 then
      redis.call('HSET', KEYS[4], id, lease_value(deliveries, '', credits + 1, unleased_flags(flags)))
      redis.call('ZADD', KEYS[2], now + tonumber(ARGV[4 * k + 1]), id)
    else
      redis.call('HSET', KEYS[4], id, lease_value(deliveries, '', credits, unleased_flags(flags, false, true)))
      redis.call('HSET', KEYS[5], id, ARGV[4 * k])
      if codes[k] == 2 then
        redis.call('ZADD', KEYS[3], now, id)
      else
        local failed = deliveries - credits
        redis.call('ZADD', KEYS[2], now + retry_delay(retryDelay, multiplier, maxDelay, math.max(failed, 1)), id)
      end
    end
  end
end
if freed then
  capacity_freed(KEYS[6], KEYS[7])
end
if grouped and groups_move_on(KEYS[11], KEYS[9], KEYS[10], dead, gids, false) > 0 then
  wake(KEYS[7])
end
return codes
