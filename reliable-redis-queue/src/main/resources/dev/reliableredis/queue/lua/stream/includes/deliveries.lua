--[[
  Included by stream scripts: what the pending entries list does not know of a delivery, one field of the group's
  deliveries hash per entry id, "batchedAt|credits|solo", kept only while there is something to keep:

  batchedAt  the delivery count of the entry's current delivery when it was claimed in a batch of more than one,
             else 0: the reaper then credits that delivery when the consumer dies, instead of failing it
  credits    deliveries that do not count as failed (one per crashed batch, one per retry-after a route asked
             for); failed deliveries are the pending entries list's delivery count less the credits, and decide
             retries and dead-lettering
  solo       1: the entry is claimed alone, since it was in a batch whose consumer died
]]

-- batchedAt, credits, solo (a boolean) of a deliveries-hash value; 0, 0, false when there is none or it is
-- unreadable
local function parse_delivery(value)
  local batchedAt, credits, solo = string.match(value or '', '^(%d+)|(%d+)|([01])$')
  if not batchedAt then
    return 0, 0, false
  end
  return tonumber(batchedAt), tonumber(credits), solo == '1'
end

-- stores what is left to keep of an entry's delivery state, or deletes its field when nothing is
local function store_delivery(deliveries, entry, batchedAt, credits, solo)
  if batchedAt > 0 or credits > 0 or solo then
    redis.call('HSET', deliveries, entry, string.format('%d|%d|%s', batchedAt, credits, solo and '1' or '0'))
  else
    redis.call('HDEL', deliveries, entry)
  end
end

-- the entry's current delivery is over without a crash (nacked, given back): only credits and solo stay
local function end_delivery(deliveries, entry)
  local value = redis.call('HGET', deliveries, entry)
  if value then
    local _, credits, solo = parse_delivery(value)
    store_delivery(deliveries, entry, 0, credits, solo)
  end
end
