--[[
  claim: takes up to ARGV[2] ready messages under a lease.

  Each claimed message moves to the in-flight set with deadline = server time +
  visibility timeout, its delivery count goes up by one, and it gets a fresh lease
  token: ack, nack and extend are refused for any other token. An id in the ready
  list without a stored message, or with unreadable metadata (written there by
  something else), is dropped.

  KEYS[1] ready     list of ids
  KEYS[2] inflight  zset id -> lease deadline (ms)
  KEYS[3] body      hash id -> body bytes
  KEYS[4] headers   hash id -> headers JSON
  KEYS[5] meta      hash id -> "enqueuedAt|deliveries|leaseToken"
  KEYS[6] seq       counter the lease tokens are drawn from
  KEYS[7] wake      list of wake-up tokens for idle consumers (see includes/wake)

  ARGV[1] visibility timeout in ms
  ARGV[2] most messages to claim

  Returns a flat array, 7 entries per message:
    id, lease token, delivery count, enqueuedAt (ms), body, headers JSON or nil, nil
  (the 7th, the failure, is only set by claim-dead; the shape is shared).
  When ready messages are left behind, a wake-up token is left for another consumer.
]]
--- @include "includes/wake"
--- @include "includes/time"
--- @include "includes/meta"
--- @include "includes/types"

for _, key in ipairs({KEYS[3], KEYS[4], KEYS[5]}) do
  require_type(key, 'hash')
end
require_type(KEYS[2], 'zset')
require_counter(KEYS[6])
require_type(KEYS[7], 'list')
local ids = redis.call('LPOP', KEYS[1], tonumber(ARGV[2]))
if not ids then
  return {}
end
if redis.call('LLEN', KEYS[1]) > 0 then
  wake(KEYS[7])
end
local deadline = now_ms() + tonumber(ARGV[1])
local firstToken = redis.call('INCRBY', KEYS[6], #ids) - #ids
local out = {}
for i, id in ipairs(ids) do
  local enqueuedAt, deliveries = read_meta(KEYS[5], id)
  if enqueuedAt then
    deliveries = deliveries + 1
    local token = string.format('%d', firstToken + i)
    write_meta(KEYS[5], id, enqueuedAt, deliveries, token)
    redis.call('ZADD', KEYS[2], deadline, id)
    local n = #out
    out[n + 1] = id
    out[n + 2] = token
    out[n + 3] = deliveries
    out[n + 4] = tonumber(enqueuedAt)
    out[n + 5] = redis.call('HGET', KEYS[3], id) or ''
    out[n + 6] = redis.call('HGET', KEYS[4], id)
    out[n + 7] = false
  end
end
return out
