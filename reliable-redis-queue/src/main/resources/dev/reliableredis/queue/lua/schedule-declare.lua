--[[
  schedule-declare: stores a queue's schedule, in both modes: its cron expression and time zone, replacing other
  ones (a changed expression takes effect when an instance declaring it starts). A first declaration counts from
  now: its last fired tick is the server time, so that no tick of the past fires.

  KEYS[1] schedule  hash: cron, zone, last (epoch ms of the last tick fired), redriven (the message ids of ticks a
    redrive moved back while they may be queued or running, one space apart; see schedule-fire)

  ARGV[1] the cron expression
  ARGV[2] its time zone id

  Returns {cron before, zone before} (false for each when there was no schedule).
]]
--- @include "includes/time"
--- @include "includes/types"

require_type(KEYS[1], 'hash')
local before = redis.call('HMGET', KEYS[1], 'cron', 'zone')
if redis.call('HEXISTS', KEYS[1], 'last') == 0 then
  redis.call('HSET', KEYS[1], 'last', string.format('%d', now_ms()))
end
redis.call('HSET', KEYS[1], 'cron', ARGV[1], 'zone', ARGV[2])
return before
