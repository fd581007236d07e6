--[[
  stream/reshard-read: reads a chunk of a stream-mode shard's messages for a reshard, or its checks; changes nothing.

  KEYS[1] stream       the shard's stream
  KEYS[2] dead         its dead-letter stream
  KEYS[3] ids          hash message id -> entry id in the stream, or 'd:' .. entry id in the dead stream
  KEYS[4] acked        zset message id -> time until which the acked id is remembered (ms)
  KEYS[5] delayed      zset message id -> due time (ms)
  KEYS[6] delayed-msg  hash message id -> cmsgpack {body, headers, enqueued[, expires]}
  KEYS[7..] for 'live': each group's claimers and dead-claimers sets (claimant id -> time it counts as live until)

  ARGV[1] 'check', 'live', or the section to read: 'ready', 'dead', 'delayed' or 'acked'
  ARGV[2] 'ready', 'dead': the entry id to read after ('' after the groups' position); else the first rank to read
  ARGV[3] most messages to read

  Returns: 'check' {entries pending in the groups of either stream, 1 when a stream's groups are at different
      positions else 0, the number n of the stream's groups, their names, then the dead-letter stream's group names}
    'live' the number of live claimants in the sets given
    'ready', 'dead' 3 per entry: entry id, message id (false for a foreign entry without one), field array
    'delayed' 4 per message: id, due time, packed message, its headers JSON ('' for none)
    'acked' 2 per id: id, time until which it is remembered
  Errors: 'ERR reshard read of <n> in one call; at most 1000']]
include("includes/limits", "includes/time", "stream/includes/groups")

local function positions(stream)
  local latest, earliest = nil, nil
  for _, info in ipairs(groups_of(stream)) do
    local position = info['last-delivered-id']
    if not latest or after(position, latest) then
      latest = position
    end
    if not earliest or after(earliest, position) then
      earliest = position
    end
  end
  return latest or '0-0', earliest or '0-0'
end

if ARGV[1] == 'check' then
  local pending, split, names = 0, 0, {}
  for _, stream in ipairs({KEYS[1], KEYS[2]}) do
    for _, info in ipairs(groups_of(stream)) do
      pending = pending + info['pending']
      names[#names + 1] = info['name']
    end
    local latest, earliest = positions(stream)
    if latest ~= earliest and #redis.call('XRANGE', stream, '(' .. earliest, latest, 'COUNT', 1) > 0 then
      split = 1
    end
  end
  local out = {pending, split, #groups_of(KEYS[1])}
  for _, name in ipairs(names) do
    out[#out + 1] = name
  end
  return out
end
if ARGV[1] == 'live' then
  local live, now = 0, now_ms()
  for k = 7, #KEYS do
    live = live + redis.call('ZCOUNT', KEYS[k], now, '+inf')
  end
  return live
end

local count = tonumber(ARGV[3])
require_batch(count, 'reshard read')
local out = {}
if ARGV[1] == 'ready' or ARGV[1] == 'dead' then
  local stream = ARGV[1] == 'ready' and KEYS[1] or KEYS[2]
  local from = ARGV[2] ~= '' and ARGV[2] or (positions(stream))
  if redis.call('EXISTS', stream) == 0 then
    return out
  end
  for _, entry in ipairs(redis.call('XRANGE', stream, '(' .. from, '+', 'COUNT', count)) do
    local id = false
    for f = 1, #entry[2], 2 do
      if entry[2][f] == 'id' then
        id = entry[2][f + 1]
      end
    end
    out[#out + 1] = entry[1]
    out[#out + 1] = id
    out[#out + 1] = entry[2]
  end
  return out
end
local first = tonumber(ARGV[2])
local key = ARGV[1] == 'delayed' and KEYS[5] or KEYS[4]
local range = redis.call('ZRANGE', key, first, first + count - 1, 'WITHSCORES')
if #range == 0 then
  return out
end
local packed = {}
if ARGV[1] == 'delayed' then
  local ids = {}
  for i = 1, #range, 2 do
    ids[#ids + 1] = range[i]
  end
  packed = redis.call('HMGET', KEYS[6], unpack(ids))
end
for i = 1, #range, 2 do
  out[#out + 1] = range[i]
  out[#out + 1] = range[i + 1]
  if ARGV[1] == 'delayed' then
    local message = packed[(i + 1) / 2]
    local headers = ''
    if message then
      local ok, _, h = pcall(cmsgpack.unpack, message)
      headers = ok and type(h) == 'string' and h or ''
    end
    out[#out + 1] = message or false
    out[#out + 1] = headers
  end
end
return out
