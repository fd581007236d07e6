--[[
  Included by the list scripts: a message's delivery state, one field of the leases hash per message id,
  "deliveries|leaseToken", or "deliveries|leaseToken|credits|flags" once a crashed batch or a retry-after was
  involved. The token is the id of the claim that took the message (letters, digits and dots; no claim id is made
  twice), and empty while the message is not leased, so a settlement with an old token never matches. A
  message that was never delivered (or was given back before its first delivery counted) has no field: its
  deliveries are 0, and a queued message costs no memory here.

  credits: deliveries that do not count as failed: one for each batch of more than one message whose consumer died
  while holding it (reap), and one for each retry-after a route asked for (nack). Failed deliveries are
  deliveries - credits: they decide retries and dead-lettering.
  flags: 'b' the current lease was claimed in a batch of more than one; 's' the message is claimed alone, since it
  was in a batch whose consumer died.
]]

-- deliveries (a number), lease token ('' when not leased), credits (a number) and flags of a leases-hash value;
-- nil when it is unreadable (written by something else)
local function parse_lease(value)
  local deliveries, token, rest = string.match(value, '^(%d+)|([%w.]*)(.*)$')
  if not deliveries then
    return nil
  end
  local credits, flags = '0', ''
  if rest ~= '' then
    credits, flags = string.match(rest, '^|(%d+)|([bs]*)$')
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

-- the flags of a lease: batched ('b') and solo ('s'), as flags text
local function lease_flags(batched, solo)
  return (batched and 'b' or '') .. (solo and 's' or '')
end

local function is_solo(flags)
  return flags ~= nil and string.find(flags, 's', 1, true) ~= nil
end

local function is_batched(flags)
  return flags ~= nil and string.find(flags, 'b', 1, true) ~= nil
end

-- deliveries of a message from its leases-hash value (false: never delivered); nil when unreadable
local function deliveries_of(value)
  if not value then
    return 0
  end
  return (parse_lease(value))
end

-- stores the delivery state of a message that is not leased: no field at all when there is nothing to keep
local function unlease(leases, id, deliveries, credits, flags)
  if deliveries > 0 or (credits or 0) > 0 or (flags or '') ~= '' then
    redis.call('HSET', leases, id, lease_value(deliveries, '', credits, flags))
  else
    redis.call('HDEL', leases, id)
  end
end

-- the settlements in ARGV from index first to last (the end of ARGV when nil), stride values each, the first two
-- being id and lease token: their ids, whether each holds the current lease of a message in flight (a settlement
-- that repeats an earlier one of the batch does not hold it again), their leases-hash values and their in-flight
-- deadlines; one command each
local function held_leases(inflight, leases, first, stride, last)
  local ids = {}
  for i = first, last or #ARGV, stride do
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
