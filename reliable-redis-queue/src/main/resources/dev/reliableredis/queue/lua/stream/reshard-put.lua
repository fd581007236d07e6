--[[
  stream/reshard-put: stores on a stream-mode shard the messages a reshard moves there from another shard: stream
  entries as new entries with the same fields (ready ones on the stream, dead letters on the dead-letter stream),
  delayed messages with their due time, and the acked ids it copies there. A message whose id this shard knows
  already (its entry still there, delayed, or acked within the idempotency window) is left out, so a reshard that
  stopped after this call and runs again does not store it twice. The groups named (the old shard's groups of the
  same stream) are created where the stream lacks them, before its entries are added: at the position of the
  stream's other groups (which the reshard found to be one), or at its start when it has none, so that every group
  reads the moved entries, and the stream's groups stay at one position.

  KEYS[1..6] the shard's stream, dead, ids, acked, delayed and delayed-msg keys, as stream/reshard-read's
             (see stream/reshard-read.lua)

  ARGV[1] section: 'ready', 'dead', 'delayed' or 'acked'
  ARGV[2] the number n of group names that follow, then the names
  then, per message: 'ready' and 'dead': its id ('' for an entry another program wrote without one) and its fields packed with cmsgpack (a field array); 'delayed': its
  id, due time and packed message; 'acked': its id and the time until which it is remembered

  Returns the number of messages and ids stored.
]]
--- @include "includes/types"
--- @include "stream/includes/groups"

local section = ARGV[1]
local groups = tonumber(ARGV[2])
local first = 3 + groups

-- whether the shard knows the id: its entry still in the stream or the dead stream, delayed, or acked; '' (an entry
-- another program wrote without an id) is never known
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
