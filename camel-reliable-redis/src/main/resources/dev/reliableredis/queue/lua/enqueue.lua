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

  ARGV[4k-3] id of the k-th message
  ARGV[4k-2] its payload
  ARGV[4k-1] its delay in ms, 0 for ready now
  ARGV[4k]   its time to live in ms from now, 0 for none: only a message with one gets an expires field

  A caller without KEYS[6] passes 3 arguments per message, without the time to live (the layout before it), as
  other programs that enqueue do.

  Returns one code per message, in order: 1 stored, 0 a no-op because the id is already queued, delayed, in
  flight, dead, acked within the idempotency window, or earlier in the same batch.

  Fails with an error, before it writes anything, for a batch of more than 1000 (includes/limits).
]]
--- @include "includes/wake"
--- @include "includes/time"
--- @include "includes/types"
--- @include "includes/limits"

local stride = KEYS[6] and 4 or 3
require_batch(#ARGV / stride, 'enqueue')

require_type(KEYS[1], 'list')
require_type(KEYS[2], 'zset')
require_type(KEYS[3], 'hash')
require_type(KEYS[4], 'zset')
require_type(KEYS[5], 'list')
if KEYS[6] then
  require_type(KEYS[6], 'hash')
end
local now = now_ms()
local stamp = string.format('%d', now) .. '|'
local ids = {}
for i = 1, #ARGV, stride do
  ids[#ids + 1] = ARGV[i]
end
local remembered = redis.call('ZMSCORE', KEYS[4], unpack(ids))
local codes, records, ready, delayed, forget, seen, expiring = {}, {}, {}, {}, {}, {}, {}
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
    local ttl = stride == 4 and tonumber(ARGV[first + 4]) or 0
    if ttl > 0 then
      expiring[#expiring + 1] = id
      expiring[#expiring + 1] = now + ttl
    end
    if delay > 0 then
      delayed[#delayed + 1] = now + delay
      delayed[#delayed + 1] = id
    else
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
-- a consumer that claims from a list that was empty leaves a token for the rest, if any
if #ready > 0 and redis.call('RPUSH', KEYS[1], unpack(ready)) == #ready then
  wake(KEYS[5])
end
return codes
