--[[
  list/includes/group: FIFO message groups, for the list scripts that enqueue, settle, dead-letter, redrive or purge.
  a message's group id: its extras field, while the message exists (a dead letter keeps it)
  groups: hash group id -> its current message, its only one ready, in flight, retried or (groupOnDeadLetter=block) dead
  grouped: zset of the lines behind the current messages, each member scored 0 and named
    "<length of the group id>:<group id>:<place, 16 digits>:<id>", so that a line is one lexicographic range]]

include("list/includes/extras", "includes/types")

local PLACE_START = 5e12

local function line_prefix(gid)
  return string.format('%d', #gid) .. ':' .. gid .. ':'
end

local function line_member(gid, place, id)
  return line_prefix(gid) .. string.format('%016d', place) .. ':' .. id
end

local function member_id(member)
  local length = string.match(member, '^(%d+):')
  return string.sub(member, #length + tonumber(length) + 20)
end

local function line_head(grouped, gid)
  local prefix = line_prefix(gid)
  local member = redis.call('ZRANGEBYLEX', grouped, '[' .. prefix, '(' .. prefix .. ':', 'LIMIT', 0, 1)[1]
  if not member then
    return nil
  end
  return member, member_id(member), tonumber(string.sub(member, #prefix + 1, #prefix + 16))
end

-- makes the message current and ready, or else puts it at the back (front: the head) of its line; true when ready
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

-- the group ids in extras values (false for none) and whether any has one; checks the types groups_move_on writes
local function groups_in(values, groups, grouped, ready)
  local gids, any = {}, false
  for k, value in ipairs(values) do
    gids[k] = select(3, parse_extras(value))
    any = any or gids[k] ~= false
  end
  if any then
    require_type(groups, 'hash')
    require_type(grouped, 'zset')
    require_type(ready, 'list')
  end
  return gids, any
end

local function groups_of(extras, groups, grouped, ready, ids)
  return groups_in(extras_of(extras, ids), groups, grouped, ready)
end

-- moves on the groups of settled messages (keep: groups wait for them); returns how many became ready
local function groups_move_on(ready, groups, grouped, ids, gids, keep)
  local moved = 0
  for k, id in ipairs(ids) do
    local gid = gids[k]
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
  return moved
end
