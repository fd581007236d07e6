--[[
  Included by the scripts that send and claim: the shard count of the endpoint that calls, checked against its
  shard's marker (the fields shards and resharding of the shard's own meta hash, see shard-count), so that an
  endpoint that checked the count before a reshard is refused at each later send or claim, not only at its first.
  One HMGET of a key in the shard's own slot per call.
]]

-- an error reply 'SHARDS <recorded count> <count of a reshard under way, or 0> <count> <meta>' when the marker of
-- meta does not say count or says a reshard is under way, else nil; the caller returns it before it writes
-- anything. No marker passes: no count was recorded (a queue used unsharded, or one whose endpoints opened it
-- without the check that records it), and a reshard writes one into every shard before it moves anything
local function shards_refusal(meta, count)
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
