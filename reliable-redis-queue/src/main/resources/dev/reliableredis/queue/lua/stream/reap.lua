--[[
  stream/reap: one round of a group's housekeeping, each part bounded by the batch setting.

  KEYS[1] source        the stream read (the dead-letter stream for a dead-letter consumer)
  KEYS[2] retry         zset entry id -> retry due time, of this group on the source
  KEYS[3] stream        the queue's stream (delayed messages go there)
  KEYS[4] dead          the dead-letter stream
  KEYS[5] ids           hash message id -> entry reference
  KEYS[6] acked         zset message id -> time until which it is remembered
  KEYS[7] delayed       zset message id -> due time
  KEYS[8] delayed-msg   hash message id -> cmsgpack {body, headers, enqueued[, expires]}
  KEYS[9] deliveries    hash entry id -> "batchedAt|credits|solo" of this group on the source
  KEYS[10] claimers     zset claimant id -> server time (ms) until which it counts as live, of this group

  ARGV[1] settings, packed (cmsgpack map):
    group: the consumer group
    visibility: visibility timeout in ms (minimum idle time for a takeover)
    maxDeliveries: failed deliveries after which an expired lease dead-letters (maxRetries + 1); 0: never (dead letters)
    batch: most entries to move in each part
    maxLen: approximate MAXLEN for the XADD of delayed messages, 0 for none
    deleteAfterAck: 'all-groups', 'never' or 'always': when to delete a dead-lettered entry from the stream
  ARGV[2] HSCAN cursor of the id index to continue from ('0' to start)

  Returns: {taken over, dead-lettered, delayed released, acked ids forgotten, stale ids swept, 1: call again, cursor}
  Errors: NOGROUP without the group on the source; WRONGTYPE for a key entries move into, before any write]]
local settings = cmsgpack.unpack(ARGV[1])
local source, group, visibility = KEYS[1], settings.group, settings.visibility
local maxDeliveries, batch, maxLen, deletion = settings.maxDeliveries, settings.batch, settings.maxLen,
    settings.deleteAfterAck

include("includes/time", "includes/types", "stream/includes/add", "stream/includes/dead_letter")
include("stream/includes/delayed", "stream/includes/deliveries", "stream/includes/groups")

local now = now_ms()

require_types('zset', KEYS[2], KEYS[10])
require_types('stream', KEYS[3], KEYS[4])
require_types('hash', KEYS[5], KEYS[9])
local takenOver, deadLettered, released, swept, more = 0, 0, 0, 0, 0

local old = redis.call('ZRANGEBYSCORE', KEYS[6], '-inf', now, 'LIMIT', 0, batch)
for i = 1, #old, 1000 do
  redis.call('ZREM', KEYS[6], unpack(old, i, math.min(i + 999, #old)))
end
if #old == batch then more = 1 end

local scan = redis.call('HSCAN', KEYS[5], ARGV[2], 'COUNT', batch)
for i = 1, #scan[2], 2 do
  local id, ref = scan[2][i], scan[2][i + 1]
  local stream, entry = KEYS[3], ref
  if string.sub(ref, 1, 2) == 'd:' then
    stream, entry = KEYS[4], string.sub(ref, 3)
  end
  if #redis.call('XRANGE', stream, entry, entry) == 0 then
    redis.call('HDEL', KEYS[5], id)
    swept = swept + 1
  end
end

local function take_over(entries)
  local xclaim = {'XCLAIM', source, group, RETRY_CONSUMER, 0}
  for _, entry in ipairs(entries) do
    xclaim[#xclaim + 1] = entry
  end
  xclaim[#xclaim + 1] = 'JUSTID'
  local parked = redis.call(unpack(xclaim))
  if #parked > 0 then
    local zadd = {'ZADD', KEYS[2]}
    for _, entry in ipairs(parked) do
      zadd[#zadd + 1] = now
      zadd[#zadd + 1] = entry
    end
    redis.call(unpack(zadd))
  end
  return #parked
end

local room = batch
for _, owner in ipairs(redis.call('XPENDING', source, group)[4] or {}) do
  if owner[1] ~= RETRY_CONSUMER and room > 0 then
    local expired = {}
    local idle = redis.call('XPENDING', source, group, 'IDLE', visibility, '-', '+', room, owner[1])
    local entries = {}
    for k, p in ipairs(idle) do
      entries[k] = p[1]
    end
    local states = #entries > 0 and redis.call('HMGET', KEYS[9], unpack(entries)) or {}
    for k, p in ipairs(idle) do
      local entry, deliveries = p[1], tonumber(p[4])
      local batchedAt, credits, solo = parse_delivery(states[k])
      if batchedAt == deliveries then
        credits, solo = credits + 1, true
      end
      if states[k] then
        store_delivery(KEYS[9], entry, 0, credits, solo)
      end
      if maxDeliveries > 0 and deliveries - credits >= maxDeliveries then
        park(source, group, entry)
        dead_letter(source, group, KEYS[2], KEYS[4], KEYS[5], KEYS[9], entry, deliveries, 'lease expired',
            deletion)
        deadLettered = deadLettered + 1
      else
        expired[#expired + 1] = entry
        if #expired == 1000 then
          takenOver = takenOver + take_over(expired)
          expired = {}
        end
      end
      room = room - 1
    end
    if #expired > 0 then
      takenOver = takenOver + take_over(expired)
    end
  end
end
if room == 0 then more = 1 end

local due = redis.call('ZRANGEBYSCORE', KEYS[7], '-inf', now, 'LIMIT', 0, batch)
for i = 1, #due, 1000 do
  local chunk = {unpack(due, i, math.min(i + 999, #due))}
  local packed = redis.call('HMGET', KEYS[8], unpack(chunk))
  redis.call('ZREM', KEYS[7], unpack(chunk))
  redis.call('HDEL', KEYS[8], unpack(chunk))
  for k, id in ipairs(chunk) do
    if packed[k] then
      local body, headers, enqueued, expires = delayed_message(packed[k])
      if body then
        add_message(KEYS[3], KEYS[5], maxLen, id, body, headers, string.format('%d', enqueued), expires)
        released = released + 1
      else
        local letter = redis.call('XADD', KEYS[4], '*', 'content', packed[k], 'failure', headers, 'deliveries', '0',
            'id', id)
        redis.call('HSET', KEYS[5], id, 'd:' .. letter)
        deadLettered = deadLettered + 1
      end
    end
  end
end
if #due == batch then more = 1 end

redis.call('ZREMRANGEBYSCORE', KEYS[10], '-inf', '(' .. now)
return {takenOver, deadLettered, released, #old, swept, more, scan[1]}
