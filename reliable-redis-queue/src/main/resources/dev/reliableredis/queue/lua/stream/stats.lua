--[[
  stream/stats: one consistent snapshot of a stream queue's counts, for one group.

  ready           entries the group has not been delivered yet (its lag where Redis knows it; else, when the
                  group is the stream's only one, acked entries are deleted and every entry up to the group's
                  position is pending, the stream's length less the pending entries; else counted, at most
                  ARGV[2]; the whole stream while the group does not exist) plus retries that are due
  inflight        pending entries being processed (of the stream, and of the dead-letter stream by this group's
                  dead-letter consumers), not counting those waiting for a retry
  delayed         delayed messages plus pending entries waiting for a retry that is not due yet
  dead            dead letters not being consumed
  oldest          age in ms of the oldest pending entry of the stream (by its entry id), 0 when none
  oldestReady     age in ms of the first entry the group has not been delivered yet (by its entry id; of the
                  whole stream while the group does not exist), 0 when none. Reads that one entry, and no other.
  oldestInflight  the longest idle time in ms (since the lease was taken or last extended) among the first
                  ARGV[4] pending entries (by entry id) of each real consumer of the group, 0 when none; entries
                  waiting for a retry and the dead-letter stream are not looked at

  KEYS[1] stream
  KEYS[2] retry        zset entry id -> retry due time, of this group on the stream
  KEYS[3] dead         the dead-letter stream
  KEYS[4] dead-retry   zset entry id -> retry due time, of this group on the dead-letter stream
  KEYS[5] delayed      zset message id -> due time
  KEYS[6] paused       exists while the queue is paused (see pause)
  KEYS[7] capped       exists while the group is at its maxInflight (see stream/includes/capacity)
  KEYS[8] limited      exists while the rate limit holds the group's claims back (see claim)

  ARGV[1] group
  ARGV[2] most entries to count when neither Redis nor the stream's shape tells the lag (counting reads whole
          entries, bodies included)
  ARGV[3] 'all-groups' or 'never': whether acked entries are deleted (deleteAfterAck)
  ARGV[4] most pending entries of each consumer to look at for oldestInflight

  Returns {ready, inflight, delayed, dead, oldest, oldestReady, oldestInflight, paused: 1 while the queue is paused,
           else 0, capped: 1 while the group is at its maxInflight, else 0, limited: 1 while its rate limit holds
           claims back, else 0}
]]
local group = ARGV[1]

--- @include "includes/time"
--- @include "stream/includes/groups"

local now = now_ms()

-- XINFO STREAM as a field map, read once (it copies the first and last entries)
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

-- Redis does not correct a group's lag for entries deleted after its last delivered id (Redis 6.2 reports neither
-- a max-deleted-entry-id nor a lag)
local function deleted_after(stream, last)
  local maxDeleted = stream_field(stream, 'max-deleted-entry-id')
  return not maxDeleted or after(maxDeleted, last)
end

-- true when every entry of the stream up to the group's position is pending in it, so that the stream's length
-- less the pending entries is what the group has not read: no history from before the group's start, no acked
-- entry kept, no pending entry trimmed away (the oldest pending entry is not before the first entry)
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
  -- count instead of trusting the lag when entries were deleted after the group's position, or trimmed
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
    -- per consumer: retries parked with the retry consumer, however many, hide no lease
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

-- the first unread entry's id tells when it was added; it is read, body included, only when there is one
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
