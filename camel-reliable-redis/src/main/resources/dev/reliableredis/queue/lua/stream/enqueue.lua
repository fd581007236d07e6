--[[
  stream/enqueue: adds a batch of messages to the stream (or to the delayed set), each idempotently on its id.

  The entry's fields are: body, id, headers (only when there are headers), enqueued (server time of the first
  enqueue, ms) and, last, expires (server time, ms, after which it is not delivered; only for a message with a
  time to live: see claim).

  KEYS[1] stream       the stream consumers read
  KEYS[2] dead         the dead-letter stream
  KEYS[3] ids          hash message id -> entry id in the stream, or 'd:' .. entry id in the dead stream
  KEYS[4] acked        zset message id -> time until which the acked id is remembered (ms)
  KEYS[5] delayed      zset message id -> due time (ms)
  KEYS[6] delayed-msg  hash message id -> cmsgpack {body, headers, enqueued[, expires]} of a delayed message

  ARGV[1] approximate MAXLEN for the XADDs, 0 for none
  ARGV[4k-2] id of the k-th message
  ARGV[4k-1] its body bytes
  ARGV[4k]   its headers JSON, '' for none
  ARGV[4k+1] its delay in ms, 0 for now, followed by '|' and its time to live in ms when it has one ('0|60000');
             the time to live counts from now, not from the end of the delay

  Returns one code per message, in order: 1 stored, 0 when the id is known: in the stream (undelivered or
  pending), delayed, dead, acked within the idempotency window, or earlier in the same batch. An id whose entry
  was trimmed away counts as unknown.

  Fails with an error, before it writes anything, for a batch of more than 1000 (includes/limits) or a delay
  argument of another shape.
]]
--- @include "includes/time"
--- @include "stream/includes/add"
--- @include "includes/limits"

require_batch((#ARGV - 1) / 4, 'enqueue')

local now = now_ms()

-- whether the id is known: its entry still in the stream or the dead stream, delayed, or acked within the window
local function known(id)
  local ref = redis.call('HGET', KEYS[3], id)
  if ref then
    local stream, entry = KEYS[1], ref
    if string.sub(ref, 1, 2) == 'd:' then
      stream, entry = KEYS[2], string.sub(ref, 3)
    end
    if #redis.call('XRANGE', stream, entry, entry) > 0 then
      return true
    end
  end
  if redis.call('ZSCORE', KEYS[5], id) then
    return true
  end
  local remembered = redis.call('ZSCORE', KEYS[4], id)
  return remembered and tonumber(remembered) > now
end

-- each message's delay and expiry, read before anything is written so that a malformed one writes nothing
local delays, expiries = {}, {}
for i = 2, #ARGV, 4 do
  local delay, ttl = string.match(ARGV[i + 3], '^(%d+)|?(%d*)$')
  if not delay then
    error({err = 'ERR enqueue: the delay of message ' .. ARGV[i] .. " is '" .. ARGV[i + 3] .. "', not ms[|ms]"})
  end
  delays[i] = tonumber(delay)
  expiries[i] = ttl ~= '' and string.format('%d', now + tonumber(ttl)) or nil
end

local enqueued = string.format('%d', now)
local codes = {}
for i = 2, #ARGV, 4 do
  local id, body, headers, delay, expires = ARGV[i], ARGV[i + 1], ARGV[i + 2], delays[i], expiries[i]
  if known(id) then
    codes[#codes + 1] = 0
  else
    -- The first write must be one Redis refuses when it is out of memory (HSET, XADD): a script that has written
    -- once is let through to the end, so a refusal can only come before anything is written.
    if delay > 0 then
      local packed = expires and cmsgpack.pack(body, headers, now, expires) or cmsgpack.pack(body, headers, now)
      redis.call('HSET', KEYS[6], id, packed)
      redis.call('ZADD', KEYS[5], now + delay, id)
    else
      add_message(KEYS[1], KEYS[3], ARGV[1], id, body, headers, enqueued, expires)
    end
    redis.call('ZREM', KEYS[4], id)
    codes[#codes + 1] = 1
  end
end
return codes
