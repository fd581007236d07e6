--[[
  stream/stats: one consistent snapshot of a stream queue's counts, for one group.

  KEYS[1] stream
  KEYS[2] retry        zset entry id -> retry due time, of this group on the stream
  KEYS[3] dead         the dead-letter stream
  KEYS[4] dead-retry   zset entry id -> retry due time, of this group on the dead-letter stream
  KEYS[5] delayed      zset message id -> due time
  KEYS[6] paused       exists while the queue is paused
  KEYS[7] capped       exists while the group is at its maxInflight
  KEYS[8] limited      exists while the rate limit holds the group's claims back

  ARGV[1] group
  ARGV[2] most entries to count when neither Redis nor the stream's shape tells the lag
  ARGV[3] 'all-groups' or 'never': whether acked entries are deleted (deleteAfterAck)
  ARGV[4] most pending entries of each consumer to look at for oldestInflight

  Returns: {ready, inflight, delayed, dead, oldest, oldestReady, oldestInflight, paused, capped, limited}: the unread
    entries and due retries; entries being processed (dead letters too); delayed messages and retries not due; dead
    letters not being consumed; the ages in ms (0: none) of the oldest pending entry, of the first unread entry and
    of the longest idle lease among ARGV[4] per consumer; 1 while KEYS[6], KEYS[7], KEYS[8] exist, else 0]]
local group = ARGV[1]

include("includes/time", "stream/includes/groups")

local now = now_ms()

local stream_info
local function stream_field(stream, name)
  if not stream_info then
    stream_info = {}
    local info = redis.call('XINFO', 'STREAM', stream)
    for i = 1, #info, 2 do
      stream_info[info[i]] = info[i + 1]
    end
  end
  return stream_info[name]
end

local function deleted_after(stream, last)
  local maxDeleted = stream_field(stream, 'max-deleted-entry-id')
  return not maxDeleted or after(maxDeleted, last)
end

local function only_pending_before(stream, info)
  if #groups_of(stream) ~= 1 or ARGV[3] ~= 'all-groups' then
    return false
  end
  local first = stream_field(stream, 'first-entry')
  if not first then
    return true
  end
  if not after(first[1], info['last-delivered-id'])
      and #redis.call('XPENDING', stream, group, first[1], first[1], 1) == 0 then
    return false
  end
  return info['pending'] == 0 or not after(first[1], redis.call('XPENDING', stream, group)[2])
end

local ready, inflight, oldest, oldestInflight = 0, 0, 0, 0
local info = group_info(KEYS[1], group)
if info then
  local lag = info['lag']
  if lag and (deleted_after(KEYS[1], info['last-delivered-id']) or lag > redis.call('XLEN', KEYS[1])) then
    lag = nil
  end
  if not lag and only_pending_before(KEYS[1], info) then
    lag = math.max(0, redis.call('XLEN', KEYS[1]) - info['pending'])
  end
  if not lag then
    lag = #redis.call('XRANGE', KEYS[1], '(' .. info['last-delivered-id'], '+', 'COUNT', tonumber(ARGV[2]))
  end
  ready = lag
  inflight = info['pending']
  if info['pending'] > 0 then
    local first = redis.call('XPENDING', KEYS[1], group)[2]
    oldest = math.max(0, now - tonumber(string.match(first, '^(%d+)-')))
    for _, owner in ipairs(redis.call('XPENDING', KEYS[1], group)[4] or {}) do
      if owner[1] ~= RETRY_CONSUMER then
        for _, p in ipairs(redis.call('XPENDING', KEYS[1], group, '-', '+', tonumber(ARGV[4]), owner[1])) do
          oldestInflight = math.max(oldestInflight, p[3])
        end
      end
    end
  end
else
  ready = redis.call('XLEN', KEYS[1])
end

local oldestReady = 0
if ready > 0 then
  local unread = redis.call('XRANGE', KEYS[1], info and '(' .. info['last-delivered-id'] or '-', '+', 'COUNT', 1)[1]
  if unread then
    oldestReady = math.max(0, now - (ms_seq(unread[1])))
  end
end

local waiting = redis.call('ZCARD', KEYS[2])
local due = redis.call('ZCOUNT', KEYS[2], '-inf', now)
ready = ready + due
inflight = inflight - waiting

local dead = redis.call('XLEN', KEYS[3])
local deadInfo = group_info(KEYS[3], group)
if deadInfo then
  local deadWaiting = redis.call('ZCARD', KEYS[4])
  dead = dead - deadInfo['pending'] + deadWaiting
  inflight = inflight + deadInfo['pending'] - deadWaiting
end

local delayed = redis.call('ZCARD', KEYS[5]) + waiting - due
return {ready, inflight, delayed, dead, oldest, oldestReady, oldestInflight, redis.call('EXISTS', KEYS[6]),
        redis.call('EXISTS', KEYS[7]), redis.call('EXISTS', KEYS[8])}
