--[[
  schedule-read: a queue's schedule and the server time, in both modes.

  KEYS[1] schedule  hash: cron, zone, last (see schedule-declare.lua)

  Returns: {cron, zone, last, now (server ms)}, false for none. Errors: 'WRONGTYPE <schedule> holds a <type>, ...']]
include("includes/time", "includes/types")

require_type(KEYS[1], 'hash')
local state = redis.call('HMGET', KEYS[1], 'cron', 'zone', 'last')
state[4] = now_ms()
return state
