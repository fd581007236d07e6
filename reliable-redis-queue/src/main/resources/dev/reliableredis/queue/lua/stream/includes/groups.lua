--[[
  stream/includes/groups: for the stream scripts: the retry consumer, entry ids, groups, acked entries, lease checks.]]

-- the consumer that retries wait with, out of the takeover's way; not a name consumerName accepts
local RETRY_CONSUMER = '(retry)'

local function park(stream, group, entry)
  return #redis.call('XCLAIM', stream, group, RETRY_CONSUMER, 0, entry, 'JUSTID') > 0
end

local function ms_seq(entry)
  local ms, seq = string.match(entry, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(seq)
end

local function after(a, b)
  local ams, aseq = ms_seq(a)
  local bms, bseq = ms_seq(b)
  return ams > bms or (ams == bms and aseq > bseq)
end

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

local function group_info(stream, group)
  for _, info in ipairs(groups_of(stream)) do
    if info['name'] == group then
      return info
    end
  end
  return nil
end

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

local function delete_acked(stream, group, entry, deletion)
  if deletion == 'always' or (deletion == 'all-groups' and not wanted_elsewhere(stream, group, entry)) then
    redis.call('XDEL', stream, entry)
  end
end

local function delete_all_acked(stream, group, entries, deletion)
  if deletion == 'never' then
    return
  end
  local gone = {}
  for _, entry in ipairs(entries) do
    if deletion == 'always' or not wanted_elsewhere(stream, group, entry) then
      gone[#gone + 1] = entry
    end
  end
  if #gone > 0 then
    redis.call('XDEL', stream, unpack(gone))
  end
end

local function pending_counts(stream, group, consumer, entries)
  local lo, hi
  for _, entry in ipairs(entries) do
    if ms_seq(entry) then
      if not lo or after(lo, entry) then lo = entry end
      if not hi or after(entry, hi) then hi = entry end
    end
  end
  local counts = {}
  if not lo then
    return counts
  end
  local mine = 0
  for _, owner in ipairs(redis.call('XPENDING', stream, group)[4] or {}) do
    if owner[1] == consumer then
      mine = tonumber(owner[2])
    end
  end
  if mine > 0 then
    for _, p in ipairs(redis.call('XPENDING', stream, group, lo, hi, mine, consumer)) do
      counts[p[1]] = tostring(p[4])
    end
  end
  return counts
end

local function held_entries(stream, group, consumer, first, stride, last)
  local entries, held = {}, {}
  for i = first, last or #ARGV, stride do
    entries[#entries + 1] = ARGV[i]
  end
  local counts = pending_counts(stream, group, consumer, entries)
  local seen = {}
  for k, entry in ipairs(entries) do
    held[k] = counts[entry] ~= nil and counts[entry] == ARGV[first + stride * (k - 1) + 1] and not seen[entry]
    if held[k] then
      seen[entry] = true
    end
  end
  return entries, held
end
