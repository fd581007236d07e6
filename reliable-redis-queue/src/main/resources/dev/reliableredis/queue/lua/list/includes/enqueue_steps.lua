--[[
  list/includes/enqueue_steps: a batch enqueue into one queue, as enqueue_plan (reads and checks) then enqueue_write,
  for list/enqueue.lua, list/handoff.lua and list/schedule-fire.lua; keys and arguments (3 per message) as enqueue's.]]

include("includes/errors", "list/includes/group", "list/includes/priority", "includes/types", "includes/wake")

local ENQUEUE_STRIDE = 3

-- delay, time to live, level and group id from the options (the group id last: it may hold any character)
local function message_options(options, id)
  if string.find(options, '^%d+$') then
    return tonumber(options), 0, DEFAULT_LEVEL, ''
  end
  local delay, ttl, level, gid = string.match(options, '^(%d+)|(%d+)|(%d+)|(.*)$')
  if not delay then
    fail('ERR enqueue: the options of message ' .. id .. " are '" .. options
        .. "', not 'delay' or 'delay|ttl|level|group id'")
  end
  return tonumber(delay), tonumber(ttl), tonumber(level), gid
end

local function require_key(key, id, needs)
  if not key then
    fail('ERR enqueue: message ' .. id .. ' has ' .. needs .. ', whose keys this call did not pass')
  end
end

local function enqueue_plan(k, args, first, last, now)
  require_type(k[1], 'list')
  require_type(k[2], 'zset')
  require_type(k[5], 'list')
  local ids = {}
  for i = first, last, ENQUEUE_STRIDE do
    ids[#ids + 1] = args[i]
  end
  local remembered = redis.call('ZMSCORE', k[4], unpack(ids))
  local stored = redis.call('HMGET', k[3], unpack(ids))
  local stamp = string.format('%d', now) .. '|'
  local plan = {codes = {}, records = {}, ready = {}, delayed = {}, forget = {}, extras = {}, leveled = {},
    grouped = {}}
  local seen = {}
  for n, id in ipairs(ids) do
    local until_ms = remembered[n] and tonumber(remembered[n])
    if seen[id] or (until_ms and until_ms > now) or stored[n] then
      plan.codes[n] = 0
    else
      seen[id] = true
      plan.codes[n] = 1
      local at = first + ENQUEUE_STRIDE * (n - 1) - 1
      plan.records[#plan.records + 1] = id
      plan.records[#plan.records + 1] = stamp .. args[at + 2]
      local delay, ttl, level, gid = message_options(args[at + 3], id)
      if level > 9 then
        fail('ERR enqueue: the priority of message ' .. id .. " is '" .. level .. "', not 0 to 9")
      end
      local extras = extras_value(ttl > 0 and string.format('%d', now + ttl) or '', level, gid)
      if extras then
        if gid ~= '' then
          require_key(k[10], id, 'a group id')
        elseif level ~= DEFAULT_LEVEL then
          require_key(k[8], id, 'a priority')
        else
          require_key(k[6], id, 'a time to live')
        end
        plan.extras[#plan.extras + 1] = id
        plan.extras[#plan.extras + 1] = extras
      end
      if gid ~= '' and (delay > 0 or level ~= DEFAULT_LEVEL) then
        fail('ERR enqueue: message ' .. id .. " of group '" .. gid .. "' has a delay or a priority; a group"
            .. ' is delivered in its order')
      end
      if gid ~= '' then
        plan.grouped[#plan.grouped + 1] = {id = id, gid = gid}
      end
      if delay > 0 then
        plan.delayed[#plan.delayed + 1] = string.format('%d', now + delay)
        plan.delayed[#plan.delayed + 1] = id
      elseif level ~= DEFAULT_LEVEL then
        plan.leveled[#plan.leveled + 1] = {id = id, level = level}
      elseif gid == '' then
        plan.ready[#plan.ready + 1] = id
      end
      if until_ms then
        plan.forget[#plan.forget + 1] = id
      end
    end
  end
  if #plan.extras > 0 then
    require_type(k[6], 'hash')
  end
  if #plan.leveled > 0 then
    require_type(k[7], 'zset')
  end
  if #plan.leveled + #plan.grouped > 0 then
    require_type(k[8], 'string')
  end
  if #plan.grouped > 0 then
    require_type(k[9], 'hash')
    require_type(k[10], 'zset')
  end
  return plan
end

local function enqueue_write(k, plan)
  if #plan.records == 0 then
    return
  end
  redis.call('HSET', k[3], unpack(plan.records))
  if #plan.forget > 0 then
    redis.call('ZREM', k[4], unpack(plan.forget))
  end
  if #plan.extras > 0 then
    redis.call('HSET', k[6], unpack(plan.extras))
  end
  if #plan.delayed > 0 then
    redis.call('ZADD', k[2], unpack(plan.delayed))
  end
  if #plan.leveled > 0 then
    local waiting = redis.call('ZCARD', k[7])
    for _, m in ipairs(plan.leveled) do
      make_ready(k[1], k[7], k[6], k[8], m.id, false, m.level)
    end
    if waiting == 0 then
      wake(k[5])
    end
  end
  if #plan.grouped > 0 then
    local woke = false
    for _, m in ipairs(plan.grouped) do
      if join_group(k[1], k[9], k[10], k[8], m.gid, m.id, false) and not woke then
        wake(k[5])
        woke = true
      end
    end
  end
  if #plan.ready > 0 and redis.call('RPUSH', k[1], unpack(plan.ready)) == #plan.ready then
    wake(k[5])
  end
end
