--[[
  shard-count: reads or records a shard's layout version and shard count, so that every endpoint agrees on both.

  KEYS[1] meta   the shard's hash: layout (version), shards (count; absent: 1), resharding (count a reshard moves to)
  KEYS[2..n] for 'check' and 'look': the shard's message keys; messages with no layout field mean a pre-version layout

  ARGV[1] the endpoint's shard count for 'check' and 'look'; the new count for 'begin' and 'set'
  ARGV[2] 'check' (record what is missing, return the record), 'look' (return it), 'begin'/'set' (reshard starts/ends)
  ARGV[3] for 'begin': the count the reshard starts from, recorded as the count until 'set'
  ARGV[4] the endpoint's layout version, recorded by 'check', 'begin' and 'set'

  Returns: {recorded count, count of a reshard under way or 0, recorded version ('' if none where messages are)}]]

local count = tonumber(ARGV[1])
if ARGV[2] == 'begin' then
  redis.call('HSET', KEYS[1], 'shards', ARGV[3], 'resharding', count, 'layout', ARGV[4])
  return {tonumber(ARGV[3]), count, ARGV[4]}
end
if ARGV[2] == 'set' then
  redis.call('HSET', KEYS[1], 'shards', count, 'layout', ARGV[4])
  redis.call('HDEL', KEYS[1], 'resharding')
  return {count, 0, ARGV[4]}
end

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
