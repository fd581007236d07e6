--[[
  Included by the list scripts that enqueue, settle, dead-letter, redrive or purge messages: FIFO message groups.

  A message sent with a group id (CamelReliableRedisGroupId) has it in the group hash while it exists. Each group has
  at most one current message: the one that is ready, in flight, waiting for its retry, or (groupOnDeadLetter=block)
  dead, recorded in the groups hash, group id -> its id. Only the current message is ever on the ready list, so one
  message of a group is out at a time, claims take at most one of each group, and the other groups' current
  messages wait beside it on the ready list like any message: no group holds back another. The rest of a group waits
  in its line in the grouped set, in enqueue order: every member scores 0 and is "<length of the group id>:<group
  id>:<place, 16 digits>:<id>", so a group's line is one lexicographic range, its head the first of the range. When
  the current message is settled (acked, dead-lettered while the group continues, expired, purged) the head of its
  line becomes current and ready, or the group is done and leaves the groups hash. A retry, an expired lease and a
  release keep a message current, so its group waits for it, in order.

  A queue that never sees a group id has none of these keys, and pays one HMGET per ack call, and per call that
  dead-letters, expires or purges messages. The scripts that include this include includes/types too.
]]

--- @include "includes/types"

local PLACE_START = 5e12

local function line_prefix(gid)
  return string.format('%d', #gid) .. ':' .. gid .. ':'
end

local function line_member(gid, place, id)
  return line_prefix(gid) .. string.format('%016d', place) .. ':' .. id
end

-- the message id of a line's member
local function member_id(member)
  local length = string.match(member, '^(%d+):')
  return string.sub(member, #length + tonumber(length) + 20)
end

-- the head of the group's line: its member, id and place; nil when the line is empty. The places are digits, which
-- sort below ':', so the range ends before any other group's prefix.
local function line_head(grouped, gid)
  local prefix = line_prefix(gid)
  local member = redis.call('ZRANGEBYLEX', grouped, '[' .. prefix, '(' .. prefix .. ':', 'LIMIT', 0, 1)[1]
  if not member then
    return nil
  end
  return member, member_id(member), tonumber(string.sub(member, #prefix + 1, #prefix + 16))
end

-- Makes a message of the group waiting: current and ready when the group has no current message, else at the back
-- of its line (new, place from the counter) or, when front, at its head (a redriven message, whose group went on
-- without it). Returns true when it went to the ready list.
local function join_group(ready, groups, grouped, counter, gid, id, front)
  if not redis.call('HGET', groups, gid) then
    redis.call('HSET', groups, gid, id)
    redis.call('RPUSH', ready, id)
    return true
  end
  local place
  if front then
    local _, _, first = line_head(grouped, gid)
    place = first and first - 1 or PLACE_START
  else
    place = PLACE_START + redis.call('INCRBY', counter, 1)
  end
  redis.call('ZADD', grouped, 0, line_member(gid, place, id))
  return false
end

-- the group ids of the messages (nil for one without), and whether any has one: an HLEN of the group hash, and one
-- HMGET only while some message has a group; reads that also check the group hash's type, and the types of the keys
-- a group's move writes when there is a group
local function groups_of(group, groups, grouped, ready, ids)
  if redis.call('HLEN', group) == 0 then
    return {}, false
  end
  local gids = redis.call('HMGET', group, unpack(ids))
  local any = false
  for k = 1, #ids do
    any = any or gids[k] ~= false
  end
  if any then
    require_type(groups, 'hash')
    require_type(grouped, 'zset')
    require_type(ready, 'list')
  end
  return gids, any
end

-- The messages (their group ids from groups_of) are settled and gone (acked, dropped, purged), or, with dead,
-- dead-lettered; with keep too their groups wait for them (groupOnDeadLetter=block). Each that was its group's
-- current message lets the head of the group's line become current and ready, or ends the group. A dead letter keeps
-- its group id, for a redrive. Returns how many went to the ready list.
local function groups_move_on(ready, group, groups, grouped, ids, gids, dead, keep)
  local gone, moved = {}, 0
  for k, id in ipairs(ids) do
    local gid = gids[k]
    if gid and not dead then
      gone[#gone + 1] = id
    end
    if gid and not keep and redis.call('HGET', groups, gid) == id then
      local member, next_id = line_head(grouped, gid)
      if member then
        redis.call('ZREM', grouped, member)
        redis.call('HSET', groups, gid, next_id)
        redis.call('RPUSH', ready, next_id)
        moved = moved + 1
      else
        redis.call('HDEL', groups, gid)
      end
    end
  end
  if #gone > 0 then
    redis.call('HDEL', group, unpack(gone))
  end
  return moved
end
