--[[
  list/purge: removes up to ARGV[1] ready, delayed and dead messages each, with all kept about them; not in-flight ones.

  KEYS[1] ready     list of ids
  KEYS[2] delayed   zset id -> due time
  KEYS[3] dead      zset id -> time available
  KEYS[4] messages  hash id -> "enqueuedAt|payload"
  KEYS[5] leases    hash id -> "deliveries|leaseToken[|credits|flags]"
  KEYS[6] failure   hash id -> last failure
  KEYS[7] extras    hash id -> "expiresAt|level|groupId" of a message sent with any of them
  KEYS[8] prioritized  zset id -> level and place of a ready message with a priority
  KEYS[9] groups    hash group id -> id of its current message
  KEYS[10] grouped  zset of the groups' lines

  ARGV[1] most messages to remove from each of ready, delayed, dead, prioritized and grouped

  Returns: {messages removed, 1 when a part gave a full batch or a group moved on (call again), else 0}]]
include("list/includes/group", "includes/types")

require_types('zset', KEYS[2], KEYS[3], KEYS[8], KEYS[10])
require_types('hash', KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[9])
local batch = tonumber(ARGV[1])
local ids = redis.call('LPOP', KEYS[1], batch) or {}
local more = #ids == batch and 1 or 0
for _, key in ipairs({KEYS[2], KEYS[3], KEYS[8]}) do
  local popped = redis.call('ZPOPMIN', key, batch)
  if #popped == 2 * batch then
    more = 1
  end
  for i = 1, #popped, 2 do
    ids[#ids + 1] = popped[i]
  end
end
local members = redis.call('ZPOPMIN', KEYS[10], batch)
if #members == 2 * batch then
  more = 1
end
for i = 1, #members, 2 do
  ids[#ids + 1] = member_id(members[i])
end
if #ids == 0 then
  return {0, more}
end
local gids, grouped = groups_of(KEYS[7], KEYS[9], KEYS[10], KEYS[1], ids)
if grouped then
  if groups_move_on(KEYS[1], KEYS[9], KEYS[10], ids, gids, false) > 0 then
    more = 1
  end
end
local removed = 0
for _, id in ipairs(ids) do
  removed = removed + redis.call('HDEL', KEYS[4], id)
  redis.call('HDEL', KEYS[5], id)
  redis.call('HDEL', KEYS[6], id)
  redis.call('HDEL', KEYS[7], id)
end
return {removed, more}
