--[[
  stream/nack: settles a batch of deliveries as failed, each only while it is still this consumer's with
  the same delivery count (its lease token). An entry with deliveries left stays pending, parked with the retry
  consumer, and is put in the retry set, due after retryDelay * multiplier^(failed - 1), capped at maxRetryDelay;
  claim re-delivers it then. Failed deliveries are the pending entries list's counter less the deliveries
  credited to crashed batches (see stream/includes/deliveries). An entry whose failed deliveries are used up is
  added to the
  dead-letter stream with origin_id, content, failure, deliveries (plus id, headers and enqueued when it
  had them) and XACKed, in this one script; it is deleted from the stream like an acked entry.

  A delivery given a retry-after (the route asked for it: CamelReliableRedisRetryAfter) did not fail: it stays
  pending, parked, and is due again after that many ms, with one more credit, so that it uses up no retry.

  KEYS[1] stream  the stream read (the dead-letter stream for a dead-letter consumer)
  KEYS[2] retry   zset entry id -> retry due time, of this group
  KEYS[3] dead    the dead-letter stream
  KEYS[4] ids     hash message id -> entry reference ('d:' .. entry id once dead)
  KEYS[5] deliveries  hash entry id -> "batchedAt|credits|solo" of this group on KEYS[1]
  KEYS[6] capped  exists while a claim found the group at its maxInflight (see stream/includes/capacity)
  KEYS[7] freed   stream the claimants waiting at the cap read (see stream/includes/capacity)

  ARGV[1] group
  ARGV[2] consumer
  ARGV[3] failed deliveries after which a failure dead-letters (maxRetries + 1); 0: never (dead letters)
  ARGV[4] retry delay in ms
  ARGV[5] backoff multiplier
  ARGV[6] max retry delay in ms
  ARGV[7] 'all-groups' or 'never': when to delete a dead-lettered entry from the stream (see ack)
  ARGV[4k+4] .. ARGV[4k+7]  entry id, lease token, failure reason and retry-after in ms (-1: none, a failure) of
                           the k-th delivery (k from 1)

  Every nacked entry is first parked with the retry consumer (see stream/includes/groups), which is also the
  script's first write: Redis at its maxmemory refuses only scripts whose first write may need memory.

  A nack that settles anything wakes the consumers waiting at the group's maxInflight, if any.

  Returns an array with one code per delivery: 1 retry scheduled, 2 dead-lettered, 3 due again after its
  retry-after, 0 refused (or, not dead-lettered, trimmed away meanwhile: there is nothing to retry).

  Fails with an error, before it writes anything, for a batch of more than 1000 (includes/limits).
]]
local stream, group, consumer = KEYS[1], ARGV[1], ARGV[2]
local maxDeliveries, retryDelay = tonumber(ARGV[3]), tonumber(ARGV[4])
local multiplier, maxDelay, deletion = tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]

--- @include "includes/backoff"
--- @include "includes/limits"
--- @include "includes/time"
--- @include "includes/types"
--- @include "stream/includes/capacity"
--- @include "stream/includes/dead_letter"
--- @include "stream/includes/deliveries"
--- @include "stream/includes/groups"

require_batch((#ARGV - 7) / 4, 'nack')

local now = now_ms()

require_type(KEYS[2], 'zset')
require_type(KEYS[3], 'stream')
require_type(KEYS[4], 'hash')
require_type(KEYS[5], 'hash')
local codes = {}
for i = 8, #ARGV, 4 do
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
      -- also for an entry trimmed away meanwhile: its failure is not hidden
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
