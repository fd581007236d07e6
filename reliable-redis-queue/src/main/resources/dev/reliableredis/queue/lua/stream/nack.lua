--[[
  stream/nack: settles a batch of deliveries as failed, each checked on its lease, as retries or dead letters.

  KEYS[1] stream      the stream read (the dead-letter stream for a dead-letter consumer)
  KEYS[2] retry       zset entry id -> retry due time (ms), of this group
  KEYS[3] dead        the dead-letter stream
  KEYS[4] ids         hash message id -> entry reference ('d:' .. entry id once dead)
  KEYS[5] deliveries  hash entry id -> "batchedAt|credits|solo" of this group on KEYS[1]
  KEYS[6] capped      exists while a claim found the group at its maxInflight
  KEYS[7] freed       stream the claimants waiting at the cap read

  ARGV[1], ARGV[2] group, consumer
  ARGV[3] settings, packed (cmsgpack map):
    maxDeliveries: failed deliveries after which a failure dead-letters (maxRetries + 1); 0: never (dead letters)
    retryDelay, multiplier, maxRetryDelay: the backoff, ms, factor, ms
    deleteAfterAck: 'all-groups', 'never' or 'always': when to delete a dead-lettered entry from the stream
  ARGV[4k] .. ARGV[4k+3]  entry id, lease token, failure reason, retry-after in ms (-1: none) of the k-th delivery

  Returns: one code per delivery: 1 retry scheduled, 2 dead-lettered, 3 due after its retry-after, 0 refused/trimmed
  Errors: 'ERR nack of <n> in one call; at most 1000' or WRONGTYPE for a key of the wrong type, before any write]]
local stream, group, consumer = KEYS[1], ARGV[1], ARGV[2]
local settings = cmsgpack.unpack(ARGV[3])
local maxDeliveries, retryDelay = settings.maxDeliveries, settings.retryDelay
local multiplier, maxDelay, deletion = settings.multiplier, settings.maxRetryDelay, settings.deleteAfterAck

include("includes/backoff", "includes/limits", "includes/time", "includes/types", "stream/includes/capacity")
include("stream/includes/dead_letter", "stream/includes/deliveries", "stream/includes/groups")

require_batch((#ARGV - 3) / 4, 'nack')

local now = now_ms()

require_type(KEYS[2], 'zset')
require_type(KEYS[3], 'stream')
require_type(KEYS[4], 'hash')
require_type(KEYS[5], 'hash')
local codes = {}
for i = 4, #ARGV, 4 do
  local entry, token, reason, retryAfter = ARGV[i], ARGV[i + 1], ARGV[i + 2], tonumber(ARGV[i + 3])
  local pending = redis.call('XPENDING', stream, group, entry, entry, 1)
  if #pending == 1 and pending[1][2] == consumer and tostring(pending[1][4]) == token then
    local deliveries = tonumber(pending[1][4])
    local parked = park(stream, group, entry)
    local state = redis.call('HGET', KEYS[5], entry)
    local _, credits, solo = parse_delivery(state)
    local failed = deliveries - credits
    if retryAfter >= 0 then
      if parked then
        store_delivery(KEYS[5], entry, 0, credits + 1, solo)
        redis.call('ZADD', KEYS[2], now + retryAfter, entry)
      end
      codes[#codes + 1] = parked and 3 or 0
    elseif maxDeliveries > 0 and failed >= maxDeliveries then
      dead_letter(stream, group, KEYS[2], KEYS[3], KEYS[4], KEYS[5], entry, deliveries, reason, deletion)
      codes[#codes + 1] = 2
    elseif parked then
      if state then
        store_delivery(KEYS[5], entry, 0, credits, solo)
      end
      redis.call('ZADD', KEYS[2], now + retry_delay(retryDelay, multiplier, maxDelay, math.max(failed, 1)), entry)
      codes[#codes + 1] = 1
    else
      codes[#codes + 1] = 0
    end
  else
    codes[#codes + 1] = 0
  end
end
for _, code in ipairs(codes) do
  if code > 0 then
    capacity_freed(KEYS[6], KEYS[7], now)
    break
  end
end
return codes
