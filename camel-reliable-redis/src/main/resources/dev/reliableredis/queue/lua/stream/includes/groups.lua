--[[
  Included by stream scripts (LuaScript expands '--- @include "stream/includes/groups"'): stream entry ids
  and consumer groups.
]]

-- the two numbers of a stream entry id 'ms-seq'
local function ms_seq(entry)
  local ms, seq = string.match(entry, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(seq)
end

-- true when entry a comes after entry b
local function after(a, b)
  local ams, aseq = ms_seq(a)
  local bms, bseq = ms_seq(b)
  return ams > bms or (ams == bms and aseq > bseq)
end

-- XINFO GROUPS of the stream as a list of field maps; empty when the stream does not exist. Read once per
-- script run: acks, nacks and takeovers do not move a group's last-delivered-id.
local groups_read = {}
local function groups_of(stream)
  if groups_read[stream] then
    return groups_read[stream]
  end
  local groups = {}
  groups_read[stream] = groups
  if redis.call('EXISTS', stream) == 0 then
    return groups
  end
  for _, info in ipairs(redis.call('XINFO', 'GROUPS', stream)) do
    local map = {}
    for i = 1, #info, 2 do
      map[info[i]] = info[i + 1]
    end
    groups[#groups + 1] = map
  end
  return groups
end

-- the field map of one group of the stream, or nil
local function group_info(stream, group)
  for _, info in ipairs(groups_of(stream)) do
    if info['name'] == group then
      return info
    end
  end
  return nil
end

-- true when a group other than this one has not read the entry yet or still has it pending
local function wanted_elsewhere(stream, group, entry)
  for _, info in ipairs(groups_of(stream)) do
    if info['name'] ~= group then
      if after(entry, info['last-delivered-id']) then
        return true
      end
      if #redis.call('XPENDING', stream, info['name'], entry, entry, 1) > 0 then
        return true
      end
    end
  end
  return false
end

-- deletes an acked entry when the deletion rule says so: 'always', 'all-groups' (once no other group
-- wants it) or 'never'
local function delete_acked(stream, group, entry, deletion)
  if deletion == 'always' or (deletion == 'all-groups' and not wanted_elsewhere(stream, group, entry)) then
    redis.call('XDEL', stream, entry)
  end
end
