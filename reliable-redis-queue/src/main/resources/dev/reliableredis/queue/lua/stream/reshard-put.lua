--[[
  stream/reshard-put: stores on a stream-mode shard the messages a reshard moves there, leaving out ids it knows.

  KEYS[1..6] the shard's stream, dead, ids, acked, delayed and delayed-msg keys, as stream/reshard-read's

  ARGV[1] section: 'ready', 'dead', 'delayed' or 'acked'
  ARGV[2] the number n of group names that follow (the old shard's groups of that stream), then the names
  then per message: 'ready', 'dead': its id ('' for a foreign entry without one), the number m of field values, the
    m values; 'delayed': id, due time, packed message; 'acked': id, time until which it is remembered

  Returns: the number of messages and ids stored]]
include("includes/types", "stream/includes/groups")

local section = ARGV[1]
local groups = tonumber(ARGV[2])
local first = 3 + groups

local function known(id)
  if id == '' then
    return false
  end
  if redis.call('ZSCORE', KEYS[4], id) or redis.call('ZSCORE', KEYS[5], id) then
    return true
  end
  local ref = redis.call('HGET', KEYS[3], id)
  if not ref then
    return false
  end
  local stream, entry = KEYS[1], ref
  if string.sub(ref, 1, 2) == 'd:' then
    stream, entry = KEYS[2], string.sub(ref, 3)
  end
  return #redis.call('XRANGE', stream, entry, entry) > 0
end

local stored = 0
if section == 'acked' then
  for i = first, #ARGV, 2 do
    stored = stored + redis.call('ZADD', KEYS[4], 'GT', 'CH', ARGV[i + 1], ARGV[i])
  end
  return stored
end
if section == 'delayed' then
  for i = first, #ARGV, 3 do
    if not known(ARGV[i]) then
      redis.call('ZADD', KEYS[5], ARGV[i + 1], ARGV[i])
      redis.call('HSET', KEYS[6], ARGV[i], ARGV[i + 2])
      stored = stored + 1
    end
  end
  return stored
end
local stream = section == 'ready' and KEYS[1] or KEYS[2]
require_type(stream, 'stream')
local position = '0'
for _, info in ipairs(groups_of(stream)) do
  if position == '0' or after(position, info['last-delivered-id']) then
    position = info['last-delivered-id']
  end
end
for g = 3, first - 1 do
  if not group_info(stream, ARGV[g]) then
    redis.call('XGROUP', 'CREATE', stream, ARGV[g], position, 'MKSTREAM')
  end
end
local i = first
while i <= #ARGV do
  local id, m = ARGV[i], tonumber(ARGV[i + 1])
  if not known(id) then
    local xadd = {'XADD', stream, '*'}
    for f = i + 2, i + 1 + m do
      xadd[#xadd + 1] = ARGV[f]
    end
    local entry = redis.call(unpack(xadd))
    if id ~= '' then
      redis.call('HSET', KEYS[3], id, section == 'dead' and 'd:' .. entry or entry)
    end
    stored = stored + 1
  end
  i = i + 2 + m
end
return stored
