--[[
  stream/redrive: moves up to ARGV[2] dead letters, oldest first from ARGV[4] on, back into the stream as
  new entries (so their delivery count starts afresh), keeping their id, headers and first enqueue time. A
  dead letter of an entry written by another program gets its original fields back (decoded from content).
  Dead letters a dead-letter consumer of this group is processing are not moved; one whose consumption
  failed and waits for a retry is moved (and acked in the dead-letter group).

  KEYS[1] dead        the dead-letter stream
  KEYS[2] stream      the queue's stream
  KEYS[3] ids         hash message id -> entry reference
  KEYS[4] dead-retry  zset entry id -> retry due time, of this group on the dead-letter stream

  ARGV[1] group
  ARGV[2] most dead letters to look at
  ARGV[3] approximate MAXLEN for the XADD, 0 for none
  ARGV[4] where to start: '-' for the beginning, else '(' .. the last entry id of the previous call

  Returns {dead letters moved, the last entry id looked at when ARGV[2] were looked at (call again from
  there), else ''}.
]]
--- @include "stream/includes/groups"
--- @include "stream/includes/add"

local group, maxLen = ARGV[1], tonumber(ARGV[3])
local deadGroup = group_info(KEYS[1], group)
local letters = redis.call('XRANGE', KEYS[1], ARGV[4], '+', 'COUNT', tonumber(ARGV[2]))
local moved = 0
for _, letter in ipairs(letters) do
  local entry, map = letter[1], {}
  for f = 1, #letter[2], 2 do
    map[letter[2][f]] = letter[2][f + 1]
  end
  local pending = deadGroup and #redis.call('XPENDING', KEYS[1], group, entry, entry, 1) > 0
  local waiting = redis.call('ZSCORE', KEYS[4], entry)
  if not pending or waiting then
    if pending then
      redis.call('XACK', KEYS[1], group, entry)
      redis.call('ZREM', KEYS[4], entry)
    end
    if map['id'] then
      add_message(KEYS[2], KEYS[3], maxLen, map['id'], map['content'] or '', map['headers'], map['enqueued'])
    else
      local xadd = xadd_start(KEYS[2], maxLen)
      local ok, original = pcall(cjson.decode, map['content'] or '')
      if ok and type(original) == 'table' then
        for k, v in pairs(original) do
          xadd[#xadd + 1] = k
          xadd[#xadd + 1] = tostring(v)
        end
      else
        xadd[#xadd + 1] = 'content'
        xadd[#xadd + 1] = map['content'] or ''
      end
      redis.call(unpack(xadd))
    end
    redis.call('XDEL', KEYS[1], entry)
    moved = moved + 1
  end
end
if #letters == tonumber(ARGV[2]) then
  return {moved, letters[#letters][1]}
end
return {moved, ''}
