--[[
  list/includes/ack_steps: a batch ack, as ack_plan (reads and checks) then ack_write, for list/ack.lua and
  list/handoff.lua; keys as ack's, the deliveries ARGV[first..last] as id and lease token.]]

include("list/includes/capacity", "list/includes/group", "list/includes/lease", "includes/types", "includes/wake")

-- a plan with a code per delivery (1 acked, 0 refused); writes_first: the caller writes before ack_write
local function ack_plan(k, first, last, writes_first)
  if writes_first then
    require_type(k[2], 'hash')
  end
  local plan = {codes = {}, done = {}, failed = {}, extras = {}}
  require_type(k[1], 'zset')
  require_type(k[5], 'zset')
  require_type(k[7], 'list')
  local ids, held, _, flagged = held_leases(k[1], k[3], first, 2, last)
  for n, id in ipairs(ids) do
    plan.codes[n] = held[n] and 1 or 0
    if held[n] then
      local flags = flagged[n]
      plan.done[#plan.done + 1] = id
      if flags ~= '' then
        plan.failed[#plan.failed + 1] = has_flag(flags, 'f') and id or nil
        plan.extras[#plan.extras + 1] = has_flag(flags, 'x') and id or nil
      end
    end
  end
  if #plan.failed > 0 then
    require_type(k[4], 'hash')
  end
  plan.gids, plan.grouped = groups_of(k[8], k[9], k[10], k[11], plan.extras)
  return plan
end

local function ack_write(k, plan, window, now)
  local done = plan.done
  if #done == 0 then
    return
  end
  redis.call('HDEL', k[2], unpack(done))
  redis.call('ZREM', k[1], unpack(done))
  redis.call('HDEL', k[3], unpack(done))
  if #plan.failed > 0 then
    redis.call('HDEL', k[4], unpack(plan.failed))
  end
  if #plan.extras > 0 then
    redis.call('HDEL', k[8], unpack(plan.extras))
  end
  if window > 0 then
    local remember, until_ms = {}, string.format('%d', now + window)
    for _, id in ipairs(done) do
      remember[#remember + 1] = until_ms
      remember[#remember + 1] = id
    end
    redis.call('ZADD', k[5], unpack(remember))
  end
  capacity_freed(k[6], k[7])
  if plan.grouped and groups_move_on(k[11], k[9], k[10], plan.extras, plan.gids, false) > 0 then
    wake(k[7])
  end
end
