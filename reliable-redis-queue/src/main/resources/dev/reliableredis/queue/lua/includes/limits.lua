--[[
  Included by every script that takes a batch: the most messages or deliveries one script call takes. The scripts
  pass a batch to one command with unpack, which takes at most a few thousand values (Lua's C stack), and pairs
  such as score and member double a batch: a larger batch is refused before the script writes anything, rather
  than failing halfway through its writes.
]]

--- @include "includes/errors"

local MAX_BATCH = 1000

-- fails the script with an error naming the operation and the count when count is more than MAX_BATCH
local function require_batch(count, operation)
  if count > MAX_BATCH then
    fail('ERR ' .. operation .. ' of ' .. count .. ' in one call; at most ' .. MAX_BATCH)
  end
end
