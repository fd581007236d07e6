--[[
  stream/includes/delayed: reads a delayed message's value, for stream/reap and stream/browse.
  delayed-msg value: cmsgpack {body, headers JSON, enqueued (ms)[, expires (ms)]}, as stream/enqueue packs it]]

local function delayed_message(packed)
  local ok, body, headers, enqueued, expires = pcall(cmsgpack.unpack, packed)
  if ok and type(body) == 'string' and type(headers) == 'string' and type(enqueued) == 'number'
      and (expires == nil or string.find(tostring(expires), '^%d+$')) then
    return body, headers, enqueued, expires
  end
  return nil, 'malformed record: a delayed message that is not {body, headers, enqueued[, expires]} packed'
end
