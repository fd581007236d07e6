--[[
  shard-count: a queue's own record, one meta hash per shard: the layout version of its keys and the number of
  shards it was first used with, so that every endpoint of the queue agrees on both.

  The layout version says how the queue's keys and values are written (QueueLayout): an endpoint of another
  version would misread them, and one of a version before versions were recorded wrote none. 'check' refuses both
  before the endpoint's first send or claim: a version recorded other than the endpoint's, and no version where
  the shard holds messages; with neither, it records the endpoint's. Nothing is migrated: a queue is drained, and
  its old JVMs stopped, before an endpoint of a new version uses it.

  The shard count: an endpoint with another count would put messages where no consumer of the queue looks, or look
  where no producer puts them; it is refused instead (see sharded.ShardCount). While a reshard moves the queue's
  messages, the new count is recorded beside it, and every endpoint is refused until the reshard ends. The scripts
  that send and claim read the count of their shard's meta hash, in its own slot, to refuse an endpoint whose count
  is not the marker's (includes/shards): so an endpoint that checked before a reshard is refused at its next send or
  claim. A sharded endpoint's first check runs 'check' on every shard of its count; a reshard runs 'begin' and then
  'set' on every shard of the old and the new count.

  KEYS[1] meta   hash of the shard's own record (shard 0's: the queue's); field layout: its layout version; field
                 shards: its shard count (absent: 1, unsharded); field resharding: the count a reshard under way
                 (or stopped halfway) moves the messages to
  KEYS[2..n] the shard's keys that hold messages, for 'check' and 'look': where one holds any (a stream: an entry),
             a shard without a layout version was written before versions were recorded

  ARGV[1] the endpoint's shard count for 'check' and 'look'; the new count for 'begin' and 'set'
  ARGV[2] 'check' to record the layout version and the count where none is recorded and return the recorded ones;
          'look' to return them, recording nothing; 'begin' to record the new count of a reshard that starts; 'set'
          to record it as the count when the reshard has ended
  ARGV[3] for 'begin': the count the reshard starts from, recorded as the count until 'set'
  ARGV[4] the endpoint's layout version, recorded by 'check', 'begin' and 'set'

  Returns {the recorded count, the count of a reshard under way or 0, the recorded layout version}, the version ''
  where none is recorded and the shard holds messages; 'check' records nothing while the version is not the
  endpoint's. A queue used unsharded gets no count from 'check': no field means 1.
]]

local count = tonumber(ARGV[1])
if ARGV[2] == 'begin' then
  -- the old count written out, also where none was, so that a shard the new count adds tells a stale endpoint the
  -- count it was resharded from
  redis.call('HSET', KEYS[1], 'shards', ARGV[3], 'resharding', count, 'layout', ARGV[4])
  return {tonumber(ARGV[3]), count, ARGV[4]}
end
if ARGV[2] == 'set' then
  -- written out, 1 too, so that a first check of a shard no longer in the layout does not record a stale count
  redis.call('HSET', KEYS[1], 'shards', count, 'layout', ARGV[4])
  redis.call('HDEL', KEYS[1], 'resharding')
  return {count, 0, ARGV[4]}
end

-- true when the key holds a message: an entry of a stream (a drained one is kept for its groups), else any value
local function holds_messages(key)
  local kind = redis.call('TYPE', key)['ok']
  if kind == 'stream' then
    return redis.call('XLEN', key) > 0
  end
  return kind ~= 'none'
end

local record = redis.call('HMGET', KEYS[1], 'layout', 'shards', 'resharding')
local layout, recorded, resharding = record[1], record[2], tonumber(record[3] or 0)
if not layout then
  for i = 2, #KEYS do
    if holds_messages(KEYS[i]) then
      layout = ''
      break
    end
  end
end
local current = recorded and tonumber(recorded) or (resharding == 0 and count or 1)
if layout and layout ~= ARGV[4] or ARGV[2] == 'look' then
  return {current, resharding, layout or ARGV[4]}
end
if not layout then
  redis.call('HSET', KEYS[1], 'layout', ARGV[4])
end
if not recorded and count > 1 and resharding == 0 then
  redis.call('HSET', KEYS[1], 'shards', count)
end
return {current, resharding, ARGV[4]}
