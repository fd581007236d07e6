--[[
  claim-dead: takes up to ARGV[2] dead letters under a lease, for a consumer of the
  dead letters (consumeDeadLetters=true).

  Only dead letters whose score (the time they became available) has passed are taken:
  a dead letter whose consumption failed waits there until its retry time. While
  claimed it sits in the dead-inflight set and counts as in flight.

  KEYS[1] dead           zset id -> time available (ms)
  KEYS[2] dead-inflight  zset id -> lease deadline (ms)
  KEYS[3] body           hash id -> body bytes
  KEYS[4] headers        hash id -> headers JSON
  KEYS[5] meta           hash id -> "enqueuedAt|deliveries|leaseToken"
  KEYS[6] failure        hash id -> why it was dead-lettered
  KEYS[7] seq            counter the lease tokens are drawn from

  ARGV[1] visibility timeout in ms
  ARGV[2] most messages to claim

  A dead letter without readable metadata is dropped.

  Returns a flat array, 7 entries per message:
    id, lease token, delivery count, enqueuedAt (ms), body, headers JSON or nil, failure or nil
]]
--- @include "includes/time"
--- @include "includes/meta"
--- @include "includes/types"

require_type(KEYS[2], 'zset')
for _, key in ipairs({KEYS[3], KEYS[4], KEYS[5], KEYS[6]}) do
  require_type(key, 'hash')
end
require_counter(KEYS[7])
local now = now_ms()
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
if #ids == 0 then
  return {}
end
local deadline = now + tonumber(ARGV[1])
-- ZREM first: on a Redis at its maxmemory only a script whose first write cannot need memory runs
for _, id in ipairs(ids) do
  redis.call('ZREM', KEYS[1], id)
end
local firstToken = redis.call('INCRBY', KEYS[7], #ids) - #ids
local out = {}
for i, id in ipairs(ids) do
  local enqueuedAt, deliveries = read_meta(KEYS[5], id)
  if enqueuedAt then
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
    out[n + 7] = redis.call('HGET', KEYS[6], id)
  end
end
return out
