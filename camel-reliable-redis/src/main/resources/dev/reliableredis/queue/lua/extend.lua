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
--- @include "includes/time"
--- @include "includes/meta"

local deadline = now_ms() + tonumber(ARGV[1])
local codes = {}
for i = 2, #ARGV, 2 do
  local id, token = ARGV[i], ARGV[i + 1]
  local _, _, current = read_meta(KEYS[2], id)
  local held = redis.call('ZSCORE', KEYS[1], id)
  if current == token and held then
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZADD', KEYS[1], math.max(deadline, tonumber(held)), id)
    codes[#codes + 1] = 1
  else
    codes[#codes + 1] = 0
  end
end
return codes
