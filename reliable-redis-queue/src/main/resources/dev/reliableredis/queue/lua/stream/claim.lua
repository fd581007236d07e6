--[[
  stream/claim: delivers entries to one consumer of a group for the claimants of ARGV[4] (its idle threads), in
  parts, one batch per claimant: each part up to ARGV[3] entries, and no more than one claimant's share of what is
  ready; the parts are filled in the order of ARGV[4], each up to the share before the next begins. First the entries whose retry is due (re-claimed with XCLAIM,
  which counts the delivery in the pending entries list), then new entries (XREADGROUP '>'). Each step is one
  command for the whole batch (the due retries' counts are read with two). The same script serves the
  dead-letter stream for a dead-letter consumer.

  The share: max(1, ceil(ready / live)), where ready is the group's lag plus the due retries, and live counts the
  claimants (consumer threads, in every JVM) that claimed or were claimed for within their live window; each claim
  records every claimant it claims for in the claimers set (the reaper drops those whose window has passed). Where
  Redis does not know the group's lag (Redis 6.2, or entries deleted behind the group's position), each part takes
  up to ARGV[3]. The lag (XINFO GROUPS) is read only where the share can make a part smaller: parts of more than one
  with more than one live claimant; a lone claimant's part takes what is ready, up to ARGV[3], either way.

  In a part of more than one, each entry's delivery is marked batched in the deliveries hash (see
  stream/includes/deliveries), so that the reaper fails none of them when their consumer dies. An entry marked
  solo is claimed alone: it is a part of its own, and when no part is left for it the claim ends before it.

  KEYS[1] stream      the stream read (the dead-letter stream for a dead-letter consumer)
  KEYS[2] retry       zset entry id -> time its retry is due (ms), entries pending in the group
  KEYS[3] claimers    zset claimant id -> server time (ms) until which it counts as live
  KEYS[4] deliveries  hash entry id -> "batchedAt|credits|solo" (see stream/includes/deliveries)
  KEYS[5] claim       the consumer's last claim (see includes/claim_record)
  KEYS[6] paused      exists while the queue is paused (see pause)
  KEYS[7] resumed     stream of the last resume (see resume)
  KEYS[8] rate        the rate limit's theoretical arrival time (see includes/rate)
  KEYS[9] capped      exists while a claim found the group at its maxInflight (see stream/includes/capacity)
  KEYS[10] freed      stream of the last settlement after the group was capped (see stream/includes/capacity)
  KEYS[11] dead       the dead-letter stream, where expired entries go
  KEYS[12] ids        hash message id -> entry reference (see enqueue)
  KEYS[13] limited    exists while the rate limit holds the group's claims back (written here, read by stats)
  KEYS[14] meta       hash of the queue's own settings, whose shard count marker ARGV[15] must match
                      (includes/shards); without this key the count is not checked

  ARGV[1] group
  ARGV[2] consumer
  ARGV[3] most entries of one part
  ARGV[4] the claimants' ids, separated by spaces: one part each
  ARGV[5] how long after this claim a claimant counts as live, in ms
  ARGV[6] claim id: the same as the consumer's last claim when that claim's outcome is unknown to it
  ARGV[7] visibility timeout in ms: how long the claim's record is kept
  ARGV[8] '1' when the queue's pause holds this claim; '0' for a dead-letter consumer, which a pause does not hold
  ARGV[9] rateLimit: the most entries claimed per period, across all consumers; 0: no limit (a dead-letter consumer)
  ARGV[10] the rate limit's period in ms
  ARGV[11] rateLimitBurst: the most entries claimed at once at the rate limit
  ARGV[12] maxInflight: the most entries of the group in flight at once, across all its consumers; 0: no cap (a
           dead-letter consumer)
  ARGV[13] 'drop' to drop expired entries; else they are dead-lettered
  ARGV[14] 'all-groups' or 'never': when to delete an expired entry from the stream (see ack)
  ARGV[15] the endpoint's shard count, with KEYS[14]

  A claim that has run before with this claim id (includes/claim_record) takes nothing: it returns those of its
  first run's entries that are still pending for this consumer with the delivery count of that run, in the same
  shape and parts; when none is, a claim under a rate limit or a cap goes on as a new one. Else, while the queue is paused
  (and ARGV[8] is '1'), the claim takes nothing and returns {'paused', ms the pause has left (-1: until resumed),
  the id of the last resume} (includes/pause).

  With a rate limit (includes/rate), a claim takes at most what the limit allows now; when the limit allows none,
  it takes nothing, marks the group limited for that long and returns {'limited', ms until the limit allows one,
  ''}, the shape of a paused claim's reply.

  With a cap, a claim takes at most the cap less the group's entries in flight: its pending entries less those
  parked for a retry, so that batch-mates waiting their turn and the entries of a consumer that died, not yet
  taken over by the reaper, count. A claim that finds no room takes nothing, marks the group capped and returns
  {'capped', -1, the id of the freed stream's last entry}: its claimant waits for a newer entry, which the next ack
  or nack adds.

  A blocking XREADGROUP would take an entry past the limit or the cap, so a claimant with either never reads by
  itself: a claim that finds nothing to take returns {'caught-up', -1, the group's last delivered id}, and its
  claimant waits for an entry after that id with a blocking XREAD, which takes nothing, then claims again.

  An entry whose time to live has passed (its last field, expires, is now or earlier; see enqueue) is never
  delivered, whether it is new or a due retry: it is dead-lettered with the failure 'expired: its time to live
  ended at <ms>' and its delivery count less the one this claim counted (stream/includes/dead_letter), or, with
  ARGV[13] 'drop', acked and deleted as ARGV[14] says (the id of a deleted entry is unknown). An entry whose
  expires field something else wrote malformed (not a number) fails alone: it is dead-lettered in the same way,
  with the failure "malformed record: expires '<its value>' is not a number", whatever ARGV[13] says, and the rest
  of the batch is delivered. Neither counts against the cap or the rate limit. The dead-letter stream and the id
  index are type-checked only when an entry is dead-lettered: the claim's reads have written by then, so a wrong
  type there leaves the batch pending for the reaper to return.

  Returns a flat array, 4 entries per delivery: entry id, delivery count, field array {k1, v1, ...}, part (1: the
  first claimant's).
  A due retry whose entry was deleted meanwhile is acked away and not returned.
  Errors with NOGROUP when the group does not exist (the caller creates it).

  Fails with an error, before it writes anything, when ARGV[3] times the claimants is more than 1000
  (includes/limits), or for a shard
  count the marker does not match: 'SHARDS <recorded> <resharding to, or 0> <count> <meta>' (includes/shards).
]]
--- @include "includes/claim_record"
--- @include "includes/claimants"
--- @include "includes/limits"
--- @include "includes/pause"
--- @include "includes/rate"
--- @include "includes/shards"
--- @include "includes/time"
--- @include "includes/types"
--- @include "stream/includes/dead_letter"
--- @include "stream/includes/deliveries"
--- @include "stream/includes/groups"

-- the group's entries in flight: its pending entries less those parked with the retry consumer
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

local claimants = claimants_of(ARGV[4])
local per_part = tonumber(ARGV[3])
require_batch(per_part * #claimants, 'claim')
local refused = KEYS[14] and shards_refusal(KEYS[14], ARGV[15])
if refused then
  return refused
end

require_type(KEYS[2], 'zset')
require_type(KEYS[3], 'zset')
require_type(KEYS[4], 'hash')
local now = now_ms()
local stream, group, consumer = KEYS[1], ARGV[1], ARGV[2]
mark_live(KEYS[3], now, tonumber(ARGV[5]), claimants)
local earlier = recorded_claim(KEYS[5], ARGV[6])
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
  -- none of them left: a claimant under a rate limit or a cap claims anew rather than read by itself
  if #out > 0 or (ARGV[9] == '0' and ARGV[12] == '0') then
    return out
  end
end
local paused = ARGV[8] == '1' and paused_reply(KEYS[6], KEYS[7])
if paused then
  return paused
end
local interval, allowed, wait = rate_allows(KEYS[8], now, ARGV[9], ARGV[10], ARGV[11])
if allowed == 0 then
  return rate_limited(KEYS[13], wait)
end
local count = math.min(per_part * #claimants, allowed)
local cap = tonumber(ARGV[12])
if cap > 0 then
  require_type(KEYS[9], 'string')
  require_type(KEYS[10], 'stream')
  local room = cap - in_flight(stream, group)
  if room <= 0 then
    -- pcall: on a Redis at its maxmemory the mark is lost, and the claimant claims again within a second
    redis.pcall('SET', KEYS[9], '1')
    local last = redis.call('XREVRANGE', KEYS[10], '+', '-', 'COUNT', 1)[1]
    return {'capped', -1, last and last[1] or '0-0'}
  end
  count = math.min(count, room)
end
-- the share needs the group's lag, which only XINFO GROUPS gives (formatting every group's figures): read only where
-- the share can change a part, in parts of more than one with another live claimant to share with
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

-- the part of the next delivery, a solo one in a part of its own; nil when no part is left for it
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

-- each delivery: entry id, delivery count, fields, its credits and solo flag, and its part
local batch = {}
-- the due retries, in parts, re-claimed with one XCLAIM, their counts read with two commands
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
    -- Redis 6.2 answers a deleted entry with an entry without fields; 7 leaves it out (and drops it as pending)
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
-- the parts left: a solo retry's part is full, and the others up to the share
local room = math.min(count - #taken, (#claimants - part + 1) * share - (last_solo and share or in_part))
if room > 0 then
  local read = redis.call('XREADGROUP', 'GROUP', group, consumer, 'COUNT', room, 'STREAMS', stream, '>')
  if read then
    for _, e in ipairs(read[1][2]) do
      batch[#batch + 1] = {e[1], 1, e[2], 0, false, next_part(false)}
    end
  end
end

-- the server time an entry the component wrote with a time to live expires at (add_message writes it last);
-- false for an entry without one; nil and what is wrong when something else wrote its expires field
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
  if expired and ARGV[13] == 'drop' then
    -- the id index is left to the reaper's sweep: an id whose entry is gone counts as unknown
    redis.call('XACK', stream, group, entry)
    redis.call('HDEL', KEYS[4], entry)
    delete_acked(stream, group, entry, ARGV[14])
  elseif expired or malformed then
    if not checked then
      require_type(KEYS[11], 'stream')
      require_type(KEYS[12], 'hash')
      checked = true
    end
    dead_letter(stream, group, KEYS[2], KEYS[11], KEYS[12], KEYS[4], entry, d[2] - 1,
        malformed or 'expired: its time to live ended at ' .. d[3][#d[3]], ARGV[14])
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
  record_claim(KEYS[5], ARGV[6], claimed, ARGV[7])
end
if #batch == 0 and (interval or cap > 0) then
  info = info or group_info(stream, group)
  return {'caught-up', -1, info and info['last-delivered-id'] or '$'}
end
if interval then
  rate_take(KEYS[8], now, interval, #batch)
end
return out
