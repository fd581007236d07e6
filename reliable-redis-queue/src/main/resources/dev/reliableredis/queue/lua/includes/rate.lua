--[[
  rate: both claim scripts' rate limit (GCRA): rate = theoretical arrival time, server ms; reply {'limited', ms, ''}.]]

local function rate_base(rate, now)
  local tat = tonumber(redis.call('GET', rate) or '')
  return tat and tat > now and tat or now
end

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

local function rate_take(rate, now, interval, count)
  local tat = rate_base(rate, now) + count * interval
  if tat > now then
    redis.call('SET', rate, string.format('%.17g', tat), 'PX', math.ceil(tat - now))
  else
    redis.call('DEL', rate)
  end
end

local function rate_limited(limited, wait)
  redis.pcall('SET', limited, '1', 'PX', wait)
  return {'limited', wait, ''}
end
