--[[
  Included by the scripts that answer a request, in both modes: reply, and handoff for a request acked with its
  reply.
]]

--- @include "includes/types"

-- errors before any write when the inbox key holds something other than a list
local function reply_check(key)
  require_type(key, 'list')
end

-- appends the reply to the requester's inbox, a list its requester pops; the inbox expires ttl ms after its latest
-- reply, so the inbox of a requester that went away does not stay
local function reply_write(key, payload, ttl)
  redis.call('RPUSH', key, payload)
  redis.call('PEXPIRE', key, ttl)
end
