--[[
  redrive: moves up to ARGV[1] dead letters, oldest first, back to the ready list with
  a fresh delivery count; their first enqueue time is kept and the failure cleared.
  Dead letters being consumed (dead-inflight) are not moved.

  KEYS[1] dead     zset id -> time available to a dead-letter consumer (ms)
  KEYS[2] ready    list of ids
  KEYS[3] meta     hash id -> "enqueuedAt|deliveries|leaseToken"
  KEYS[4] failure  hash id -> last failure
  KEYS[5] wake     list of wake-up tokens for idle consumers (see includes/wake)

  ARGV[1] most dead letters to move

  A dead letter without readable metadata is dropped.

  Returns the number of messages moved.
]]
--- @include "includes/wake"
--- @include "includes/meta"
--- @include "includes/types"

require_type(KEYS[2], 'list')
require_type(KEYS[3], 'hash')
require_type(KEYS[4], 'hash')
require_type(KEYS[5], 'list')
local ids = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
local moved = 0
for _, id in ipairs(ids) do
  redis.call('ZREM', KEYS[1], id)
  local enqueuedAt = read_meta(KEYS[3], id)
  if enqueuedAt then
    write_meta(KEYS[3], id, enqueuedAt, 0, '')
    redis.call('HDEL', KEYS[4], id)
    redis.call('RPUSH', KEYS[2], id)
    moved = moved + 1
  end
end
if moved > 0 then
  wake(KEYS[5])
end
return moved
