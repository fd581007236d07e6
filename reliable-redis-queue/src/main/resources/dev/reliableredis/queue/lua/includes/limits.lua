--[[
  limits: require_batch, for the batch scripts: 'ERR <operation> of <count> in one call; at most 1000', before writes.]]

include("includes/errors")

local MAX_BATCH = 1000

local function require_batch(count, operation)
  if count > MAX_BATCH then
    fail('ERR ' .. operation .. ' of ' .. count .. ' in one call; at most ' .. MAX_BATCH)
  end
end
