--[[
  list/stats: one consistent snapshot of a queue's counts, and of how long its oldest messages have waited.

  KEYS[1] ready          list of ids
  KEYS[2] inflight       zset id -> lease deadline
  KEYS[3] delayed        zset
  KEYS[4] dead           zset
  KEYS[5] dead-inflight  zset id -> lease deadline
  KEYS[6] messages       hash id -> "enqueuedAt|payload"
  KEYS[7] paused         exists while the queue is paused
  KEYS[8] capped         exists while the queue is at its maxInflight
  KEYS[9] limited        exists while the rate limit holds claims back
  KEYS[10] prioritized   zset id -> level and place of a ready message with a priority
  KEYS[11] groups        hash group id -> id of its current message
  KEYS[12] grouped       zset of the groups' lines

  ARGV[1] visibility timeout in ms: a lease was taken or last extended at its deadline less this

  Returns: {ready (every level and the groups' lines), inflight (both in-flight sets), delayed, dead,
    ms since the oldest next-in-line ready message was enqueued (0: none, or its record unreadable),
    ms since the longest-held lease was taken or last extended (0: none),
    paused, at maxInflight, rate-limited (each 1 or 0), groups with messages not yet settled}]]
include("list/includes/priority", "includes/time")

local now = now_ms()

local prioritized = redis.call('ZCARD', KEYS[10])
local heads = {redis.call('LINDEX', KEYS[1], 0)}
if prioritized > 0 then
  for level = 0, 9 do
    local low, high = level_range(level)
    heads[#heads + 1] = level ~= DEFAULT_LEVEL and redis.call('ZRANGEBYSCORE', KEYS[10], low, high, 'LIMIT', 0, 1)[1]
  end
end
local oldestReady = 0
for _, head in ipairs(heads) do
  local record = head and redis.call('HGET', KEYS[6], head)
  local enqueuedAt = record and string.match(record, '^(%d+)|%d+|')
  if enqueuedAt then
    oldestReady = math.max(oldestReady, now - tonumber(enqueuedAt))
  end
end

local oldestInflight = 0
for _, key in ipairs({KEYS[2], KEYS[5]}) do
  local earliest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2]
  if earliest then
    oldestInflight = math.max(oldestInflight, now - (tonumber(earliest) - tonumber(ARGV[1])))
  end
end

return {
  redis.call('LLEN', KEYS[1]) + prioritized + redis.call('ZCARD', KEYS[12]),
  redis.call('ZCARD', KEYS[2]) + redis.call('ZCARD', KEYS[5]),
  redis.call('ZCARD', KEYS[3]),
  redis.call('ZCARD', KEYS[4]),
  oldestReady,
  oldestInflight,
  redis.call('EXISTS', KEYS[7]),
  redis.call('EXISTS', KEYS[8]),
  redis.call('EXISTS', KEYS[9]),
  redis.call('HLEN', KEYS[11])
}
