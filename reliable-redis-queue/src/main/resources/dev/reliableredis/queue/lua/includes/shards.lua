--[[
  shards: require_shards(meta, count, '' for none) fails 'SHARDS <recorded> <resharding to, or 0> <count> <meta>'.]]

include("includes/errors")

local function require_shards(meta, count)
  if count == '' then
    return
  end
  local marker = redis.call('HMGET', meta, 'shards', 'resharding')
  if not marker[1] and not marker[2] then
    return
  end
  local recorded = tonumber(marker[1] or 1)
  if marker[2] or recorded ~= tonumber(count) then
    fail('SHARDS ' .. recorded .. ' ' .. (marker[2] or 0) .. ' ' .. count .. ' ' .. meta)
  end
end
