--[[
  enqueue: stores a batch of messages and makes each ready (or delayed), idempotently on its id.

  A message is stored once, as one field of the messages hash keyed by its id, "enqueuedAt|payload"; only the id
  moves between the ready list and the sorted sets afterwards, so equal payloads never collide and a large body is
  never copied. The payload is "<length of the headers JSON>|<headers JSON><body>", so that the body is stored byte
  for byte, whatever it holds. A message with a time to live gets the server time it ends at in the expires hash,
  which claim checks.

  KEYS[1] ready     list of ids, consumed from the head
  KEYS[2] delayed   zset id -> due time (ms)
  KEYS[3] messages  hash id -> "enqueuedAt|payload"
  KEYS[4] acked     zset id -> time until which the acked id is remembered (ms)
  KEYS[5] wake      list of wake-up tokens for idle consumers (see includes/wake)
  KEYS[6] expires   hash id -> server time (ms) after which the message is not delivered any more
  KEYS[7] prioritized  zset id -> level and place of a ready message with a priority (see includes/priority)
  KEYS[8] priority  hash id -> priority level of a message sent with one
  KEYS[9] seq       counter the places in a level's line, and in a group's, are drawn from
  KEYS[10] group    hash id -> group id of a message sent with one (see includes/group)
  KEYS[11] groups   hash group id -> id of its current message
  KEYS[12] grouped  zset of the groups' lines (see includes/group)

  ARGV[5k-4] id of the k-th message
  ARGV[5k-3] its payload
  ARGV[5k-2] its delay in ms, 0 for ready now
  ARGV[5k-1] its time to live in ms from now, 0 for none: only a message with one gets an expires field
  ARGV[6k-1] its priority level, 0 to 9: a message of another level than 4 gets a priority field and waits in
             the prioritized set instead of the ready list
  ARGV[6k]   its group id, '' for none: a message with one joins its group (includes/group)

  With 12 keys, 6 arguments per message as above. A caller with 9 keys passes 5 per message, without the group,
  one with 6 keys 4, without the priority either, and one with 5 keys 3, without the time to live either (the
  layouts before them), as other programs that enqueue do: their messages have level 4 and no group.

  Returns one code per message, in order: 1 stored, 0 a no-op because the id is already queued, delayed, in
  flight, dead, acked within the idempotency window, or earlier in the same batch.

  Fails with an error, before it writes anything, for a batch of more than 1000 (includes/limits), a priority
  that is not 0 to 9, or a message with a group id and a delay or a priority (a group is delivered in its order).
]]
--- @include "includes/wake"
--- @include "includes/time"
--- @include "includes/types"
--- @include "includes/limits"
--- @include "includes/priority"
--- @include "includes/group"

local stride = KEYS[10] and 6 or (KEYS[7] and 5 or (KEYS[6] and 4 or 3))
require_batch(#ARGV / stride, 'enqueue')

require_type(KEYS[1], 'list')
require_type(KEYS[2], 'zset')
require_type(KEYS[3], 'hash')
require_type(KEYS[4], 'zset')
require_type(KEYS[5], 'list')
local now = now_ms()
local stamp = string.format('%d', now) .. '|'
local ids = {}
for i = 1, #ARGV, stride do
  ids[#ids + 1] = ARGV[i]
end
local remembered = redis.call('ZMSCORE', KEYS[4], unpack(ids))
local codes, records, ready, delayed, forget, seen, expiring = {}, {}, {}, {}, {}, {}, {}
local levels, leveled, grouped = {}, {}, {}
for k, id in ipairs(ids) do
  local until_ms = remembered[k] and tonumber(remembered[k])
  if seen[id] or (until_ms and until_ms > now) or redis.call('HEXISTS', KEYS[3], id) == 1 then
    codes[k] = 0
  else
    seen[id] = true
    codes[k] = 1
    records[#records + 1] = id
    local first = stride * (k - 1)
    records[#records + 1] = stamp .. ARGV[first + 2]
    local delay = tonumber(ARGV[first + 3])
    local ttl = stride >= 4 and tonumber(ARGV[first + 4]) or 0
    if ttl > 0 then
      expiring[#expiring + 1] = id
      expiring[#expiring + 1] = now + ttl
    end
    local level = stride >= 5 and tonumber(ARGV[first + 5]) or DEFAULT_LEVEL
    if not level or level < 0 or level > 9 or level % 1 ~= 0 then
      error({err = 'ERR enqueue: the priority of message ' .. id .. " is '" .. ARGV[first + 5] .. "', not 0 to 9"})
    end
    local gid = stride == 6 and ARGV[first + 6] or ''
    if gid ~= '' and (delay > 0 or level ~= DEFAULT_LEVEL) then
      error({err = 'ERR enqueue: message ' .. id .. " of group '" .. gid .. "' has a delay or a priority; a group"
          .. ' is delivered in its order'})
    end
    if gid ~= '' then
      grouped[#grouped + 1] = {id = id, gid = gid}
    elseif level ~= DEFAULT_LEVEL then
      levels[#levels + 1] = id
      levels[#levels + 1] = level
    end
    if delay > 0 then
      delayed[#delayed + 1] = now + delay
      delayed[#delayed + 1] = id
    elseif level ~= DEFAULT_LEVEL then
      leveled[#leveled + 1] = id
    elseif gid == '' then
      ready[#ready + 1] = id
    end
    if until_ms then
      forget[#forget + 1] = id
    end
  end
end
if #records == 0 then
  return codes
end
-- the keys only some messages write, type-checked only when a message of this call writes them
if #expiring > 0 then
  require_type(KEYS[6], 'hash')
end
if #levels > 0 then
  require_type(KEYS[7], 'zset')
  require_type(KEYS[8], 'hash')
end
if #grouped > 0 then
  require_type(KEYS[9], 'string')
  require_type(KEYS[10], 'hash')
  require_type(KEYS[11], 'hash')
  require_type(KEYS[12], 'zset')
end
-- The first write must be one Redis refuses when it is out of memory (HSET): a script that has written once is
-- let through to the end, so a refusal can only come before anything is written.
redis.call('HSET', KEYS[3], unpack(records))
if #forget > 0 then
  redis.call('ZREM', KEYS[4], unpack(forget))
end
if #expiring > 0 then
  redis.call('HSET', KEYS[6], unpack(expiring))
end
if #delayed > 0 then
  redis.call('ZADD', KEYS[2], unpack(delayed))
end
if #levels > 0 then
  redis.call('HSET', KEYS[8], unpack(levels))
  local waiting = redis.call('ZCARD', KEYS[7])
  for _, id in ipairs(leveled) do
    make_ready(KEYS[1], KEYS[7], KEYS[8], KEYS[9], id, false)
  end
  if waiting == 0 and #leveled > 0 then
    wake(KEYS[5])
  end
end
if #grouped > 0 then
  local group = {}
  for _, m in ipairs(grouped) do
    group[#group + 1] = m.id
    group[#group + 1] = m.gid
  end
  redis.call('HSET', KEYS[10], unpack(group))
  local woke = false
  for _, m in ipairs(grouped) do
    if join_group(KEYS[1], KEYS[11], KEYS[12], KEYS[9], m.gid, m.id, false) and not woke then
      wake(KEYS[5])
      woke = true
    end
  end
end
-- a consumer that claims from a list that was empty leaves a token for the rest, if any
if #ready > 0 and redis.call('RPUSH', KEYS[1], unpack(ready)) == #ready then
  wake(KEYS[5])
end
return codes
