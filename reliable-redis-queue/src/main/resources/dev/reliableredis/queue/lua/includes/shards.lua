--[[
  shards: shards_refusal(meta, count, '' for none): nil or 'SHARDS <recorded> <resharding to, or 0> <count> <meta>']]

local function shards_refusal(meta, count)
  if count == '' then
    return nil
  end
  local marker = redis.call('HMGET', meta, 'shards', 'resharding')
  if not marker[1] and not marker[2] then
    return nil
  end
  local recorded = tonumber(marker[1] or 1)
  if marker[2] or recorded ~= tonumber(count) then
    return redis.error_reply('SHARDS ' .. recorded .. ' ' .. (marker[2] or 0) .. ' ' .. count .. ' ' .. meta)
  end
  return nil
end
