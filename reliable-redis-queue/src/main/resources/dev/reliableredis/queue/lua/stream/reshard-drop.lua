--[[
  stream/reshard-drop: removes from a stream-mode shard a chunk of messages a reshard stored on their new shards.

  KEYS[1..6] the shard's stream, dead, ids, acked, delayed and delayed-msg keys, as stream/reshard-read's

  ARGV[1] section: 'ready', 'dead', 'delayed' or 'acked'
  ARGV[2k], ARGV[2k+1]  'ready', 'dead': the k-th entry id and its message id; 'delayed', 'acked': message id twice

  Returns: the number of messages removed
  Errors: 'ERR reshard drop of <n> in one call; at most 1000', before any write]]
include("includes/limits")

require_batch((#ARGV - 1) / 2, 'reshard drop')

local section = ARGV[1]
local removed = 0
for i = 2, #ARGV, 2 do
  local a, id = ARGV[i], ARGV[i + 1]
  if section == 'ready' or section == 'dead' then
    removed = removed + redis.call('XDEL', section == 'ready' and KEYS[1] or KEYS[2], a)
    local ref = section == 'dead' and 'd:' .. a or a
    if redis.call('HGET', KEYS[3], id) == ref then
      redis.call('HDEL', KEYS[3], id)
    end
  elseif section == 'delayed' then
    removed = removed + redis.call('ZREM', KEYS[5], id)
    redis.call('HDEL', KEYS[6], id)
  else
    removed = removed + redis.call('ZREM', KEYS[4], id)
  end
end
return removed
