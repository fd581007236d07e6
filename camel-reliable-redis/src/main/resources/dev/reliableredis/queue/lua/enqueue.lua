--[[
  enqueue: stores one message and makes it ready (or delayed), idempotently on its id.

  The body and headers are written once, keyed by id; only the id moves between the
  ready list and the sorted sets afterwards, so equal payloads never collide and a large
  body is never copied.

  KEYS[1] ready    list of ids, consumed from the head
  KEYS[2] delayed  zset id -> due time (ms)
  KEYS[3] body     hash id -> body bytes
  KEYS[4] headers  hash id -> headers JSON
  KEYS[5] meta     hash id -> "enqueuedAt|deliveries|leaseToken"
  KEYS[6] acked    zset id -> time until which the acked id is remembered (ms)
  KEYS[7] wake     list of wake-up tokens for idle consumers (see includes/wake)

  ARGV[1] message id
  ARGV[2] body bytes
  ARGV[3] headers JSON, '' for none
  ARGV[4] delay in ms, 0 for ready now

  Returns 1 when stored, 0 when the id is already queued, delayed, in flight, dead,
  or was acked within the idempotency window (a no-op).
]]
--- @include "includes/wake"
--- @include "includes/time"
--- @include "includes/meta"
--- @include "includes/types"

local id = ARGV[1]
if redis.call('HEXISTS', KEYS[5], id) == 1 then
  return 0
end
local now = now_ms()
local remembered = redis.call('ZSCORE', KEYS[6], id)
if remembered and tonumber(remembered) > now then
  return 0
end
require_type(KEYS[1], 'list')
require_type(KEYS[2], 'zset')
require_type(KEYS[3], 'hash')
require_type(KEYS[4], 'hash')
require_type(KEYS[7], 'list')
-- The first write must be one Redis refuses when it is out of memory (HSET): a script that has written once is
-- let through to the end, so a refusal can only come before anything is written.
redis.call('HSET', KEYS[3], id, ARGV[2])
redis.call('ZREM', KEYS[6], id)
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[4], id, ARGV[3])
end
write_meta(KEYS[5], id, string.format('%d', now), 0, '')
local delay = tonumber(ARGV[4])
if delay > 0 then
  redis.call('ZADD', KEYS[2], now + delay, id)
elseif redis.call('RPUSH', KEYS[1], id) == 1 then
  -- a consumer that claims it leaves a token for the rest, if any
  wake(KEYS[7])
end
return 1
