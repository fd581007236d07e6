--[[
  Included by the claim scripts (claim, stream/claim): the queue-wide rate limit, a generic cell rate algorithm
  (GCRA) on the Redis clock. The rate key holds the theoretical arrival time (TAT): the server time, in ms, at which
  the queue would be back to no messages taken, each message taken moving it on by one emission interval
  (period / permits). A claim may take as many messages as keep the TAT within burst intervals of now. So the
  messages are spread evenly over time, never more than burst at once, and unlike a fixed window there is no double
  burst across a window's edge: in any span of t ms at most burst + t / interval messages are taken.

  The key expires when the TAT has passed (the queue is back to idle then), so an idle queue keeps nothing.
]]

-- the theoretical arrival time in the rate key, or now when it is absent or passed
local function rate_base(rate, now)
  local tat = tonumber(redis.call('GET', rate) or '')
  return tat and tat > now and tat or now
end

-- the claim's limit from its arguments (permits per period, period in ms, burst): the emission interval (nil when
-- permits is 0: no limit), how many messages the limit allows to take now (math.huge without one), and when it
-- allows none, the ms until it allows one
local function rate_allows(rate, now, permits, period, burst)
  if tonumber(permits) == 0 then
    return nil, math.huge, 0
  end
  local interval, b = tonumber(period) / tonumber(permits), tonumber(burst)
  local base = rate_base(rate, now)
  local allowed = math.floor((now + b * interval - base) / interval)
  if allowed > 0 then
    return interval, allowed, 0
  end
  return interval, 0, math.max(1, math.ceil(base - now - (b - 1) * interval))
end

-- moves the TAT on by count messages taken, or back by -count messages given back unused
local function rate_take(rate, now, interval, count)
  local tat = rate_base(rate, now) + count * interval
  if tat > now then
    redis.call('SET', rate, string.format('%.17g', tat), 'PX', math.ceil(tat - now))
  else
    redis.call('DEL', rate)
  end
end

-- the reply of a claim the limit allows none: {'limited', ms until it allows one, ''}; the limited key marks the
-- queue (the group) limited as long, for stats. pcall: on a Redis at its maxmemory the mark is lost, not the claim.
local function rate_limited(limited, wait)
  redis.pcall('SET', limited, '1', 'PX', wait)
  return {'limited', wait, ''}
end
