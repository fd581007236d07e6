--[[
  list/reshard-drop: removes from a list-mode shard the messages of one chunk that a reshard has stored on their new
  shards (reshard-put), with their records, delivery states and failures. A chunk of the ready list is its head:
  it is checked to be unchanged since it was read, removed, and the messages that stay on this shard go to the
  tail in their order, so that the reshard reads the next chunk from the head again.

  KEYS[1..7] the shard's ready, delayed, dead, acked, messages, leases and failure keys, as reshard-read's
             (see list/reshard-read.lua)
  KEYS[8] expires   hash id -> server time (ms) after which the message is not delivered (see enqueue)

  ARGV[1] section: 'ready', 'delayed', 'dead' or 'acked'
  ARGV[2k]   id of the chunk's k-th message
  ARGV[2k+1] 1 when it has moved and is removed here, 0 when it stays

  Returns the number of messages removed. Fails with an error, before it writes anything, when the head of the
  ready list is not the chunk (the queue was used during the reshard), or for a chunk of more than 1000.
]]
--- @include "includes/errors"
--- @include "includes/limits"

require_batch((#ARGV - 1) / 2, 'reshard drop')

local section = ARGV[1]
local moved, stays = {}, {}
for i = 2, #ARGV, 2 do
  if ARGV[i + 1] == '1' then
    moved[#moved + 1] = ARGV[i]
  else
    stays[#stays + 1] = ARGV[i]
  end
end
if section == 'ready' then
  local head = redis.call('LRANGE', KEYS[1], 0, (#ARGV - 1) / 2 - 1)
  for k = 1, #head do
    if head[k] ~= ARGV[2 * k] then
      fail('ERR the ready list of ' .. KEYS[1] .. ' changed during the reshard')
    end
  end
  if #head ~= (#ARGV - 1) / 2 then
    fail('ERR the ready list of ' .. KEYS[1] .. ' changed during the reshard')
  end
  redis.call('LTRIM', KEYS[1], #head, -1)
  if #stays > 0 then
    redis.call('RPUSH', KEYS[1], unpack(stays))
  end
elseif #moved > 0 then
  local key = ({delayed = KEYS[2], dead = KEYS[3], acked = KEYS[4]})[section]
  redis.call('ZREM', key, unpack(moved))
end
if #moved > 0 and section ~= 'acked' then
  redis.call('HDEL', KEYS[5], unpack(moved))
  redis.call('HDEL', KEYS[6], unpack(moved))
  redis.call('HDEL', KEYS[7], unpack(moved))
  redis.call('HDEL', KEYS[8], unpack(moved))
end
return #moved
