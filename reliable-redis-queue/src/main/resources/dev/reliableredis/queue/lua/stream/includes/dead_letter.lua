--[[
  Included by stream scripts after stream/includes/groups: moves one pending entry to the dead-letter stream.

  Adds it to the dead-letter stream with origin_id, content (the body, or for an entry written by another
  program the JSON of its field map), failure and deliveries, plus id, headers and enqueued when it had them;
  points the id index at the dead letter; XACKs the entry, takes it out of the retry set and the deliveries hash
  and deletes it like an acked entry. An entry trimmed away meanwhile leaves a dead letter with empty content.
]]

--- @include "stream/includes/groups"
-- The dead letter is written before the entry is acked: a script that fails halfway (a dead-letter key of
-- the wrong type) must leave the entry pending, not acked and lost.
local function dead_letter(stream, group, retry, dead, ids, states, entry, deliveries, reason, deletion)
  local found = redis.call('XRANGE', stream, entry, entry)
  if #found == 0 then
    -- trimmed away (MAXLEN) while pending: its content is gone, but its failure is not hidden
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
