--[[
  stream/ack: settles a batch of deliveries as done. A delivery is settled only while it is still this
  consumer's with the same delivery count (its lease token): an entry taken over by another consumer,
  or delivered again, refuses the late ack.

  After the XACK the entry is deleted when ARGV[4] is 'all-groups' and every other group of the stream
  has read and acked it too, or at once when ARGV[4] is 'always' (dead letters); 'never' keeps it.

  KEYS[1] stream  the stream read (the dead-letter stream for a dead-letter consumer)
  KEYS[2] retry   zset entry id -> retry due time, of this group
  KEYS[3] ids     hash message id -> entry reference
  KEYS[4] acked   zset message id -> time until which the acked id is remembered (ms)
  KEYS[5] deliveries  hash entry id -> "batchedAt|credits|solo" of this group on KEYS[1]

  ARGV[1] group
  ARGV[2] consumer
  ARGV[3] idempotency window in ms (0: the id is forgotten at once)
  ARGV[4] 'all-groups', 'always' or 'never': when to delete the acked entry
  ARGV[5] how the id index refers to an entry of KEYS[1]: '' for the stream, 'd:' for the dead-letter stream
  ARGV[3k+3], ARGV[3k+4], ARGV[3k+5]  entry id, lease token (the delivery count) and message id of the k-th
          delivery

  Only a message id that the id index maps to the acked entry is remembered: an entry another program wrote has
  none, so nothing of it is remembered, and the entry is not read.

  Returns an array with one code per delivery: 1 acked, 0 refused.
]]
local stream, group, consumer = KEYS[1], ARGV[1], ARGV[2]
local window, deletion, refPrefix = tonumber(ARGV[3]), ARGV[4], ARGV[5]

--- @include "includes/time"
--- @include "includes/types"
--- @include "stream/includes/groups"

local now = now_ms()

require_type(KEYS[2], 'zset')
require_type(KEYS[3], 'hash')
require_type(KEYS[4], 'zset')
require_type(KEYS[5], 'hash')

local codes, acked = {}, {}
for i = 6, #ARGV, 3 do
  local entry, token, id = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local pending = redis.call('XPENDING', stream, group, entry, entry, 1)
  if #pending == 1 and pending[1][2] == consumer and tostring(pending[1][4]) == token then
    redis.call('XACK', stream, group, entry)
    redis.call('ZREM', KEYS[2], entry)
    if redis.call('HGET', KEYS[3], id) == refPrefix .. entry then
      redis.call('HDEL', KEYS[3], id)
      if window > 0 then
        redis.call('ZADD', KEYS[4], now + window, id)
      end
    end
    delete_acked(stream, group, entry, deletion)
    acked[#acked + 1] = entry
    codes[#codes + 1] = 1
  else
    codes[#codes + 1] = 0
  end
end
if #acked > 0 then
  redis.call('HDEL', KEYS[5], unpack(acked))
end
return codes
