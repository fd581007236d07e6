--[[
  schedule-declare: stores a queue's cron expression and time zone, both modes; a first one's last tick is now.

  KEYS[1] schedule  hash: cron, zone, last (epoch ms of the last tick fired), redriven (tick ids, one space apart)

  ARGV[1] the cron expression
  ARGV[2] its time zone id

  Returns: {cron before, zone before}, false each for none. Errors: 'WRONGTYPE <schedule> holds a <type>, not a hash']]
include("includes/time", "includes/types")

require_type(KEYS[1], 'hash')
local before = redis.call('HMGET', KEYS[1], 'cron', 'zone')
if redis.call('HEXISTS', KEYS[1], 'last') == 0 then
  redis.call('HSET', KEYS[1], 'last', string.format('%d', now_ms()))
end
redis.call('HSET', KEYS[1], 'cron', ARGV[1], 'zone', ARGV[2])
return before
