--[[
  stream/enqueue: adds one message to the stream (or to the delayed set), idempotently on its id.

  The entry's fields are: body, id, headers (only when there are headers) and enqueued (server time
  of the first enqueue, ms).

  KEYS[1] stream       the stream consumers read
  KEYS[2] dead         the dead-letter stream
  KEYS[3] ids          hash message id -> entry id in the stream, or 'd:' .. entry id in the dead stream
  KEYS[4] acked        zset message id -> time until which the acked id is remembered (ms)
  KEYS[5] delayed      zset message id -> due time (ms)
  KEYS[6] delayed-msg  hash message id -> cmsgpack {body, headers, enqueued} of a delayed message

  ARGV[1] message id
  ARGV[2] body bytes
  ARGV[3] headers JSON, '' for none
  ARGV[4] delay in ms, 0 for now
  ARGV[5] approximate MAXLEN for the XADD, 0 for none

  Returns 1 when stored, 0 when the id is known: in the stream (undelivered or pending), delayed, dead,
  or acked within the idempotency window. An id whose entry was trimmed away counts as unknown.
]]
--- @include "includes/time"
--- @include "stream/includes/add"

local id = ARGV[1]
local ref = redis.call('HGET', KEYS[3], id)
if ref then
  local stream, entry = KEYS[1], ref
  if string.sub(ref, 1, 2) == 'd:' then
    stream, entry = KEYS[2], string.sub(ref, 3)
  end
  if #redis.call('XRANGE', stream, entry, entry) > 0 then
    return 0
  end
end
if redis.call('ZSCORE', KEYS[5], id) then
  return 0
end
local now = now_ms()
local remembered = redis.call('ZSCORE', KEYS[4], id)
if remembered and tonumber(remembered) > now then
  return 0
end
-- The first write must be one Redis refuses when it is out of memory (HSET, XADD): a script that has written
-- once is let through to the end, so a refusal can only come before anything is written.
local delay = tonumber(ARGV[4])
if delay > 0 then
  redis.call('HSET', KEYS[6], id, cmsgpack.pack(ARGV[2], ARGV[3], now))
  redis.call('ZADD', KEYS[5], now + delay, id)
  redis.call('ZREM', KEYS[4], id)
  return 1
end
add_message(KEYS[1], KEYS[3], ARGV[5], id, ARGV[2], ARGV[3], string.format('%d', now))
redis.call('ZREM', KEYS[4], id)
return 1
