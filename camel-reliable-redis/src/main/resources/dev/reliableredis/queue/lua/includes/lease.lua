--[[
  Included by the list scripts: a message's delivery state, one field of the leases hash per message id,
  "deliveries|leaseToken". The token is empty while the message is not leased, so a settlement with an old token
  never matches. A message that was never delivered (or was given back before its first delivery counted) has no
  field: its deliveries are 0, and a queued message costs no memory here.
]]

-- deliveries (a number) and lease token ('' when not leased) of a leases-hash value; nil when it is unreadable
-- (written by something else)
local function parse_lease(value)
  local deliveries, token = string.match(value, '^(%d+)|(%d*)$')
  if not deliveries then
    return nil
  end
  return tonumber(deliveries), token
end

local function lease_value(deliveries, token)
  return string.format('%d', deliveries) .. '|' .. (token or '')
end

-- deliveries of a message from its leases-hash value (false: never delivered); nil when unreadable
local function deliveries_of(value)
  if not value then
    return 0
  end
  return (parse_lease(value))
end

-- stores the delivery state of a message that is not leased: no field at all for 0 deliveries
local function unlease(leases, id, deliveries)
  if deliveries > 0 then
    redis.call('HSET', leases, id, lease_value(deliveries, ''))
  else
    redis.call('HDEL', leases, id)
  end
end

-- the settlements in ARGV from index first on, stride values each, the first two being id and lease token: their
-- ids, whether each holds the current lease of a message in flight (a settlement that repeats an earlier one of the
-- batch does not hold it again), their leases-hash values and their in-flight deadlines; one command each
local function held_leases(inflight, leases, first, stride)
  local ids = {}
  for i = first, #ARGV, stride do
    ids[#ids + 1] = ARGV[i]
  end
  local values = redis.call('HMGET', leases, unpack(ids))
  local deadlines = redis.call('ZMSCORE', inflight, unpack(ids))
  local held, seen = {}, {}
  for k, id in ipairs(ids) do
    local token = ARGV[first + stride * (k - 1) + 1]
    local current = values[k] and select(2, parse_lease(values[k]))
    held[k] = deadlines[k] and token ~= '' and current == token and not seen[id] or false
    if held[k] then
      seen[id] = true
    end
  end
  return ids, held, values, deadlines
end
