--[[
  list/browse: reads up to ARGV[2] messages of one section of a queue, oldest first, without changing anything.

  KEYS[1] ready          list of ids
  KEYS[2] inflight       zset id -> lease deadline
  KEYS[3] delayed        zset id -> due time
  KEYS[4] dead           zset id -> time available to a dead-letter consumer
  KEYS[5] dead-inflight  zset id -> lease deadline
  KEYS[6] messages       hash id -> "enqueuedAt|payload"
  KEYS[7] leases         hash id -> "deliveries|leaseToken[|credits|flags]"
  KEYS[8] failure        hash id -> last failure
  KEYS[9] prioritized    zset id -> level and place of a ready message with a priority
  KEYS[10] grouped       zset of the groups' lines

  ARGV[1] section: 'ready' (in claim order), 'inflight' (both in-flight sets), 'delayed' or 'dead'
  ARGV[2] most messages to read
  ARGV[3] visibility timeout in ms: a lease was taken or last extended at its deadline less this

  Returns: {server time in ms, then 6 entries per message: id, record, delivery count, lease age in ms (inflight,
    else -1), ms until due (delayed: 0 when due, else -1), last failure (dead letters and delayed retries, else nil)}]]
include("list/includes/group", "list/includes/lease", "list/includes/priority", "includes/time")

local section, limit, visibility = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local now = now_ms()

local function lowest(key, deadLetters)
  local flat = redis.call('ZRANGE', key, 0, limit - 1, 'WITHSCORES')
  local members = {}
  for i = 1, #flat, 2 do
    members[#members + 1] = {flat[i], tonumber(flat[i + 1]), deadLetters}
  end
  return members
end

local members
if section == 'ready' then
  members = {}
  local prioritized = redis.call('ZCARD', KEYS[9]) > 0
  for level = 9, 0, -1 do
    local line = {}
    if level == DEFAULT_LEVEL then
      line = redis.call('LRANGE', KEYS[1], 0, limit - #members - 1)
    elseif prioritized then
      local low, high = level_range(level)
      line = redis.call('ZRANGEBYSCORE', KEYS[9], low, high, 'LIMIT', 0, limit - #members)
    end
    for _, id in ipairs(line) do
      members[#members + 1] = {id}
    end
    if #members == limit then
      break
    end
  end
  if #members < limit then
    for _, member in ipairs(redis.call('ZRANGE', KEYS[10], 0, limit - #members - 1)) do
      members[#members + 1] = {member_id(member)}
    end
  end
elseif section == 'inflight' then
  members = lowest(KEYS[2], false)
  for _, member in ipairs(lowest(KEYS[5], true)) do
    members[#members + 1] = member
  end
  -- ties (one claim's batch shares its deadline) in id order, as ZRANGE has them
  table.sort(members, function(a, b)
    return a[2] < b[2] or (a[2] == b[2] and a[1] < b[1])
  end)
elseif section == 'delayed' then
  members = lowest(KEYS[3], false)
else
  members = lowest(KEYS[4], true)
end

local out = {now}
local ids = {}
for i = 1, math.min(#members, limit) do
  ids[i] = members[i][1]
end
if #ids == 0 then
  return out
end
local records = redis.call('HMGET', KEYS[6], unpack(ids))
local states = redis.call('HMGET', KEYS[7], unpack(ids))
local failures = redis.call('HMGET', KEYS[8], unpack(ids))
for i, id in ipairs(ids) do
  local deliveries = deliveries_of(states[i])
  if records[i] and deliveries then
    local score, deadLetter = members[i][2], members[i][3]
    local n = #out
    out[n + 1] = id
    out[n + 2] = records[i]
    out[n + 3] = deliveries
    out[n + 4] = section == 'inflight' and math.max(0, now - (score - visibility)) or -1
    out[n + 5] = section == 'delayed' and math.max(0, score - now) or -1
    out[n + 6] = (deadLetter or section == 'delayed') and failures[i] or false
  end
end
return out
