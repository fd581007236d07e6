--[[
  extend: moves the lease deadline of a batch of deliveries forward to server time +
  visibility timeout. Each is checked on its own lease token; a deadline never moves back.

  KEYS[1] inflight  zset id -> lease deadline (the dead-inflight set for dead letters)
  KEYS[2] meta      hash id -> "enqueuedAt|deliveries|leaseToken"

  ARGV[1] visibility timeout in ms
  ARGV[2k], ARGV[2k+1]  id and lease token of the k-th delivery

  Returns an array with one code per delivery:
    1 extended (or already further out)
    0 refused: the token is not the current lease, or the message no longer exists

  The deadline is moved with ZREM, then ZADD: Redis at its maxmemory refuses a script whose first write is one
  that may need memory (ZADD), and lets a script that has written once run to its end; ZREM it never refuses.
  A lease must be kept on a full Redis, or long exchanges lose theirs.
]]
local t = redis.call('TIME')
local deadline = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
local codes = {}
for i = 2, #ARGV, 2 do
  local id, token = ARGV[i], ARGV[i + 1]
  local meta = redis.call('HGET', KEYS[2], id)
  local current = redis.call('ZSCORE', KEYS[1], id)
  if meta and string.match(meta, '|([^|]*)$') == token and current then
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZADD', KEYS[1], math.max(deadline, tonumber(current)), id)
    codes[#codes + 1] = 1
  else
    codes[#codes + 1] = 0
  end
end
return codes
