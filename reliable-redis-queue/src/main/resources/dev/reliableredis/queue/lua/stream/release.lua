--[[
  stream/release: gives back deliveries claimed but never started, each checked on its lease, as retries due now.

  KEYS[1] stream      the stream read (the dead-letter stream for a dead-letter consumer)
  KEYS[2] retry       zset entry id -> retry due time, of this group
  KEYS[3] deliveries  hash entry id -> "batchedAt|credits|solo" of this group on KEYS[1]

  ARGV[1], ARGV[2] group, consumer
  ARGV[2k+1], ARGV[2k+2]  entry id and lease token of the k-th delivery

  Returns: the number of deliveries released
  Errors: 'ERR release of <n> in one call; at most 1000' or WRONGTYPE for a key of the wrong type, before any write]]
local stream, group, consumer = KEYS[1], ARGV[1], ARGV[2]

include("includes/limits", "includes/time", "includes/types", "stream/includes/deliveries", "stream/includes/groups")

require_batch((#ARGV - 2) / 2, 'release')

require_type(KEYS[2], 'zset')
require_type(KEYS[3], 'hash')
local now = now_ms()
local released = 0
for i = 3, #ARGV, 2 do
  local entry, token = ARGV[i], ARGV[i + 1]
  local pending = redis.call('XPENDING', stream, group, entry, entry, 1)
  if #pending == 1 and pending[1][2] == consumer and tostring(pending[1][4]) == token then
    local count = math.max(tonumber(token) - 1, 0)
    if #redis.call('XCLAIM', stream, group, RETRY_CONSUMER, 0, entry, 'RETRYCOUNT', count, 'JUSTID') > 0 then
      redis.call('ZADD', KEYS[2], now, entry)
      end_delivery(KEYS[3], entry)
      released = released + 1
    end
  end
end
return released
