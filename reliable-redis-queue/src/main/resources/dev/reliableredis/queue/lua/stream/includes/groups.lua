--[[
  Included by stream scripts (LuaScript expands '--- @include "stream/includes/groups"'): stream entry ids
  and consumer groups.
]]

-- The consumer that entries waiting for a retry belong to. Parked there, they are no longer the failed delivery's
-- (its late settlements are refused), and the reaper's takeover, which looks only at other consumers' idle
-- entries, never has to walk past them. Not a name the component accepts for consumerName.
local RETRY_CONSUMER = '(retry)'

-- moves a pending entry to RETRY_CONSUMER without counting a delivery; XCLAIM is a write Redis does not refuse at
-- its maxmemory, so a script that parks first runs on a full Redis. Returns false when the entry was trimmed away
-- meanwhile: Redis 7 then drops it from the pending entries list instead, and there is nothing to retry.
local function park(stream, group, entry)
  return #redis.call('XCLAIM', stream, group, RETRY_CONSUMER, 0, entry, 'JUSTID') > 0
end

-- the two numbers of a stream entry id 'ms-seq'
local function ms_seq(entry)
  local ms, seq = string.match(entry, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(seq)
end

-- true when entry a comes after entry b (both valid entry ids)
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

-- as delete_acked, for a batch of acked entries, with one XDEL
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

-- the delivery counts of the given entries that are pending with this consumer, entry id -> count (as text); two
-- commands for any number of entries: the consumer's pending count from the summary, then its pending entries
-- between the lowest and highest of the ids (ids that are not entry ids are left out)
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

-- the deliveries in ARGV from index first to last (the end of ARGV when nil), stride values each, the first two
-- being entry id and lease token (the delivery count): their entry ids, and whether each is still pending with
-- this consumer at that count (a delivery that repeats an earlier one of the batch is not held again), read with
-- two commands for the whole batch
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
