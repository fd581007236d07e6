--[[
  list/reap: housekeeping, each part bounded by the batch setting: leases, delayed messages, acked ids, claimants.

  KEYS[1] ready          list of ids
  KEYS[2] inflight       zset id -> lease deadline
  KEYS[3] delayed        zset id -> due time
  KEYS[4] dead           zset id -> time available to a dead-letter consumer
  KEYS[5] dead-inflight  zset id -> lease deadline
  KEYS[6] leases         hash id -> "deliveries|leaseToken[|credits|flags]"
  KEYS[7] failure        hash id -> last failure
  KEYS[8] acked          zset id -> time until which the acked id is remembered
  KEYS[9] wake           list of wake-up tokens for idle consumers
  KEYS[10] messages      hash id -> "enqueuedAt|payload"
  KEYS[11] claimers      zset claimant id -> server time (ms) until which it counts as live
  KEYS[12] prioritized   zset id -> level and place of a ready message with a priority
  KEYS[13] extras        hash id -> "expiresAt|level|groupId" of a message sent with any of them
  KEYS[14] seq           counter the places in a level's line are drawn from
  KEYS[15] groups        hash group id -> id of its current message
  KEYS[16] grouped       zset of the groups' lines

  ARGV[1] settings, packed (cmsgpack map):
    maxDeliveries: failed deliveries after which an expired lease dead-letters (maxRetries + 1)
    batch: most entries to move in each of the four parts
    groupOnDeadLetter: 'block' keeps the group of a message dead-lettered here waiting for it

  Returns: {expired leases returned to ready, expired leases dead-lettered, delayed messages made ready,
    dead-letter leases returned, acked ids forgotten, 1 when a part took a full batch (call again) else 0}]]
include("list/includes/group", "list/includes/lease", "list/includes/priority", "includes/time", "includes/types")
include("includes/wake")

require_types('list', KEYS[1], KEYS[9])
require_types('zset', KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[8], KEYS[11], KEYS[16])
require_types('hash', KEYS[6], KEYS[7], KEYS[10], KEYS[13], KEYS[15])
local now = now_ms()
local settings = cmsgpack.unpack(ARGV[1])
local maxDeliveries, batch = settings.maxDeliveries, settings.batch

local more = 0

local function take_due(key)
  local ids = redis.call('ZRANGEBYSCORE', key, '-inf', now, 'LIMIT', 0, batch)
  if #ids == batch then
    more = 1
  end
  for i = 1, #ids, 1000 do
    redis.call('ZREM', key, unpack(ids, i, math.min(i + 999, #ids)))
  end
  return ids
end

-- ends an expired lease (a batched one credited, then solo): failed deliveries, DEFAULT_LEVEL without flag 'x'
local function clear_token(id)
  local value = redis.call('HGET', KEYS[6], id)
  if not value then
    return nil
  end
  local deliveries, _, credits, flags = parse_lease(value)
  if not deliveries then
    return nil
  end
  local batched = has_flag(flags, 'b')
  if batched then
    credits = credits + 1
  end
  redis.call('HSET', KEYS[6], id, lease_value(deliveries, '', credits, unleased_flags(flags, batched)))
  return deliveries - credits, not has_flag(flags, 'x') and DEFAULT_LEVEL or nil
end

local returned, deadLettered, released, deadReturned = 0, 0, 0, 0
local dead = {}

for _, id in ipairs(take_due(KEYS[2])) do
  local deliveries, level = clear_token(id)
  if deliveries and deliveries >= maxDeliveries then
    redis.call('HSET', KEYS[7], id, 'lease expired')
    redis.call('ZADD', KEYS[4], now, id)
    dead[#dead + 1] = id
    deadLettered = deadLettered + 1
  elseif deliveries then
    make_ready(KEYS[1], KEYS[12], KEYS[13], KEYS[14], id, false, level)
    returned = returned + 1
  end
end
for _, id in ipairs(take_due(KEYS[3])) do
  if redis.call('HEXISTS', KEYS[10], id) == 1 then
    make_ready(KEYS[1], KEYS[12], KEYS[13], KEYS[14], id, false)
    released = released + 1
  end
end
for _, id in ipairs(take_due(KEYS[5])) do
  if clear_token(id) then
    redis.call('ZADD', KEYS[4], now, id)
    deadReturned = deadReturned + 1
  end
end
local forgotten = take_due(KEYS[8])
redis.call('ZREMRANGEBYSCORE', KEYS[11], '-inf', '(' .. now)
local moved = 0
if #dead > 0 and settings.groupOnDeadLetter ~= 'block' then
  local gids, grouped = groups_of(KEYS[13], KEYS[15], KEYS[16], KEYS[1], dead)
  moved = grouped and groups_move_on(KEYS[1], KEYS[15], KEYS[16], dead, gids, false) or 0
end
if returned + released + moved > 0 then
  wake(KEYS[9])
end
return {returned, deadLettered, released, deadReturned, #forgotten, more}
