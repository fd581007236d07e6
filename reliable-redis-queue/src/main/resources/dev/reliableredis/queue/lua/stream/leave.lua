--[[
  stream/leave: removes a stopping consumer from its group (XGROUP DELCONSUMER), only while it has nothing pending.

  KEYS[1] stream  the stream read (the dead-letter stream for a dead-letter consumer)

  ARGV[1], ARGV[2] group, consumer

  Returns: 1 removed (or not in the group), 0 it still has pending entries or the stream does not exist]]
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if #redis.call('XPENDING', KEYS[1], ARGV[1], '-', '+', 1, ARGV[2]) > 0 then
  return 0
end
return redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], ARGV[2]) >= 0 and 1 or 0
