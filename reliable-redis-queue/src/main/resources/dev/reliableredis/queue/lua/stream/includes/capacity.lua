--[[
  Included by the stream scripts that end deliveries (ack, nack): the wake-up after a claim found the group at its
  maxInflight (see stream/claim). Such a claim marks the group capped, and its claimant waits for a new entry of
  the group's freed stream; the first settlement after it deletes the mark and adds one (MAXLEN 1), which wakes
  every consumer of the group waiting at the cap. A settlement while no claim found the cap costs one DEL. The XADD
  is a pcall: it comes after the settlement's writes, and a freed key of the wrong type (written by something else)
  must not fail a settlement that is done; the waiting consumers then claim again within a second.
]]

-- adds an entry to the freed stream when a claim found the group capped since the last settlement
local function capacity_freed(capped, freed, now)
  if redis.call('DEL', capped) == 1 then
    redis.pcall('XADD', freed, 'MAXLEN', 1, '*', 'at', now)
  end
end
