--[[
  shard-count: the number of shards a queue was first used with, recorded in Redis so that every endpoint of the
  queue agrees on it. An endpoint with another count would put messages where no consumer of the queue looks, or
  look where no producer puts them; it is refused instead (see sharded.ShardCount). While a reshard moves the
  queue's messages, the new count is recorded beside it, and every endpoint is refused until the reshard ends.

  Each shard keeps this record, its marker, in its own meta hash, in its own slot, which the scripts that send and
  claim read to refuse an endpoint whose count is not the marker's (includes/shards): so an endpoint that checked
  before a reshard is refused at its next send or claim. A sharded endpoint's first check runs 'check' on every
  shard of its count; a reshard runs 'begin' and then 'set' on every shard of the old and the new count.

  KEYS[1] meta   hash of the shard's own settings (shard 0's: the queue's); field shards: its shard count (absent:
                 1, unsharded); field resharding: the count a reshard under way (or stopped halfway) moves the
                 messages to

  ARGV[1] the endpoint's shard count for 'check'; the new count for 'begin' and 'set'
  ARGV[2] 'check' to record the count where none is recorded and return the recorded one; 'begin' to record the
          new count of a reshard that starts; 'set' to record it as the count when the reshard has ended
  ARGV[3] for 'begin': the count the reshard starts from, recorded as the count until 'set'

  Returns {the recorded count, the count of a reshard under way or 0}. A queue used unsharded is not written to by
  'check': no field means 1.
]]

local count = tonumber(ARGV[1])
if ARGV[2] == 'begin' then
  -- the old count written out, also where none was, so that a shard the new count adds tells a stale endpoint the
  -- count it was resharded from
  redis.call('HSET', KEYS[1], 'shards', ARGV[3], 'resharding', count)
  return {tonumber(ARGV[3]), count}
end
if ARGV[2] == 'set' then
  -- written out, 1 too, so that a first check of a shard no longer in the layout does not record a stale count
  redis.call('HSET', KEYS[1], 'shards', count)
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
