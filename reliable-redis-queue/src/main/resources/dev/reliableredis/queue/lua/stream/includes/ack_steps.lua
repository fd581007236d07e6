--[[
  stream/includes/ack_steps: for stream/ack and stream/handoff, an ack as a plan (reads, checks) and its writes.]]

include("includes/types", "stream/includes/capacity", "stream/includes/groups")

local function stream_ack_plan(k, group, consumer, first, last)
  local plan = {codes = {}, acked = {}, ids = {}, retrying = redis.call('ZCARD', k[2]) > 0,
    marked = redis.call('HLEN', k[5]) > 0}
  require_type(k[4], 'zset')
  local entries, held = held_entries(k[1], group, consumer, first, 3, last)
  for n, entry in ipairs(entries) do
    plan.codes[n] = held[n] and 1 or 0
    if held[n] then
      plan.acked[#plan.acked + 1] = entry
      plan.ids[#plan.ids + 1] = ARGV[first + 3 * (n - 1) + 2]
    end
  end
  if #plan.ids > 0 then
    plan.indexed = redis.call('HMGET', k[3], unpack(plan.ids))
  end
  return plan
end

local function stream_ack_write(k, group, plan, window, deletion, refPrefix, now)
  local acked, ids = plan.acked, plan.ids
  if #acked == 0 then
    return
  end
  redis.call('XACK', k[1], group, unpack(acked))
  if plan.retrying then
    redis.call('ZREM', k[2], unpack(acked))
  end
  if plan.marked then
    redis.call('HDEL', k[5], unpack(acked))
  end
  local indexed = plan.indexed
  local forget, remember, until_ms = {}, {}, string.format('%d', now + window)
  for n, id in ipairs(ids) do
    if indexed[n] == refPrefix .. acked[n] then
      forget[#forget + 1] = id
      remember[#remember + 1] = until_ms
      remember[#remember + 1] = id
    end
  end
  if #forget > 0 then
    redis.call('HDEL', k[3], unpack(forget))
    if window > 0 then
      redis.call('ZADD', k[4], unpack(remember))
    end
  end
  delete_all_acked(k[1], group, acked, deletion)
  capacity_freed(k[6], k[7], now)
end
