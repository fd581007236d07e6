--[[
  stream/includes/add: the XADD of every entry the component writes (enqueue, handoff, schedule-fire, reap, redrive).
  entry fields: body, id, headers (only when any), enqueued (ms), expires (ms, only with a time to live, always last)]]

local function xadd_start(stream, maxLen)
  if tonumber(maxLen) > 0 then
    return {'XADD', stream, 'MAXLEN', '~', maxLen, '*'}
  end
  return {'XADD', stream, '*'}
end

local function add_message(stream, ids, maxLen, id, body, headers, enqueued, expires)
  local xadd = xadd_start(stream, maxLen)
  for _, v in ipairs({'body', body, 'id', id}) do
    xadd[#xadd + 1] = v
  end
  if headers and headers ~= '' then
    xadd[#xadd + 1] = 'headers'
    xadd[#xadd + 1] = headers
  end
  if enqueued then
    xadd[#xadd + 1] = 'enqueued'
    xadd[#xadd + 1] = enqueued
  end
  if expires then
    xadd[#xadd + 1] = 'expires'
    xadd[#xadd + 1] = expires
  end
  local entry = redis.call(unpack(xadd))
  redis.call('HSET', ids, id, entry)
  return entry
end
