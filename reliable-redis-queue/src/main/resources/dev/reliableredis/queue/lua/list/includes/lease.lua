--[[
  list/includes/lease: a message's delivery state, its field of the leases hash, read and written for the list scripts.
  Value: "deliveries|leaseToken[|credits|flags]"; no field while there is nothing to keep (0 deliveries, nothing else)
  leaseToken: the id of the claim that took the message (letters, digits and dots); empty while not leased
  credits: deliveries not counted as failed (a crashed batch, a retry-after); failed deliveries = deliveries - credits
  flags: 'b' the lease was claimed in a batch of more than one; 's' claimed alone since a batch of it lost its consumer;
    'x' the leased message has an extras field; 'f' it has a failure field (a nack wrote one; an ack deletes it)
]]

local function parse_lease(value)
  local deliveries, token, rest = string.match(value, '^(%d+)|([%w.]*)(.*)$')
  if not deliveries then
    return nil
  end
  local credits, flags = '0', ''
  if rest ~= '' then
    credits, flags = string.match(rest, '^|(%d+)|([bsxf]*)$')
    if not credits then
      return nil
    end
  end
  return tonumber(deliveries), token, tonumber(credits), flags
end

local function lease_value(deliveries, token, credits, flags)
  local value = string.format('%d', deliveries) .. '|' .. (token or '')
  if (credits or 0) > 0 or (flags or '') ~= '' then
    value = value .. '|' .. string.format('%d', credits or 0) .. '|' .. flags
  end
  return value
end

local function lease_flags(batched, solo, extras, failed)
  return (batched and 'b' or '') .. (solo and 's' or '') .. (extras and 'x' or '') .. (failed and 'f' or '')
end

local function has_flag(flags, flag)
  return flags ~= nil and string.find(flags, flag, 1, true) ~= nil
end

local function unleased_flags(flags, solo, failed)
  return lease_flags(false, solo or has_flag(flags, 's'), false, failed or has_flag(flags, 'f'))
end

local function deliveries_of(value)
  if not value then
    return 0
  end
  return (parse_lease(value))
end

local function unlease(leases, id, deliveries, credits, flags)
  if deliveries > 0 or (credits or 0) > 0 or (flags or '') ~= '' then
    redis.call('HSET', leases, id, lease_value(deliveries, '', credits, flags))
  else
    redis.call('HDEL', leases, id)
  end
end

-- settlements ARGV[first..last], stride each, id and token first: ids, held, values, held flags[, lease deadlines]
local function held_leases(inflight, leases, first, stride, last, with_deadlines)
  local ids = {}
  for i = first, last or #ARGV, stride do
    ids[#ids + 1] = ARGV[i]
  end
  local values = redis.call('HMGET', leases, unpack(ids))
  local deadlines = with_deadlines and redis.call('ZMSCORE', inflight, unpack(ids))
  local held, flags, seen = {}, {}, {}
  for k, id in ipairs(ids) do
    local token = ARGV[first + stride * (k - 1) + 1]
    local _, current, _, flagged
    if values[k] then
      _, current, _, flagged = parse_lease(values[k])
    end
    held[k] = token ~= '' and current == token and not seen[id] and (not deadlines or deadlines[k] ~= false) or false
    if held[k] then
      seen[id] = true
      flags[k] = flagged
    end
  end
  return ids, held, values, flags, deadlines
end
