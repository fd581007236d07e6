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

  ARGV[1] group
  ARGV[2] consumer
  ARGV[3] idempotency window in ms (0: the id is forgotten at once)
  ARGV[4] 'all-groups', 'always' or 'never': when to delete the acked entry
  ARGV[5] 'stream' or 'dead': what KEYS[1] is (which entries are the component's own differs)
  ARGV[2k+4], ARGV[2k+5]  entry id and lease token (the delivery count) of the k-th delivery

  Returns an array with one code per delivery: 1 acked, 0 refused.
]]
local stream, group, consumer = KEYS[1], ARGV[1], ARGV[2]
local window, deletion = tonumber(ARGV[3]), ARGV[4]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

--- @include "stream/includes/groups"

local codes = {}
local own_fields = ARGV[5] == 'dead' and {'content', 'origin_id'} or {'body'}
for i = 6, #ARGV, 2 do
  local entry, token = ARGV[i], ARGV[i + 1]
  local pending = redis.call('XPENDING', stream, group, entry, entry, 1)
  if #pending == 1 and pending[1][2] == consumer and tostring(pending[1][4]) == token then
    local found = redis.call('XRANGE', stream, entry, entry)
    redis.call('XACK', stream, group, entry)
    redis.call('ZREM', KEYS[2], entry)
    if #found == 1 then
      local map = {}
      for f = 1, #found[1][2], 2 do
        map[found[1][2][f]] = found[1][2][f + 1]
      end
      -- only the component's own entries (id and body; a dead letter: id, content and origin_id) have a
      -- message id to remember
      local own = map['id'] ~= nil
      for _, name in ipairs(own_fields) do
        own = own and map[name] ~= nil
      end
      if own then
        redis.call('HDEL', KEYS[3], map['id'])
        if window > 0 then
          redis.call('ZADD', KEYS[4], now + window, map['id'])
        end
      end
      delete_acked(stream, group, entry, deletion)
    end
    codes[#codes + 1] = 1
  else
    codes[#codes + 1] = 0
  end
end
return codes
