--[[
  shard-count: the number of shards a queue was first used with, recorded in Redis so that every endpoint of the
  queue agrees on it. An endpoint with another count would put messages where no consumer of the queue looks, or
  look where no producer puts them; it is refused instead (see sharded.ShardCount). While a reshard moves the
  queue's messages, the new count is recorded beside it, and every endpoint is refused until the reshard ends.

  KEYS[1] meta   hash of the queue's own settings; field shards: its shard count (absent: 1, unsharded);
                 field resharding: the count a reshard under way (or stopped halfway) moves the messages to

  ARGV[1] the endpoint's shard count for 'check'; the new count for 'begin' and 'set'
  ARGV[2] 'check' to record the count where none is recorded and return the recorded one; 'begin' to record the
          new count of a reshard that starts; 'set' to record it as the count when the reshard has ended

  Returns {the recorded count, the count of a reshard under way or 0}. A queue used unsharded is not written to by
  'check': no field means 1.
]]

local count = tonumber(ARGV[1])
if ARGV[2] == 'begin' then
  redis.call('HSET', KEYS[1], 'resharding', count)
  return {tonumber(redis.call('HGET', KEYS[1], 'shards') or 1), count}
end
if ARGV[2] == 'set' then
  if count > 1 then
    redis.call('HSET', KEYS[1], 'shards', count)
  else
    redis.call('HDEL', KEYS[1], 'shards')
  end
  redis.call('HDEL', KEYS[1], 'resharding')
  return {count, 0}
end
local recorded = redis.call('HGET', KEYS[1], 'shards')
local resharding = tonumber(redis.call('HGET', KEYS[1], 'resharding') or 0)
if recorded then
  return {tonumber(recorded), resharding}
end
if count > 1 and resharding == 0 then
  redis.call('HSET', KEYS[1], 'shards', count)
end
return {resharding == 0 and count or 1, resharding}
