--[[
  list/includes/priority: priority levels, for the list scripts that make messages ready or take ready ones.
  a message's level (0 to 9, 9 highest): its extras field, where it is not DEFAULT_LEVEL
  prioritized: zset of those that are ready, scored level * LEVEL_SPAN + place in the level's line (BACK_START + seq
    at the back, one before the first at the front); DEFAULT_LEVEL waits in the ready list]]

include("list/includes/extras")

local LEVEL_SPAN = 1e13
local BACK_START = LEVEL_SPAN / 2

local function level_range(level)
  return level * LEVEL_SPAN, '(' .. string.format('%d', (level + 1) * LEVEL_SPAN)
end

-- makes the message ready at its level (level: from its extras field when nil), at the back or the front of its line
local function make_ready(ready, prioritized, extras, counter, id, front, level)
  level = level or select(2, parse_extras(extras_of(extras, {id})[1]))
  if level == DEFAULT_LEVEL and front then
    redis.call('LPUSH', ready, id)
    return
  elseif level == DEFAULT_LEVEL then
    redis.call('RPUSH', ready, id)
    return
  end
  local place
  if front then
    local low, high = level_range(level)
    local first = redis.call('ZRANGEBYSCORE', prioritized, low, high, 'WITHSCORES', 'LIMIT', 0, 1)[2]
    place = first and tonumber(first) - low - 1 or BACK_START
  else
    place = BACK_START + redis.call('INCRBY', counter, 1)
  end
  redis.call('ZADD', prioritized, string.format('%d', level * LEVEL_SPAN + place), id)
end

-- the weighted round-robin cycle: level p has p + 1 of the 55 places, spread out as smooth weighted round-robin does
local CYCLE = '9876543928761958479638579028649758369748195678293456789'

local function level_counts(ready, prioritized)
  local counts = {}
  for level = 0, 9 do
    if level == DEFAULT_LEVEL then
      counts[level] = redis.call('LLEN', ready)
    else
      local low, high = level_range(level)
      counts[level] = redis.call('ZCOUNT', prioritized, low, high)
    end
  end
  return counts
end

-- the next want messages across the levels (strict, or by the cycle from cursor): ids, levels, cycle place after each
local function next_in_line(ready, prioritized, counts, want, strict, cursor)
  local picks, after = {}, {}
  local left, waiting = {}, 0
  for level = 0, 9 do
    left[level] = counts[level]
    waiting = waiting + counts[level]
  end
  local place = cursor
  while #picks < math.min(want, waiting) do
    local level
    if strict then
      level = 9
      while left[level] == 0 do
        level = level - 1
      end
    else
      level = tonumber(string.sub(CYCLE, place + 1, place + 1))
      place = (place + 1) % #CYCLE
    end
    if left[level] > 0 then
      left[level] = left[level] - 1
      picks[#picks + 1] = level
      after[#picks] = place
    end
  end
  local firsts = {}
  for level = 0, 9 do
    local n = counts[level] - left[level]
    if n > 0 and level == DEFAULT_LEVEL then
      firsts[level] = redis.call('LRANGE', ready, 0, n - 1)
    elseif n > 0 then
      local low, high = level_range(level)
      firsts[level] = redis.call('ZRANGEBYSCORE', prioritized, low, high, 'LIMIT', 0, n)
    end
  end
  local ids, taken = {}, {}
  for k, level in ipairs(picks) do
    taken[level] = (taken[level] or 0) + 1
    ids[k] = firsts[level][taken[level]]
  end
  return ids, picks, after
end

local function take_in_line(ready, prioritized, ids, levels, n)
  local fromReady, fromSet = 0, {}
  for k = 1, n do
    if levels[k] == DEFAULT_LEVEL then
      fromReady = fromReady + 1
    else
      fromSet[#fromSet + 1] = ids[k]
    end
  end
  if fromReady > 0 then
    redis.call('LTRIM', ready, fromReady, -1)
  end
  if #fromSet > 0 then
    redis.call('ZREM', prioritized, unpack(fromSet))
  end
end
