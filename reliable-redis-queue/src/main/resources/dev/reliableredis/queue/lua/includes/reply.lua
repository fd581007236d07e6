--[[
  reply: reply_check and reply_write (RPUSH, PEXPIRE ttl ms) of a requester's inbox list, for reply and handoff.]]

include("includes/types")

local function reply_check(key)
  require_type(key, 'list')
end

local function reply_write(key, payload, ttl)
  redis.call('RPUSH', key, payload)
  redis.call('PEXPIRE', key, ttl)
end
