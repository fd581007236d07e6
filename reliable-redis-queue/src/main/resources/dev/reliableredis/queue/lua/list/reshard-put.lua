--[[
  list/reshard-put: stores on a list-mode shard the messages a reshard moves there from another shard, each with its
  record, delivery state, failure and expiry, in the same section with the same score; and the acked ids it copies there.
  A message whose id this shard knows already (stored, or acked within the idempotency window) is left out, so a
  reshard that stopped after this call and runs again does not store it twice.

  KEYS[1..7] the shard's ready, delayed, dead, acked, messages, leases and failure keys, as reshard-read's
             (see list/reshard-read.lua)
  KEYS[8] wake      list of wake-up tokens for idle consumers (see includes/wake)
  KEYS[9] expires   hash id -> server time (ms) after which the message is not delivered (see enqueue)

  ARGV[7k-6] section of the k-th message: 'ready', 'delayed', 'dead' or 'acked'
  ARGV[7k-5] its id
  ARGV[7k-4] its score ('' for ready)
  ARGV[7k-3] its record ('' for an acked id)
  ARGV[7k-2] its leases-hash value, '' for none
  ARGV[7k-1] its failure, '' for none
  ARGV[7k]   its expiry, '' for none

  Returns the number of messages and ids stored.

  Fails with an error, before it writes anything, for a batch of more than 1000 (includes/limits).
]]
--- @include "includes/limits"
--- @include "includes/types"
--- @include "includes/wake"

require_batch(#ARGV / 7, 'reshard put')

require_type(KEYS[1], 'list')
for _, key in ipairs({KEYS[2], KEYS[3], KEYS[4]}) do
  require_type(key, 'zset')
end
for _, key in ipairs({KEYS[5], KEYS[6], KEYS[7], KEYS[9]}) do
  require_type(key, 'hash')
end
local stored, ready = 0, false
for i = 1, #ARGV, 7 do
  local section, id, score = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  if section == 'acked' then
    stored = stored + redis.call('ZADD', KEYS[4], 'GT', 'CH', score, id)
  elseif redis.call('HEXISTS', KEYS[5], id) == 0 and not redis.call('ZSCORE', KEYS[4], id) then
    redis.call('HSET', KEYS[5], id, ARGV[i + 3])
    if ARGV[i + 4] ~= '' then
      redis.call('HSET', KEYS[6], id, ARGV[i + 4])
    end
    if ARGV[i + 5] ~= '' then
      redis.call('HSET', KEYS[7], id, ARGV[i + 5])
    end
    if ARGV[i + 6] ~= '' then
      redis.call('HSET', KEYS[9], id, ARGV[i + 6])
    end
    if section == 'ready' then
      redis.call('RPUSH', KEYS[1], id)
      ready = true
    else
      redis.call('ZADD', section == 'delayed' and KEYS[2] or KEYS[3], score, id)
    end
    stored = stored + 1
  end
end
if ready then
  wake(KEYS[8])
end
return stored
