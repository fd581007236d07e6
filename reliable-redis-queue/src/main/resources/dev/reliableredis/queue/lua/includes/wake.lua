--[[
  Included by the list scripts that make messages ready (enqueue, claim, reap, release, redrive).
]]

-- leaves one wake-up token in the wake list unless one is there already. An idle consumer waits for a token with
-- BLPOP, and Redis hands each token to one waiting consumer: an arrival wakes one consumer, not all of them; the
-- consumer whose claim leaves messages behind leaves a token for the next.
local function wake(key)
  if redis.call('LLEN', key) == 0 then
    redis.call('RPUSH', key, '1')
  end
end
