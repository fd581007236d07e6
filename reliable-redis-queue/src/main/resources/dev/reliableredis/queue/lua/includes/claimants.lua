--[[
  Included by the claim scripts (claim, stream/claim): the claimants one call claims for, one part each, and the
  claimers set in which each counts as live for the fair share.
]]

-- the claimant ids of a space-separated argument, in order
local function claimants_of(arg)
  local claimants = {}
  for claimant in string.gmatch(arg, '%S+') do
    claimants[#claimants + 1] = claimant
  end
  return claimants
end

-- records each claimant as live until now + live_for ms. pcall: Redis at its maxmemory refuses a first write that
-- may need memory; a full Redis must still be drained, so there the claimants go unrecorded (and the share counts
-- them out), and a claimers key of the wrong type only leaves them unrecorded
local function mark_live(key, now, live_for, claimants)
  local until_ms, members = string.format('%d', now + live_for), {}
  for _, claimant in ipairs(claimants) do
    members[#members + 1] = until_ms
    members[#members + 1] = claimant
  end
  redis.pcall('ZADD', key, unpack(members))
end
