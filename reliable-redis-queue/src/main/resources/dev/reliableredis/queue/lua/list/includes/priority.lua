--[[
  Included by the list scripts that put messages on the ready line or take them off it: priority levels.

  A message sent with a priority (CamelReliableRedisPriority, 0 to 9, 9 highest) other than DEFAULT_LEVEL has its
  level in the priority hash while it exists, and waits in the prioritized set while it is ready, scored by
  level * LEVEL_SPAN plus its place in its level's line; a message of the default level waits in the ready list.
  So a queue that never sees a priority has neither key, and pays one ZCARD per claim, one HDEL per ack and one
  EXISTS per script that makes messages ready again. Places start at the middle of a level's span: a message made ready at the front of
  its line (given back unstarted) gets the place before the first, one at the back the next value of the
  counter.
]]

local DEFAULT_LEVEL = 4
local LEVEL_SPAN = 1e13
local BACK_START = LEVEL_SPAN / 2

-- the score range of a level in the prioritized set, for ZRANGEBYSCORE and ZCOUNT
local function level_range(level)
  return level * LEVEL_SPAN, '(' .. string.format('%d', (level + 1) * LEVEL_SPAN)
end

local priorities_exist = nil

-- the level of the message (DEFAULT_LEVEL for one without a priority); one EXISTS per script run on a queue that
-- never saw a priority
local function level_of(priority, id)
  if priorities_exist == nil then
    priorities_exist = redis.call('EXISTS', priority) == 1
  end
  return priorities_exist and tonumber(redis.call('HGET', priority, id)) or DEFAULT_LEVEL
end

-- puts the message on the ready line of its level, at the back or, when front, at the front
local function make_ready(ready, prioritized, priority, counter, id, front)
  local level = level_of(priority, id)
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

-- The weighted round-robin cycle of the levels: level p has p + 1 of its 55 places, spread out (the order of a
-- smooth weighted round-robin), so that every level is served within one cycle, whatever waits at the others.
local CYCLE = '9876543928761958479638579028649758369748195678293456789'

-- how many messages wait at each level (0 to 9), from the ready list and the prioritized set
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

-- The next want messages in line across the levels: strictly the highest level first, or by the weighted cycle
-- from its place cursor on, passing over levels with nothing (more) waiting. Returns their ids, each one's level,
-- and the cycle place after each (unchanged in strict order).
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

-- takes the first n of the ids next_in_line returned off their lines: one LTRIM, one ZREM
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
