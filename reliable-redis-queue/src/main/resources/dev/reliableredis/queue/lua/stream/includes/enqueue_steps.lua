--[[
  Included by the stream scripts that enqueue (stream/enqueue, stream/handoff): a batch of messages into one queue,
  in two steps, so that a script that also writes elsewhere reads and checks everything before its first write.
  The keys (k) and the arguments of a message (4 each) are stream/enqueue's (see stream/enqueue.lua).
]]

--- @include "includes/errors"
--- @include "includes/types"
--- @include "stream/includes/add"

-- which of the ids are known to the queue of the keys, by their index: the entry still in the stream or the dead
-- stream, delayed, or acked within the window. Three reads for the whole call (ids, delayed, acked), which also
-- check those keys' types, and an XRANGE only for an id that names an entry, which a new id does not
local function known_ids(k, ids, now)
  if #ids == 0 then
    return {}
  end
  local refs = redis.call('HMGET', k[3], unpack(ids))
  local delayed = redis.call('ZMSCORE', k[5], unpack(ids))
  local remembered = redis.call('ZMSCORE', k[4], unpack(ids))
  local known = {}
  for n in ipairs(ids) do
    local ref = refs[n]
    if delayed[n] or (remembered[n] and tonumber(remembered[n]) > now) then
      known[n] = true
    elseif ref then
      local stream, entry = k[1], ref
      if string.sub(ref, 1, 2) == 'd:' then
        stream, entry = k[2], string.sub(ref, 3)
      end
      known[n] = #redis.call('XRANGE', stream, entry, entry) > 0
    end
  end
  return known
end

-- reads and checks the messages in args[first .. last]: a plan with one code per message (1 stored, 0 a no-op: the
-- id is known, or earlier in the batch). Fails with an error, before anything is written, for a key of the wrong
-- type or a delay argument of another shape. known_ids() reads ids, delayed and acked, which checks their types;
-- the stream and delayed-msg are checked here, delayed-msg only when a message of the call is delayed.
local function stream_enqueue_plan(k, args, first, last, now)
  require_type(k[1], 'stream')
  local ids = {}
  for i = first, last, 4 do
    ids[#ids + 1] = args[i]
  end
  local known = known_ids(k, ids, now)
  local plan = {codes = {}, messages = {}}
  local seen, delays_checked = {}, false
  for i = first, last, 4 do
    local n = #plan.codes + 1
    local id = args[i]
    local delay, ttl = string.match(args[i + 3], '^(%d+)|?(%d*)$')
    if not delay then
      fail('ERR enqueue: the delay of message ' .. id .. " is '" .. args[i + 3] .. "', not ms[|ms]")
    end
    if seen[id] or known[n] then
      plan.codes[n] = 0
    else
      seen[id] = true
      plan.codes[n] = 1
      plan.messages[#plan.messages + 1] = {id = id, body = args[i + 1], headers = args[i + 2],
        delay = tonumber(delay), expires = ttl ~= '' and string.format('%d', now + tonumber(ttl)) or nil}
      if tonumber(delay) > 0 and not delays_checked then
        require_type(k[6], 'hash')
        delays_checked = true
      end
    end
  end
  return plan
end

-- carries out a plan of stream_enqueue_plan, trimming the stream to about maxLen entries (0: no trim). Its first
-- write is one Redis refuses when it is out of memory (HSET, XADD): a script that has written once is let through
-- to the end, so a refusal can only come before anything is written.
local function stream_enqueue_write(k, plan, maxLen, now)
  local enqueued = string.format('%d', now)
  for _, m in ipairs(plan.messages) do
    if m.delay > 0 then
      local packed = m.expires and cmsgpack.pack(m.body, m.headers, now, m.expires)
          or cmsgpack.pack(m.body, m.headers, now)
      redis.call('HSET', k[6], m.id, packed)
      redis.call('ZADD', k[5], string.format('%d', now + m.delay), m.id)
    else
      add_message(k[1], k[3], maxLen, m.id, m.body, m.headers, enqueued, m.expires)
    end
    redis.call('ZREM', k[4], m.id)
  end
end
