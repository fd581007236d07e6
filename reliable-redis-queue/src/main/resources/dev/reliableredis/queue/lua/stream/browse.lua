--[[
  stream/browse: reads up to ARGV[3] messages of one section of a group, oldest first, changing nothing.

  KEYS[1] stream
  KEYS[2] retry        zset entry id -> retry due time, of this group on the stream
  KEYS[3] dead         the dead-letter stream
  KEYS[4] delayed      zset message id -> due time
  KEYS[5] delayed-msg  hash message id -> cmsgpack {body, headers, enqueued[, expires]}

  ARGV[1] group
  ARGV[2] section: 'ready' (unread), 'inflight' (held by a consumer), 'delayed' (delayed or retrying) or 'dead'
  ARGV[3] most messages to read

  Returns: {server time in ms, then 8 per message: entry id (a delayed message's id), 1 for a dead letter else 0,
    delivery count (0: not pending), field array {k1, v1, ...}, lease idle ms (inflight, else -1), ms until due
    (delayed, else -1), the consumer holding it (inflight, else nil), what is wrong with a malformed delayed message}]]
local group, section, limit = ARGV[1], ARGV[2], tonumber(ARGV[3])

include("includes/time", "stream/includes/delayed", "stream/includes/groups")

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

local function fields_of(stream, entry)
  local found = redis.call('XRANGE', stream, entry, entry)[1]
  return found and found[2]
end

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
          for _, p in ipairs(redis.call('XPENDING', source, group, '-', '+', math.min(1000, tonumber(owner[2])),
              owner[1])) do
            held[#held + 1] = {dead = source == KEYS[3], entry = p[1], owner = p[2], idle = p[3], deliveries = p[4]}
          end
        end
      end
    end
  end
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
