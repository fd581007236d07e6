--[[
  stream/leave: removes a stopping consumer from its group (XGROUP DELCONSUMER), but only while it has no
  pending entries: deleting a consumer drops its pending entries, which would then never be delivered again.
  Without this every start with a generated consumer name would leave one more name in the group.

  KEYS[1] stream  the stream read (the dead-letter stream for a dead-letter consumer)

  ARGV[1] group
  ARGV[2] consumer

  Returns 1 when the consumer was removed (or was not in the group), 0 when it still has pending entries or the
  stream does not exist.
]]
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if #redis.call('XPENDING', KEYS[1], ARGV[1], '-', '+', 1, ARGV[2]) > 0 then
  return 0
end
return redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], ARGV[2]) >= 0 and 1 or 0
