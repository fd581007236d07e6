--[[
  Included by the stream scripts that read a delayed message (reap, browse): its value in the delayed-msg hash is
  {body, headers, enqueued[, expires]} packed with cmsgpack (see enqueue). A value something else wrote otherwise
  must fail that message alone, not the script with its batch: reap dead-letters it and browse shows it, each with
  what is wrong as its failure.
]]

-- the body, headers JSON, enqueue time (ms) and expiry ('' or nil for none) of a delayed message; nil and what is
-- wrong when its value is not as enqueue packs it
local function delayed_message(packed)
  local ok, body, headers, enqueued, expires = pcall(cmsgpack.unpack, packed)
  if ok and type(body) == 'string' and type(headers) == 'string' and type(enqueued) == 'number'
      and (expires == nil or string.find(tostring(expires), '^%d+$')) then
    return body, headers, enqueued, expires
  end
  return nil, 'malformed record: a delayed message that is not {body, headers, enqueued[, expires]} packed'
end
