--[[
  stream/purge: removes up to ARGV[2] messages from each of: the entries the group has not read yet, the
  entries waiting for a retry, the delayed messages and the dead letters (but not those a dead-letter
  consumer of the group is processing; one waiting for its retry is removed). Entries being processed are not
  touched. Removed entries are deleted from the stream, so other groups of the same stream lose them too. The
  dead letters are walked from the caller's cursor, so that a batch of dead letters being processed does not
  end the purge early. The caller repeats while it says so.

  KEYS[1] stream       the queue's stream
  KEYS[2] retry        zset entry id -> retry due time, of this group
  KEYS[3] dead         the dead-letter stream
  KEYS[4] delayed      zset message id -> due time
  KEYS[5] delayed-msg  hash message id -> packed delayed message
  KEYS[6] ids          hash message id -> entry reference
  KEYS[7] dead-retry   zset entry id -> retry due time, of this group on the dead-letter stream
  KEYS[8] deliveries   hash entry id -> "batchedAt|credits|solo", of this group on the stream

  ARGV[1] group
  ARGV[2] most messages to remove from each part
  ARGV[3] where to go on in the dead letters: '-' for the beginning, else '(' .. the last one looked at

  Returns {messages removed, 1 if any part gave a full batch (call again) else 0, the last dead letter looked at
           ('' when there were none)}.
]]
local group, batch = ARGV[1], tonumber(ARGV[2])
local removed, more = 0, 0

--- @include "stream/includes/groups"

local function delete(stream, entries)
  for _, e in ipairs(entries) do
    for f = 1, #e[2], 2 do
      if e[2][f] == 'id' then
        redis.call('HDEL', KEYS[6], e[2][f + 1])
      end
    end
    removed = removed + redis.call('XDEL', stream, e[1])
  end
end

local info = group_info(KEYS[1], group)
local unread
if info then
  unread = redis.call('XRANGE', KEYS[1], '(' .. info['last-delivered-id'], '+', 'COUNT', batch)
else
  unread = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', batch)
end
delete(KEYS[1], unread)
if #unread == batch then more = 1 end

local waiting = redis.call('ZPOPMIN', KEYS[2], batch)
for i = 1, #waiting, 2 do
  local entry = waiting[i]
  delete(KEYS[1], redis.call('XRANGE', KEYS[1], entry, entry))
  redis.call('XACK', KEYS[1], group, entry)
  redis.call('HDEL', KEYS[8], entry)
end
if #waiting == 2 * batch then more = 1 end

local delayed = redis.call('ZPOPMIN', KEYS[4], batch)
for i = 1, #delayed, 2 do
  redis.call('HDEL', KEYS[5], delayed[i])
  removed = removed + 1
end
if #delayed == 2 * batch then more = 1 end

local deadGroup = group_info(KEYS[3], group)
local letters = redis.call('XRANGE', KEYS[3], ARGV[3], '+', 'COUNT', batch)
local free = {}
for _, letter in ipairs(letters) do
  local pending = deadGroup and #redis.call('XPENDING', KEYS[3], group, letter[1], letter[1], 1) > 0
  if not pending or redis.call('ZREM', KEYS[7], letter[1]) == 1 then
    if pending then
      redis.call('XACK', KEYS[3], group, letter[1])
    end
    free[#free + 1] = letter
  end
end
delete(KEYS[3], free)
if #letters == batch then more = 1 end

return {removed, more, #letters > 0 and letters[#letters][1] or ''}
