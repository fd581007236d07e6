--[[
  shard-count: the number of shards a queue was first used with, recorded in Redis so that every endpoint of the
  queue agrees on it. An endpoint with another count would put messages where no consumer of the queue looks, or
  look where no producer puts them; it is refused instead (see sharded.ShardCount).

  KEYS[1] meta   hash of the queue's own settings; field shards: its shard count (absent: 1, unsharded)

  ARGV[1] the endpoint's shard count
  ARGV[2] 'check' to record the count where none is recorded and return the recorded one, or 'set' to record it
          (a reshard of a queue found empty)

  Returns the recorded count. A queue used unsharded is not written to: no field means 1.
]]

local count = tonumber(ARGV[1])
if ARGV[2] == 'set' then
  if count > 1 then
    redis.call('HSET', KEYS[1], 'shards', count)
  else
    redis.call('HDEL', KEYS[1], 'shards')
  end
  return count
end
local recorded = redis.call('HGET', KEYS[1], 'shards')
if recorded then
  return tonumber(recorded)
end
if count > 1 then
  redis.call('HSET', KEYS[1], 'shards', count)
end
return count
