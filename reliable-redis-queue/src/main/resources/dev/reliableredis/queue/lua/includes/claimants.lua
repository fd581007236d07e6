--[[
  claimants: the claimant ids of an argument and their live marks (claimers: zset until ms), for both claim scripts.]]

local function claimants_of(arg)
  local claimants = {}
  for claimant in string.gmatch(arg, '%S+') do
    claimants[#claimants + 1] = claimant
  end
  return claimants
end

local function mark_live(key, now, live_for, claimants)
  local until_ms, members = string.format('%d', now + live_for), {}
  for _, claimant in ipairs(claimants) do
    members[#members + 1] = until_ms
    members[#members + 1] = claimant
  end
  redis.pcall('ZADD', key, unpack(members))
end
