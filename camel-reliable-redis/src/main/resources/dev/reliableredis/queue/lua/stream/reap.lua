--[[
  stream/reap: the periodic housekeeping of a stream queue, each part bounded by ARGV[5].

  - Takeover: entries pending longer than the visibility timeout without an extension (their consumer
    died or hangs) are taken with XAUTOCLAIM JUSTID (which counts no delivery) and put in the retry set,
    due now; claim then delivers them again and counts the delivery. When their deliveries (the pending
    entries list's counter) are used up they are dead-lettered with failure 'lease expired' instead,
    exactly as nack does. Entries waiting for their retry are left alone.
  - Due delayed messages are added to the stream.
  - Acked ids older than the idempotency window are forgotten.
  - The id index is swept (HSCAN, a cursor per call) of ids whose entries are gone (trimmed by MAXLEN).

  KEYS[1]  source        the stream read (the dead-letter stream for a dead-letter consumer)
  KEYS[2]  retry         zset entry id -> retry due time, of this group on the source
  KEYS[3]  cursor        string: the XAUTOCLAIM cursor of this group on the source
  KEYS[4]  stream        the queue's stream (delayed messages go there)
  KEYS[5]  dead          the dead-letter stream
  KEYS[6]  ids           hash message id -> entry reference
  KEYS[7]  acked         zset message id -> time until which it is remembered
  KEYS[8]  delayed       zset message id -> due time
  KEYS[9]  delayed-msg   hash message id -> cmsgpack {body, headers, enqueued}
  KEYS[10] ids-cursor    string: the HSCAN cursor of the id index

  ARGV[1] group
  ARGV[2] consumer the taken-over entries are parked with
  ARGV[3] visibility timeout in ms (minimum idle time for a takeover)
  ARGV[4] deliveries after which an expired lease dead-letters (maxRetries + 1); 0: never (dead letters)
  ARGV[5] most entries to move in each part
  ARGV[6] approximate MAXLEN for the XADD of delayed messages, 0 for none
  ARGV[7] 'all-groups' or 'never': when to delete a dead-lettered entry from the stream (see ack)

  Returns {taken over for a retry, dead-lettered, delayed released, acked ids forgotten, stale ids swept}.
  Errors with NOGROUP when the group does not exist on the source.
]]
local source, group, consumer = KEYS[1], ARGV[1], ARGV[2]
local maxDeliveries, batch, maxLen, deletion = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

--- @include "stream/includes/groups"
--- @include "stream/includes/dead_letter"
--- @include "stream/includes/add"

local takenOver, deadLettered, released, forgotten, swept = 0, 0, 0, 0, 0

local claimed = redis.call('XAUTOCLAIM', source, group, consumer, ARGV[3],
    redis.call('GET', KEYS[3]) or '0-0', 'COUNT', batch, 'JUSTID')
redis.call('SET', KEYS[3], claimed[1])
for _, entry in ipairs(claimed[2]) do
  if not redis.call('ZSCORE', KEYS[2], entry) then
    local pending = redis.call('XPENDING', source, group, entry, entry, 1)
    local deliveries = tonumber(pending[1][4])
    if maxDeliveries > 0 and deliveries >= maxDeliveries then
      dead_letter(source, group, KEYS[2], KEYS[5], KEYS[6], entry, deliveries, 'lease expired', deletion)
      deadLettered = deadLettered + 1
    else
      redis.call('ZADD', KEYS[2], now, entry)
      takenOver = takenOver + 1
    end
  end
end

for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[8], '-inf', now, 'LIMIT', 0, batch)) do
  local packed = redis.call('HGET', KEYS[9], id)
  if packed then
    local body, headers, enqueued = cmsgpack.unpack(packed)
    add_message(KEYS[4], KEYS[6], maxLen, id, body, headers, string.format('%d', enqueued))
    released = released + 1
  end
  -- only once the message is in the stream
  redis.call('ZREM', KEYS[8], id)
  redis.call('HDEL', KEYS[9], id)
end

local old = redis.call('ZRANGEBYSCORE', KEYS[7], '-inf', now, 'LIMIT', 0, batch)
for i = 1, #old, 1000 do
  redis.call('ZREM', KEYS[7], unpack(old, i, math.min(i + 999, #old)))
end
forgotten = #old

local scan = redis.call('HSCAN', KEYS[6], redis.call('GET', KEYS[10]) or '0', 'COUNT', batch)
redis.call('SET', KEYS[10], scan[1])
for i = 1, #scan[2], 2 do
  local id, ref = scan[2][i], scan[2][i + 1]
  local stream, entry = KEYS[4], ref
  if string.sub(ref, 1, 2) == 'd:' then
    stream, entry = KEYS[5], string.sub(ref, 3)
  end
  if #redis.call('XRANGE', stream, entry, entry) == 0 then
    redis.call('HDEL', KEYS[6], id)
    swept = swept + 1
  end
end

return {takenOver, deadLettered, released, forgotten, swept}
