--[[
  stream/includes/dead_letter: moves one pending entry to the dead-letter stream, for stream/claim, nack and reap.
  dead letter: origin_id, content (body or foreign fields' JSON), failure, deliveries; id, headers, enqueued if any]]

include("stream/includes/groups")
local function dead_letter(stream, group, retry, dead, ids, states, entry, deliveries, reason, deletion)
  local found = redis.call('XRANGE', stream, entry, entry)
  if #found == 0 then
    redis.call('XADD', dead, '*', 'origin_id', entry, 'content', '', 'failure',
        reason .. ' (the entry was no longer in the stream)', 'deliveries', tostring(deliveries))
    redis.call('XACK', stream, group, entry)
    redis.call('ZREM', retry, entry)
    redis.call('HDEL', states, entry)
    return
  end
  local map = {}
  for f = 1, #found[1][2], 2 do
    map[found[1][2][f]] = found[1][2][f + 1]
  end
  local own = map['body'] and map['id']
  local xadd = {'XADD', dead, '*', 'origin_id', entry, 'content', own and map['body'] or cjson.encode(map),
                'failure', reason, 'deliveries', tostring(deliveries)}
  if own then
    for _, name in ipairs({'id', 'headers', 'enqueued'}) do
      if map[name] then
        xadd[#xadd + 1] = name
        xadd[#xadd + 1] = map[name]
      end
    end
  end
  local letter = redis.call(unpack(xadd))
  if own then
    redis.call('HSET', ids, map['id'], 'd:' .. letter)
  end
  redis.call('XACK', stream, group, entry)
  redis.call('ZREM', retry, entry)
  redis.call('HDEL', states, entry)
  delete_acked(stream, group, entry, deletion)
end
