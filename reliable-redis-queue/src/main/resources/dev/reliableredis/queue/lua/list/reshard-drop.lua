--[[
  list/reshard-drop: removes from a list-mode shard a chunk's messages that list/reshard-put.lua stored elsewhere.

  KEYS[1] ready     list of ids
  KEYS[2] delayed   zset id -> time it becomes ready (ms)
  KEYS[3] dead      zset id -> time available to a dead-letter consumer
  KEYS[4] acked     zset id -> time until which the acked id is remembered (ms)
  KEYS[5] messages  hash id -> "enqueuedAt|payload"
  KEYS[6] leases    hash id -> "deliveries|leaseToken[|credits|flags]"
  KEYS[7] failure   hash id -> last failure
  KEYS[8] extras    hash id -> "expiresAt||" of a message sent with a time to live

  ARGV[1] section: 'ready', 'delayed', 'dead' or 'acked'
  ARGV[2k]   id of the chunk's k-th message
  ARGV[2k+1] 1 when it has moved and is removed here, 0 when it stays

  Returns: the number of messages removed.
  Errors: 'ERR the ready list of <key> changed during the reshard' when its head is not the chunk
    'ERR reshard drop of <n> in one call; at most 1000' for a chunk of more than 1000; both before any write]]
include("includes/errors", "includes/limits")

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
