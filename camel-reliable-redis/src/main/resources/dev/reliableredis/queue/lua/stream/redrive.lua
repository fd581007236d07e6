--[[
  stream/redrive: moves up to ARGV[2] dead letters, oldest first, back into the stream as new entries (so
  their delivery count starts afresh), keeping their id, headers and first enqueue time. A dead letter of an
  entry written by another program gets its original fields back (decoded from content). Dead letters that
  a dead-letter consumer of this group has pending are not moved.

  KEYS[1] dead    the dead-letter stream
  KEYS[2] stream  the queue's stream
  KEYS[3] ids     hash message id -> entry reference

  ARGV[1] group (whose dead-letter consumers' pending entries are skipped)
  ARGV[2] most dead letters to look at
  ARGV[3] approximate MAXLEN for the XADD, 0 for none

  Returns {dead letters moved, 1 if ARGV[2] were looked at (call again) else 0}.
]]
--- @include "stream/includes/groups"

local group, maxLen = ARGV[1], tonumber(ARGV[3])
local deadGroup = group_info(KEYS[1], group)
local letters = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', tonumber(ARGV[2]))
local moved = 0
for _, letter in ipairs(letters) do
  local entry, map = letter[1], {}
  for f = 1, #letter[2], 2 do
    map[letter[2][f]] = letter[2][f + 1]
  end
  local busy = deadGroup and #redis.call('XPENDING', KEYS[1], group, entry, entry, 1) > 0
  if not busy then
    local xadd = {'XADD', KEYS[2]}
    if maxLen > 0 then
      xadd[#xadd + 1] = 'MAXLEN'
      xadd[#xadd + 1] = '~'
      xadd[#xadd + 1] = ARGV[3]
    end
    xadd[#xadd + 1] = '*'
    if map['id'] then
      for _, name in ipairs({'id', 'headers', 'enqueued'}) do
        if map[name] then
          xadd[#xadd + 1] = name
          xadd[#xadd + 1] = map[name]
        end
      end
      xadd[#xadd + 1] = 'body'
      xadd[#xadd + 1] = map['content'] or ''
    else
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
    end
    local newEntry = redis.call(unpack(xadd))
    if map['id'] then
      redis.call('HSET', KEYS[3], map['id'], newEntry)
    end
    redis.call('XDEL', KEYS[1], entry)
    moved = moved + 1
  end
end
return {moved, #letters == tonumber(ARGV[2]) and 1 or 0}
