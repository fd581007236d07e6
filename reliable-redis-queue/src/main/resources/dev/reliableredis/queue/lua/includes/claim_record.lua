--[[
  Included by the claim scripts (claim, stream/claim): each consumer's last claim, so that a claim that runs again
  gets what its first run took instead of taking more. A claim can run and lose its reply (a command timeout, a
  dropped connection): its messages would stay leased to no one until their lease ends, and come back with their
  delivery counted, so that with maxRetries=0 a message alone in it would be dead-lettered unseen. The consumer
  therefore makes the claim after a failed one with the same claim id, and Lettuce re-sends a claim that was in
  flight when its connection dropped with the same arguments: either way the claim finds its own record and
  returns those messages again, still under their first run's lease and delivery count.

  The record: one key per claiming consumer, <base>claim:<its id>, holding {claim id, id, n, part, id, n, part,
  ...} packed with cmsgpack, where n is the message's lease token (list mode) or its delivery count (stream mode)
  and part the claimant it went to. It expires with the leases it names, and is written only by a claim that took
  something.
]]

-- the id, n, part triples of the consumer's last claim when it had this claim id; nil when the claim is a new one
local function recorded_claim(key, claim)
  local record = redis.call('GET', key)
  if not record then
    return nil
  end
  local ok, values = pcall(cmsgpack.unpack, record)
  if not ok or type(values) ~= 'table' or values[1] ~= claim then
    return nil
  end
  table.remove(values, 1)
  return values
end

-- records the claim's id, n, part triples under its claim id, for ttl ms
local function record_claim(key, claim, triples, ttl)
  table.insert(triples, 1, claim)
  redis.call('SET', key, cmsgpack.pack(triples), 'PX', ttl)
end
