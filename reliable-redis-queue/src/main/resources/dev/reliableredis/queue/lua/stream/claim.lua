--[[
  stream/claim: delivers due retries, then new entries, in one part per claimant of ARGV[3], each a fair share.

  KEYS[1] stream      the stream read (the dead-letter stream for a dead-letter consumer)
  KEYS[2] retry       zset entry id -> time its retry is due (ms), of this group
  KEYS[3] claimers    zset claimant id -> server time (ms) until which it counts as live
  KEYS[4] deliveries  hash entry id -> "batchedAt|credits|solo" of this group on KEYS[1]
  KEYS[5] claim       the consumer's last claim (includes/claim_record)
  KEYS[6] paused      exists while the queue is paused
  KEYS[7] resumed     stream of the last resume
  KEYS[8] rate        the rate limit's theoretical arrival time (includes/rate)
  KEYS[9] capped      exists while a claim found the group at its maxInflight
  KEYS[10] freed      stream of the last settlement after the group was capped
  KEYS[11] dead       the dead-letter stream, where expired entries go
  KEYS[12] ids        hash message id -> entry reference
  KEYS[13] limited    exists while the rate limit holds the group's claims back
  KEYS[14] meta       hash of the queue's own settings with its shard count marker; read only for a count in shards

  ARGV[1] settings, packed (cmsgpack map):
    group, consumer: the consumer group and this consumer's name in it
    visibility: visibility timeout in ms: how long the claim's record is kept
    pausable: 1 when the queue's pause holds this claim; 0 for a dead-letter consumer
    rateLimit, ratePeriod, rateBurst: most entries claimed per period (0: no limit), in ms, and at once
    maxInflight: most entries of the group in flight at once, across all its consumers; 0: no cap
    expiredMessages: 'drop' to drop expired entries; else they are dead-lettered
    deleteAfterAck: 'all-groups', 'never' or 'always': when to delete an expired entry from the stream
    shards: the endpoint's shard count, checked against KEYS[14]'s marker; '' for no check
  ARGV[2] most entries of one part
  ARGV[3] the claimants' ids, separated by spaces: one part each
  ARGV[4] how long after this claim a claimant counts as live, in ms
  ARGV[5] claim id: the consumer's last claim id again when that claim's outcome is unknown to it

  Returns: a flat array, 4 per delivery: entry id, delivery count, field array {k1, v1, ...}, part (1: the first's)
    {'paused', ms the pause has left (-1: until resumed), the id of the last resume} while paused and pausable is 1
    {'limited', ms until the rate limit allows one, ''} when the rate limit allows none now
    {'capped', -1, the id of the freed stream's last entry} when the group has no room under its maxInflight
    {'caught-up', -1, the group's last delivered id} when nothing was taken under a rate limit or a cap
  Errors: NOGROUP when the group does not exist (the caller creates it); WRONGTYPE for a key of the wrong type
    'ERR claim of <n> in one call; at most 1000' when ARGV[2] times the claimants is more, before any write
    'SHARDS <recorded> <resharding to, or 0> <count> <meta>' for a count the marker does not match, before any write]]
include("includes/claim_record", "includes/claimants", "includes/limits", "includes/pause", "includes/rate")
include("includes/shards", "includes/time", "includes/types", "stream/includes/dead_letter")
include("stream/includes/deliveries", "stream/includes/groups")

local function in_flight(stream, group)
  local summary = redis.call('XPENDING', stream, group)
  local parked = 0
  for _, owner in ipairs(summary[4] or {}) do
    if owner[1] == RETRY_CONSUMER then
      parked = tonumber(owner[2])
    end
  end
  return summary[1] - parked
end

local settings = cmsgpack.unpack(ARGV[1])
local claimants = claimants_of(ARGV[3])
local per_part = tonumber(ARGV[2])
require_batch(per_part * #claimants, 'claim')
require_shards(KEYS[14], settings.shards)

require_type(KEYS[2], 'zset')
require_type(KEYS[3], 'zset')
require_type(KEYS[4], 'hash')
local now = now_ms()
local stream, group, consumer = KEYS[1], settings.group, settings.consumer
mark_live(KEYS[3], now, tonumber(ARGV[4]), claimants)
local earlier = recorded_claim(KEYS[5], ARGV[5])
if earlier then
  local out = {}
  for k = 1, #earlier, 3 do
    local entry, count = earlier[k], earlier[k + 1]
    local pending = redis.call('XPENDING', stream, group, entry, entry, 1, consumer)[1]
    local read = pending and pending[4] == count and redis.call('XRANGE', stream, entry, entry)[1]
    if read then
      out[#out + 1] = entry
      out[#out + 1] = count
      out[#out + 1] = read[2]
      out[#out + 1] = earlier[k + 2]
    end
  end
  if #out > 0 or (settings.rateLimit == 0 and settings.maxInflight == 0) then
    return out
  end
end
local paused = settings.pausable == 1 and paused_reply(KEYS[6], KEYS[7])
if paused then
  return paused
end
local interval, allowed, wait = rate_allows(KEYS[8], now, settings.rateLimit, settings.ratePeriod, settings.rateBurst)
if allowed == 0 then
  return rate_limited(KEYS[13], wait)
end
local count = math.min(per_part * #claimants, allowed)
local cap = settings.maxInflight
if cap > 0 then
  require_type(KEYS[9], 'string')
  require_type(KEYS[10], 'stream')
  local room = cap - in_flight(stream, group)
  if room <= 0 then
    redis.pcall('SET', KEYS[9], '1')
    local last = redis.call('XREVRANGE', KEYS[10], '+', '-', 'COUNT', 1)[1]
    return {'capped', -1, last and last[1] or '0-0'}
  end
  count = math.min(count, room)
end
local share, info = per_part, nil
local live = per_part > 1 and math.max(1, redis.call('ZCOUNT', KEYS[3], now, '+inf')) or 1
if live > 1 then
  info = group_info(stream, group)
  local lag = info and info['lag']
  if type(lag) == 'number' then
    local ready = lag + redis.call('ZCOUNT', KEYS[2], '-inf', now)
    share = math.min(share, math.max(1, math.ceil(ready / live)))
    count = math.min(count, share * #claimants)
  end
end

local part, in_part, last_solo = 1, 0, false
local function next_part(alone)
  if in_part > 0 and (alone or in_part == share or last_solo) then
    part, in_part = part + 1, 0
  end
  if part > #claimants then
    return nil
  end
  in_part, last_solo = in_part + 1, alone
  return part
end

local batch = {}
local due = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, count)
local states = #due > 0 and redis.call('HMGET', KEYS[4], unpack(due)) or {}
local taken, ids = {}, {}
for k, entry in ipairs(due) do
  local _, credits, alone = parse_delivery(states[k])
  local p = next_part(alone)
  if not p then
    break
  end
  taken[#taken + 1] = {entry, credits, alone, p}
  ids[#ids + 1] = entry
end
if #taken > 0 then
  redis.call('ZREM', KEYS[2], unpack(ids))
  local fields = {}
  for _, claimed in ipairs(redis.call('XCLAIM', stream, group, consumer, 0, unpack(ids))) do
    if claimed and claimed[2] then
      fields[claimed[1]] = claimed[2]
    end
  end
  local gone = {}
  for _, t in ipairs(taken) do
    if not fields[t[1]] then
      gone[#gone + 1] = t[1]
    end
  end
  if #gone > 0 then
    redis.call('XACK', stream, group, unpack(gone))
    redis.call('HDEL', KEYS[4], unpack(gone))
  end
  local counts = #gone < #taken and pending_counts(stream, group, consumer, ids) or {}
  for _, t in ipairs(taken) do
    if fields[t[1]] then
      batch[#batch + 1] = {t[1], tonumber(counts[t[1]]), fields[t[1]], t[2], t[3], t[4]}
    end
  end
end
local room = math.min(count - #taken, (#claimants - part + 1) * share - (last_solo and share or in_part))
if room > 0 then
  local read = redis.call('XREADGROUP', 'GROUP', group, consumer, 'COUNT', room, 'STREAMS', stream, '>')
  if read then
    for _, e in ipairs(read[1][2]) do
      batch[#batch + 1] = {e[1], 1, e[2], 0, false, next_part(false)}
    end
  end
end

local function expiry(fields)
  if fields[1] ~= 'body' or fields[#fields - 1] ~= 'expires' then
    return false
  end
  local ends = fields[#fields]
  if string.find(ends, '^%d+$') then
    return tonumber(ends)
  end
  if #ends > 20 then
    ends = string.sub(ends, 1, 20) .. '...'
  end
  return nil, "malformed record: expires '" .. ends .. "' is not a number"
end

local delivered, checked = {}, false
for _, d in ipairs(batch) do
  local entry = d[1]
  local ends, malformed = expiry(d[3])
  local expired = ends and ends <= now
  if expired and settings.expiredMessages == 'drop' then
    redis.call('XACK', stream, group, entry)
    redis.call('HDEL', KEYS[4], entry)
    delete_acked(stream, group, entry, settings.deleteAfterAck)
  elseif expired or malformed then
    if not checked then
      require_type(KEYS[11], 'stream')
      require_type(KEYS[12], 'hash')
      checked = true
    end
    dead_letter(stream, group, KEYS[2], KEYS[11], KEYS[12], KEYS[4], entry, d[2] - 1,
        malformed or 'expired: its time to live ended at ' .. d[3][#d[3]], settings.deleteAfterAck)
  else
    delivered[#delivered + 1] = d
  end
end
batch = delivered

local out, claimed, sizes, marks = {}, {}, {}, {}
for _, d in ipairs(batch) do
  sizes[d[6]] = (sizes[d[6]] or 0) + 1
end
for _, d in ipairs(batch) do
  if sizes[d[6]] > 1 then
    marks[#marks + 1] = d[1]
    marks[#marks + 1] = string.format('%d|%d|%s', d[2], d[4], d[5] and '1' or '0')
  end
  out[#out + 1] = d[1]
  out[#out + 1] = d[2]
  out[#out + 1] = d[3]
  out[#out + 1] = d[6]
  claimed[#claimed + 1] = d[1]
  claimed[#claimed + 1] = d[2]
  claimed[#claimed + 1] = d[6]
end
if #marks > 0 then
  redis.call('HSET', KEYS[4], unpack(marks))
end
if #batch > 0 then
  record_claim(KEYS[5], ARGV[5], claimed, settings.visibility)
end
if #batch == 0 and (interval or cap > 0) then
  info = info or group_info(stream, group)
  return {'caught-up', -1, info and info['last-delivered-id'] or '$'}
end
if interval then
  rate_take(KEYS[8], now, interval, #batch)
end
return out
