--[[
  stream/purge: removes up to ARGV[2] unread entries, retries, delayed messages and idle dead letters of a group.

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

  Returns: {messages removed, 1 if a part gave a full batch (call again) else 0, the last dead letter looked at or ''}]]
local group, batch = ARGV[1], tonumber(ARGV[2])
local removed, more = 0, 0

include("stream/includes/groups")

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
