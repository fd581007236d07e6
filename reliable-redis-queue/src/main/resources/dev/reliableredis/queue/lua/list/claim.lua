--[[
  list/claim: takes ready messages under a lease, one part of at most ARGV[2] and a fair share per claimant.

  KEYS[1] ready     list of ids
  KEYS[2] inflight  zset id -> lease deadline
  KEYS[3] messages  hash id -> "enqueuedAt|payload"
  KEYS[4] leases    hash id -> "deliveries|leaseToken[|credits|flags]"
  KEYS[5] wake      list of wake-up tokens for idle consumers
  KEYS[6] claimers  zset claimant id -> server time (ms) until which it counts as live
  KEYS[7] claim     the claiming consumer's last claim
  KEYS[8] paused    exists while the queue is paused
  KEYS[9] resumed   stream of the last resume
  KEYS[10] capped   exists while a claim found the queue at its maxInflight
  KEYS[11] rate     the rate limit's theoretical arrival time
  KEYS[12] extras   hash id -> "expiresAt|level|groupId" of a message sent with any of them
  KEYS[13] dead     zset id -> time available to a dead-letter consumer
  KEYS[14] failure  hash id -> last failure
  KEYS[15] limited  exists while the rate limit holds claims back (written here, read by stats)
  KEYS[16] prioritized  zset id -> level and place of a ready message with a priority
  KEYS[17] cursor   the weighted round-robin's place in its cycle of levels
  KEYS[18] groups   hash group id -> id of its current message
  KEYS[19] grouped  zset of the groups' lines
  KEYS[20] meta     hash of the queue's own settings with its shard count marker; read only for a count in shards

  ARGV[1] settings, packed (cmsgpack map):
    visibility: visibility timeout in ms
    maxInflight: the most messages in flight at once, across all consumers; 0: no cap
    rateLimit, ratePeriod, rateBurst: the most messages claimed per period (0: no limit), in ms, and at once
    expiredMessages: 'drop' to drop expired messages; else they are dead-lettered
    priorityMode: 'strict' to take the highest priority level first; else weighted round-robin over the levels
    groupOnDeadLetter: 'block' keeps the group of an expired, dead-lettered message waiting for it
    shards: the endpoint's shard count, checked against KEYS[20]'s marker; '' for no check
  ARGV[2] most messages of one part
  ARGV[3] the claimants' ids, separated by spaces: one part each, filled in this order
  ARGV[4] how long after this claim a claimant counts as live, in ms
  ARGV[5] claim id, the lease token of what it takes; the last claim's again when that one's outcome was lost

  Returns: {id, lease token, delivery count, record, part (1: the first claimant's), ... 5 each, ready messages left}
    {'limited', ms until the rate limit allows one, ''}: nothing taken
    {'paused', ms the pause has left (-1: until resumed), id of the last resume}: nothing taken
  Errors (before any write): 'ERR claim of <n> in one call; at most 1000' when ARGV[2] x claimants is over 1000
    'SHARDS <recorded> <resharding to, or 0> <count> <meta>' when KEYS[20]'s marker does not match shards
]]
include("includes/claim_record", "includes/claimants", "list/includes/group", "list/includes/lease", "includes/limits")
include("includes/pause", "list/includes/priority", "includes/rate", "list/includes/record", "includes/shards")
include("includes/time")

local settings = cmsgpack.unpack(ARGV[1])
local strict, block = settings.priorityMode == 'strict', settings.groupOnDeadLetter == 'block'
local claimants = claimants_of(ARGV[3])
local per_part = tonumber(ARGV[2])
require_batch(per_part * #claimants, 'claim')
require_shards(KEYS[20], settings.shards)

local now = now_ms()
mark_live(KEYS[6], now, tonumber(ARGV[4]), claimants)
local earlier = recorded_claim(KEYS[7], ARGV[5])
if earlier then
  local ids, tokens, parts = {}, {}, {}
  for k = 1, #earlier, 3 do
    ids[#ids + 1] = earlier[k]
    tokens[#tokens + 1] = earlier[k + 1]
    parts[#parts + 1] = earlier[k + 2]
  end
  local records = redis.call('HMGET', KEYS[3], unpack(ids))
  local states = redis.call('HMGET', KEYS[4], unpack(ids))
  local out = {}
  for k, id in ipairs(ids) do
    local deliveries, token = nil, nil
    if states[k] then
      deliveries, token = parse_lease(states[k])
    end
    if records[k] and deliveries and token == tokens[k] and not record_problem(records[k]) then
      local n = #out
      out[n + 1] = id
      out[n + 2] = token
      out[n + 3] = deliveries
      out[n + 4] = records[k]
      out[n + 5] = parts[k]
    end
  end
  out[#out + 1] = redis.call('LLEN', KEYS[1]) + redis.call('ZCARD', KEYS[16])
  return out
end
local paused = paused_reply(KEYS[8], KEYS[9])
if paused then
  return paused
end
local prioritized = redis.call('ZCARD', KEYS[16])
local ready = redis.call('LLEN', KEYS[1]) + prioritized
if ready == 0 then
  return {0}
end
local room = per_part * #claimants
local cap = settings.maxInflight
if cap > 0 then
  room = math.min(room, cap - redis.call('ZCARD', KEYS[2]))
  if room <= 0 then
    redis.pcall('SET', KEYS[10], '1')
    return {ready}
  end
end
local interval, allowed, wait = rate_allows(KEYS[11], now, settings.rateLimit, settings.ratePeriod,
    settings.rateBurst)
if allowed == 0 then
  return rate_limited(KEYS[15], wait)
end
room = math.min(room, allowed)
local live = math.max(1, redis.call('ZCOUNT', KEYS[6], now, '+inf'))
local share = math.min(per_part, math.ceil(ready / live))
local want = math.min(room, share * #claimants)
local ids, levels, places
if prioritized == 0 then
  ids = redis.call('LRANGE', KEYS[1], 0, want - 1)
else
  local cursor = tonumber(redis.call('GET', KEYS[17]) or '0') or 0
  ids, levels, places = next_in_line(KEYS[1], KEYS[16], level_counts(KEYS[1], KEYS[16]), want, strict,
      cursor % #CYCLE)
end
local records = redis.call('HMGET', KEYS[3], unpack(ids))
local states = redis.call('HMGET', KEYS[4], unpack(ids))
local extras = extras_of(KEYS[12], ids)
redis.call('ZSCORE', KEYS[2], ids[1])
local tokens = redis.call('LLEN', KEYS[5])

local batch, expired, malformed, taken = {}, {}, {}, #ids
local part, in_part, sizes = 1, 0, {}
for i = 1, #ids do
  local record, state = records[i], states[i]
  local deliveries, _, credits, flags = 0, nil, 0, ''
  if state then
    deliveries, _, credits, flags = parse_lease(state)
  end
  local ends = parse_extras(extras[i])
  if record and ends and ends <= now then
    expired[#expired + 1] = {ids[i], 'expired: its time to live ended at ' .. string.format('%d', ends), extras[i]}
  elseif deliveries and record then
    local problem = record_problem(record)
    local solo = has_flag(flags, 's')
    if problem then
      malformed[#malformed + 1] = {ids[i], problem, extras[i]}
    else
      if in_part > 0 and (solo or in_part == share or batch[#batch].solo) then
        part, in_part = part + 1, 0
      end
      if part > #claimants then
        taken = i - 1
        break
      end
      in_part = in_part + 1
      sizes[part] = in_part
      batch[#batch + 1] = {i = i, deliveries = deliveries + 1, credits = credits, solo = solo, part = part,
        extras = extras[i] and true, failed = has_flag(flags, 'f')}
    end
  end
end

local function taken_off(messages)
  local off, values = {}, {}
  for k, m in ipairs(messages) do
    off[k] = m[1]
    values[k] = m[3] or false
  end
  return off, groups_in(values, KEYS[18], KEYS[19], KEYS[1])
end

local function dead_letter(messages)
  local dead, failures = {}, {}
  for _, m in ipairs(messages) do
    dead[#dead + 1] = now
    dead[#dead + 1] = m[1]
    failures[#failures + 1] = m[1]
    failures[#failures + 1] = m[2]
  end
  redis.call('ZADD', KEYS[13], unpack(dead))
  redis.call('HSET', KEYS[14], unpack(failures))
end

if #expired + #malformed > 0 then
  local first = (expired[1] or malformed[1])[1]
  redis.call('ZSCORE', KEYS[13], first)
  redis.call('HEXISTS', KEYS[14], first)
end
local gone, gids, grouped = taken_off(expired)
local bad, badGids, badGrouped = taken_off(malformed)
if prioritized == 0 then
  redis.call('LTRIM', KEYS[1], taken, -1)
elseif taken > 0 then
  take_in_line(KEYS[1], KEYS[16], ids, levels, taken)
  if not strict then
    redis.call('SET', KEYS[17], places[taken])
  end
end
local left = ready - taken
local drop = settings.expiredMessages == 'drop'
if #expired > 0 then
  local kept, cleared = {}, {}
  for k, m in ipairs(expired) do
    local value = not drop and extras_value('', select(2, parse_extras(m[3])), gids[k] or '')
    if value then
      kept[#kept + 1] = m[1]
      kept[#kept + 1] = value
    else
      cleared[#cleared + 1] = m[1]
    end
  end
  if #cleared > 0 then
    redis.call('HDEL', KEYS[12], unpack(cleared))
  end
  if #kept > 0 then
    redis.call('HSET', KEYS[12], unpack(kept))
  end
  if drop then
    redis.call('HDEL', KEYS[3], unpack(gone))
    redis.call('HDEL', KEYS[4], unpack(gone))
    redis.call('HDEL', KEYS[14], unpack(gone))
  else
    dead_letter(expired)
  end
  if grouped then
    left = left + groups_move_on(KEYS[1], KEYS[18], KEYS[19], gone, gids, not drop and block)
  end
end
if #malformed > 0 then
  dead_letter(malformed)
  if badGrouped then
    left = left + groups_move_on(KEYS[1], KEYS[18], KEYS[19], bad, badGids, block)
  end
end
if left > 0 and tokens == 0 then
  redis.call('RPUSH', KEYS[5], '1')
end
if #batch == 0 then
  return {left}
end

local deadline = string.format('%d', now + settings.visibility)
local token = ARGV[5]
local made = {}
local function lease_of(m)
  local flags = lease_flags(sizes[m.part] > 1, m.solo, m.extras, m.failed)
  made[m.deliveries] = made[m.deliveries] or {}
  local by_flags = made[m.deliveries][m.credits] or {}
  made[m.deliveries][m.credits] = by_flags
  by_flags[flags] = by_flags[flags] or lease_value(m.deliveries, token, m.credits, flags)
  return by_flags[flags]
end
local out, leases, inflight, claimed = {}, {}, {}, {}
for _, m in ipairs(batch) do
  local id = ids[m.i]
  leases[#leases + 1] = id
  leases[#leases + 1] = lease_of(m)
  inflight[#inflight + 1] = deadline
  inflight[#inflight + 1] = id
  local n = #out
  out[n + 1] = id
  out[n + 2] = token
  out[n + 3] = m.deliveries
  out[n + 4] = records[m.i]
  out[n + 5] = m.part
  claimed[#claimed + 1] = id
  claimed[#claimed + 1] = token
  claimed[#claimed + 1] = m.part
end
redis.call('HSET', KEYS[4], unpack(leases))
redis.call('ZADD', KEYS[2], unpack(inflight))
record_claim(KEYS[7], ARGV[5], claimed, settings.visibility)
if interval then
  rate_take(KEYS[11], now, interval, #batch)
end
out[#out + 1] = left
return out
