--[[
  stream/includes/deliveries: the deliveries hash, entry id -> "batchedAt|credits|solo", kept while not all 0:
  batchedAt  the delivery count at which the entry was claimed in a batch of more than one, else 0
  credits    deliveries that do not count as failed; failed deliveries = the delivery count less the credits
  solo       1: the entry is claimed alone, since it was in a batch whose consumer died]]

local function parse_delivery(value)
  local batchedAt, credits, solo = string.match(value or '', '^(%d+)|(%d+)|([01])$')
  if not batchedAt then
    return 0, 0, false
  end
  return tonumber(batchedAt), tonumber(credits), solo == '1'
end

local function store_delivery(deliveries, entry, batchedAt, credits, solo)
  if batchedAt > 0 or credits > 0 or solo then
    redis.call('HSET', deliveries, entry, string.format('%d|%d|%s', batchedAt, credits, solo and '1' or '0'))
  else
    redis.call('HDEL', deliveries, entry)
  end
end

local function end_delivery(deliveries, entry)
  local value = redis.call('HGET', deliveries, entry)
  if value then
    local _, credits, solo = parse_delivery(value)
    store_delivery(deliveries, entry, 0, credits, solo)
  end
end
