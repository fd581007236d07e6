--[[
  stream/redrive: moves up to ARGV[2] dead letters back into the stream as new entries, keeping id, headers, enqueued.

  KEYS[1] dead        the dead-letter stream
  KEYS[2] stream      the queue's stream
  KEYS[3] ids         hash message id -> entry reference
  KEYS[4] dead-retry  zset entry id -> retry due time, of this group on the dead-letter stream
  KEYS[5] schedule    hash: cron, zone, last, redriven
  KEYS[6] delayed     zset message id -> due time (ms), of the queue's delayed messages

  ARGV[1] group
  ARGV[2] most dead letters to look at
  ARGV[3] approximate MAXLEN for the XADD, 0 for none
  ARGV[4] where to start: '-' for the beginning, else '(' .. the last entry id of the previous call
  ARGV[5] the last dead letter to look at: the newest one when the redrive began
  ARGV[6] what the message ids of the schedule's ticks start with (<queue>@)
  ARGV[7] optional: the message id of the one dead letter to move; ARGV[4] and ARGV[5] are not used then

  Returns: {dead letters moved (not the ticks left dead), the last entry id looked at when ARGV[2] were, else ''}
  Errors: WRONGTYPE for a key of the wrong type (KEYS[5], KEYS[6]), before any write]]

local function original_fields(content)
  local ok, original = pcall(cjson.decode, content)
  local fields = {}
  if ok and type(original) == 'table' then
    for k, v in pairs(original) do
      if type(k) == 'string' then
        fields[#fields + 1] = k
        fields[#fields + 1] = type(v) == 'table' and cjson.encode(v) or tostring(v)
      end
    end
  end
  if #fields == 0 then
    fields = {'content', content}
  end
  return fields
end
include("includes/schedule", "stream/includes/add", "stream/includes/groups")

local group, maxLen = ARGV[1], tonumber(ARGV[3])
local from, to = ARGV[4], ARGV[5]
require_type(KEYS[5], 'hash')
require_type(KEYS[6], 'zset')
if ARGV[7] then
  local ref = redis.call('HGET', KEYS[3], ARGV[7])
  if not ref or string.sub(ref, 1, 2) ~= 'd:' then
    return {0, ''}
  end
  from, to = string.sub(ref, 3), string.sub(ref, 3)
end
local deadGroup = group_info(KEYS[1], group)
local letters = redis.call('XRANGE', KEYS[1], from, to, 'COUNT', tonumber(ARGV[2]))
local held, tick_moved = schedule_redrive_guard(KEYS[5], ARGV[6], schedule_stream_unsettled(KEYS[3], KEYS[6]))
local moved, movedIds = 0, {}
for _, letter in ipairs(letters) do
  local entry, map = letter[1], {}
  for f = 1, #letter[2], 2 do
    map[letter[2][f]] = letter[2][f + 1]
  end
  local pending = deadGroup and #redis.call('XPENDING', KEYS[1], group, entry, entry, 1) > 0
  local waiting = redis.call('ZSCORE', KEYS[4], entry)
  local lost = not map['id'] and (map['content'] or '') == ''
  if (not pending or waiting) and not lost and not held(map['id']) then
    if pending then
      redis.call('XACK', KEYS[1], group, entry)
      redis.call('ZREM', KEYS[4], entry)
    end
    if map['id'] then
      add_message(KEYS[2], KEYS[3], maxLen, map['id'], map['content'] or '', map['headers'], map['enqueued'])
    else
      local xadd = xadd_start(KEYS[2], maxLen)
      for _, v in ipairs(original_fields(map['content'])) do
        xadd[#xadd + 1] = v
      end
      redis.call(unpack(xadd))
    end
    redis.call('XDEL', KEYS[1], entry)
    moved = moved + 1
    movedIds[#movedIds + 1] = map['id']
    tick_moved(map['id'])
  end
end
if #movedIds > 0 then
  schedule_note_redriven(KEYS[5], ARGV[6], movedIds)
end
if #letters == tonumber(ARGV[2]) then
  return {moved, letters[#letters][1]}
end
return {moved, ''}
