--[[
  stream/browse: reads up to ARGV[3] messages of one section of a stream queue, for one group, oldest first,
  without claiming or changing anything.

  ready     entries the group has not been delivered yet (the whole stream while the group does not exist), by
            entry id; retries that are due are not among them (they wait in the retry set: delayed)
  inflight  entries pending with a real consumer (not the retry consumer), of the stream and of the dead-letter
            stream (dead letters this group's dead-letter consumers are processing), the longest idle first: the
            lease taken or last extended the longest ago, among the first 1,000 entries (by entry id) of each
            consumer, which it claimed first: a dead consumer can hold many until the reaper takes them over.
  delayed   delayed messages and entries waiting in the retry set (due ones included), by due time
  dead      dead letters not being processed by a dead-letter consumer of the group (one waiting for its retry
            is), by entry id

  KEYS[1] stream
  KEYS[2] retry        zset entry id -> retry due time, of this group on the stream
  KEYS[3] dead         the dead-letter stream
  KEYS[4] delayed      zset message id -> due time
  KEYS[5] delayed-msg  hash message id -> cmsgpack {body, headers, enqueued[, expires]}

  ARGV[1] group
  ARGV[2] section: 'ready', 'inflight', 'delayed' or 'dead'
  ARGV[3] most messages to read

  Returns {server time in ms, then 8 entries per message:
           entry id (for a delayed message, which has no entry yet, its message id),
           1 for a dead letter else 0, delivery count in the group (0 when not pending),
           field array {k1, v1, ...} (a delayed message's as its entry will have them: body, id, headers, enqueued),
           idle ms of its lease (inflight, else -1), ms until due (delayed, 0 when due, else -1),
           the consumer that holds it (inflight, else nil),
           what is wrong with a delayed message whose value something else wrote malformed (its fields then body,
           the value as stored, and id; see stream/includes/delayed), else nil}.
  Entries deleted or trimmed away meanwhile are skipped.
]]
local group, section, limit = ARGV[1], ARGV[2], tonumber(ARGV[3])

--- @include "includes/time"
--- @include "stream/includes/delayed"
--- @include "stream/includes/groups"

local now = now_ms()
local out = {now}
local count = 0

local function add(entry, deadLetter, deliveries, fields, leaseAge, dueIn, owner, malformed)
  local n = #out
  out[n + 1] = entry
  out[n + 2] = deadLetter and 1 or 0
  out[n + 3] = deliveries
  out[n + 4] = fields
  out[n + 5] = leaseAge
  out[n + 6] = dueIn
  out[n + 7] = owner or false
  out[n + 8] = malformed or false
  count = count + 1
end

-- the field array of an entry, nil when it is gone
local function fields_of(stream, entry)
  local found = redis.call('XRANGE', stream, entry, entry)[1]
  return found and found[2]
end

-- the pending entry of the group, {entry, owner, idle, deliveries}, nil when it is not pending
local function pending_of(stream, entry)
  if not group_info(stream, group) then
    return nil
  end
  return redis.call('XPENDING', stream, group, entry, entry, 1)[1]
end

if section == 'ready' then
  local info = group_info(KEYS[1], group)
  local from = info and '(' .. info['last-delivered-id'] or '-'
  for _, e in ipairs(redis.call('XRANGE', KEYS[1], from, '+', 'COUNT', limit)) do
    add(e[1], false, 0, e[2], -1, -1)
  end
elseif section == 'inflight' then
  local held = {}
  for _, source in ipairs({KEYS[1], KEYS[3]}) do
    if group_info(source, group) then
      for _, owner in ipairs(redis.call('XPENDING', source, group)[4] or {}) do
        if owner[1] ~= RETRY_CONSUMER then
          -- a consumer's first entries were claimed first; reading at most 1,000 of each bounds the call
          for _, p in ipairs(redis.call('XPENDING', source, group, '-', '+', math.min(1000, tonumber(owner[2])),
              owner[1])) do
            held[#held + 1] = {dead = source == KEYS[3], entry = p[1], owner = p[2], idle = p[3], deliveries = p[4]}
          end
        end
      end
    end
  end
  -- ties (one claim's batch shares its idle time): the stream's first, then in entry order
  table.sort(held, function(a, b)
    if a.idle ~= b.idle then
      return a.idle > b.idle
    end
    if a.dead ~= b.dead then
      return b.dead
    end
    return after(b.entry, a.entry)
  end)
  for _, h in ipairs(held) do
    if count == limit then
      break
    end
    local fields = fields_of(h.dead and KEYS[3] or KEYS[1], h.entry)
    if fields then
      add(h.entry, h.dead, h.deliveries, fields, h.idle, -1, h.owner)
    end
  end
elseif section == 'delayed' then
  local waiting = {}
  for _, key in ipairs({KEYS[4], KEYS[2]}) do
    local flat = redis.call('ZRANGE', key, 0, limit - 1, 'WITHSCORES')
    for i = 1, #flat, 2 do
      waiting[#waiting + 1] = {member = flat[i], due = tonumber(flat[i + 1]), retry = key == KEYS[2]}
    end
  end
  -- ties: delayed messages first, then in member order, as ZRANGE has them
  table.sort(waiting, function(a, b)
    if a.due ~= b.due then
      return a.due < b.due
    end
    if a.retry ~= b.retry then
      return b.retry
    end
    return a.member < b.member
  end)
  for _, w in ipairs(waiting) do
    if count == limit then
      break
    end
    local dueIn = math.max(0, w.due - now)
    if w.retry then
      local fields = fields_of(KEYS[1], w.member)
      local pending = pending_of(KEYS[1], w.member)
      if fields then
        add(w.member, false, pending and pending[4] or 0, fields, -1, dueIn)
      end
    else
      local packed = redis.call('HGET', KEYS[5], w.member)
      if packed then
        local body, headers, enqueued = delayed_message(packed)
        if body then
          add(w.member, false, 0, {'body', body, 'id', w.member, 'headers', headers, 'enqueued',
                                   string.format('%d', enqueued)}, -1, dueIn)
        else
          add(w.member, false, 0, {'body', packed, 'id', w.member}, -1, dueIn, nil, headers)
        end
      end
    end
  end
else
  -- dead letters being processed are skipped, so the walk goes on until it has enough or the stream ends
  local from = '-'
  repeat
    local letters = redis.call('XRANGE', KEYS[3], from, '+', 'COUNT', limit)
    for _, letter in ipairs(letters) do
      local pending = pending_of(KEYS[3], letter[1])
      if count < limit and (not pending or pending[2] == RETRY_CONSUMER) then
        add(letter[1], true, pending and pending[4] or 0, letter[2], -1, -1)
      end
    end
    if #letters > 0 then
      from = '(' .. letters[#letters][1]
    end
  until #letters < limit or count == limit
end
return out
