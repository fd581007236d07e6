--[[
  stream/includes/enqueue_steps: for stream/enqueue, handoff and schedule-fire, an enqueue as a plan and its writes.]]

include("includes/errors", "includes/types", "stream/includes/add")

local function known_ids(k, ids, now)
  if #ids == 0 then
    return {}
  end
  local refs = redis.call('HMGET', k[3], unpack(ids))
  local delayed = redis.call('ZMSCORE', k[5], unpack(ids))
  local remembered = redis.call('ZMSCORE', k[4], unpack(ids))
  local known = {}
  for n in ipairs(ids) do
    local ref = refs[n]
    if delayed[n] or (remembered[n] and tonumber(remembered[n]) > now) then
      known[n] = true
    elseif ref then
      local stream, entry = k[1], ref
      if string.sub(ref, 1, 2) == 'd:' then
        stream, entry = k[2], string.sub(ref, 3)
      end
      known[n] = #redis.call('XRANGE', stream, entry, entry) > 0
    end
  end
  return known
end

local function stream_enqueue_plan(k, args, first, last, now)
  require_type(k[1], 'stream')
  local ids = {}
  for i = first, last, 4 do
    ids[#ids + 1] = args[i]
  end
  local known = known_ids(k, ids, now)
  local plan = {codes = {}, messages = {}}
  local seen, delays_checked = {}, false
  for i = first, last, 4 do
    local n = #plan.codes + 1
    local id = args[i]
    local delay, ttl = string.match(args[i + 3], '^(%d+)|?(%d*)$')
    if not delay then
      fail('ERR enqueue: the delay of message ' .. id .. " is '" .. args[i + 3] .. "', not ms[|ms]")
    end
    if seen[id] or known[n] then
      plan.codes[n] = 0
    else
      seen[id] = true
      plan.codes[n] = 1
      plan.messages[#plan.messages + 1] = {id = id, body = args[i + 1], headers = args[i + 2],
        delay = tonumber(delay), expires = ttl ~= '' and string.format('%d', now + tonumber(ttl)) or nil}
      if tonumber(delay) > 0 and not delays_checked then
        require_type(k[6], 'hash')
        delays_checked = true
      end
    end
  end
  return plan
end

local function stream_enqueue_write(k, plan, maxLen, now)
  local enqueued = string.format('%d', now)
  for _, m in ipairs(plan.messages) do
    if m.delay > 0 then
      local packed = m.expires and cmsgpack.pack(m.body, m.headers, now, m.expires)
          or cmsgpack.pack(m.body, m.headers, now)
      redis.call('HSET', k[6], m.id, packed)
      redis.call('ZADD', k[5], string.format('%d', now + m.delay), m.id)
    else
      add_message(k[1], k[3], maxLen, m.id, m.body, m.headers, enqueued, m.expires)
    end
    redis.call('ZREM', k[4], m.id)
  end
end
