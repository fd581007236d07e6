--[[
  Included by the stream scripts that add entries to the queue's stream (enqueue, reap for delayed messages,
  redrive), so that every one of the component's XADDs trims and shapes its entry the same way.
]]

-- the start of an XADD with the approximate MAXLEN trim when maxLen > 0
local function xadd_start(stream, maxLen)
  if tonumber(maxLen) > 0 then
    return {'XADD', stream, 'MAXLEN', '~', maxLen, '*'}
  end
  return {'XADD', stream, '*'}
end

-- adds one of the component's messages (fields body, id, headers when there are any, enqueued, and expires last
-- when it has a time to live: stream/claim looks for it there) and points the id index at the new entry; returns
-- the entry id
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
