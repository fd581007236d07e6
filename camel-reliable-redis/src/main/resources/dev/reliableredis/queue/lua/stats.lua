--[[
  stats: one consistent snapshot of a queue's counts.

  KEYS[1] ready          list of ids
  KEYS[2] inflight       zset
  KEYS[3] delayed        zset
  KEYS[4] dead           zset
  KEYS[5] dead-inflight  zset

  ARGV: none

  Returns {ready, inflight (including dead letters being consumed), delayed, dead}
]]
return {
  redis.call('LLEN', KEYS[1]),
  redis.call('ZCARD', KEYS[2]) + redis.call('ZCARD', KEYS[5]),
  redis.call('ZCARD', KEYS[3]),
  redis.call('ZCARD', KEYS[4])
}
