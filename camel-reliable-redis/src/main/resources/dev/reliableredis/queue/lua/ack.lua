--[[
  ack: settles a batch of deliveries as done. Each is checked on its own lease token,
  so one stale entry does not affect the others in the batch.

  KEYS[1] inflight  zset id -> lease deadline (the dead-inflight set for dead letters)
  KEYS[2] body      hash id -> body bytes
  KEYS[3] headers   hash id -> headers JSON
  KEYS[4] meta      hash id -> "enqueuedAt|deliveries|leaseToken"
  KEYS[5] failure   hash id -> last failure
  KEYS[6] acked     zset id -> time until which the acked id is remembered (ms)

  ARGV[1]  idempotency window in ms (0: the id is forgotten at once)
  ARGV[2k], ARGV[2k+1]  id and lease token of the k-th delivery

  Returns an array with one code per delivery:
    1 acked
    0 refused: the token is not the current lease (the lease expired and the message
      was returned or claimed again), or the message no longer exists
]]
--- @include "includes/time"
--- @include "includes/meta"
--- @include "includes/types"

for _, key in ipairs({KEYS[2], KEYS[3], KEYS[5]}) do
  require_type(key, 'hash')
end
require_type(KEYS[6], 'zset')
local window = tonumber(ARGV[1])
local now = window > 0 and now_ms() or 0
local codes = {}
for i = 2, #ARGV, 2 do
  local id, token = ARGV[i], ARGV[i + 1]
  local _, _, current = read_meta(KEYS[4], id)
  if current == token and redis.call('ZREM', KEYS[1], id) == 1 then
    redis.call('HDEL', KEYS[2], id)
    redis.call('HDEL', KEYS[3], id)
    redis.call('HDEL', KEYS[4], id)
    redis.call('HDEL', KEYS[5], id)
    if window > 0 then
      redis.call('ZADD', KEYS[6], now + window, id)
    end
    codes[#codes + 1] = 1
  else
    codes[#codes + 1] = 0
  end
end
return codes
