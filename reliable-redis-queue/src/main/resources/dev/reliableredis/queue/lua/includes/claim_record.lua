--[[
  claim_record: a consumer's last claim, for both claim scripts: cmsgpack {claim id, id, token|deliveries, part, ...}.]]

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

local function record_claim(key, claim, triples, ttl)
  table.insert(triples, 1, claim)
  redis.call('SET', key, cmsgpack.pack(triples), 'PX', ttl)
end
