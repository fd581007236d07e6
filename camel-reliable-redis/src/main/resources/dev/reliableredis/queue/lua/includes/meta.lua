--[[
  Included by the list scripts: a message's metadata, one field of the meta hash per message id,
  "enqueuedAt|deliveries|leaseToken". The token is empty while the message is not leased, so a settlement with an
  old token never matches.
]]

-- enqueuedAt (text), deliveries (a number) and the lease token ('' when not leased) of a message; nil when its
-- metadata is missing or unreadable (written by something else)
local function read_meta(meta, id)
  local value = redis.call('HGET', meta, id)
  if not value then
    return nil
  end
  local enqueuedAt, deliveries, token = string.match(value, '^(%d+)|(%d+)|(.*)$')
  if not enqueuedAt then
    return nil
  end
  return enqueuedAt, tonumber(deliveries), token
end

local function write_meta(meta, id, enqueuedAt, deliveries, token)
  redis.call('HSET', meta, id, enqueuedAt .. '|' .. string.format('%d', deliveries) .. '|' .. (token or ''))
end
