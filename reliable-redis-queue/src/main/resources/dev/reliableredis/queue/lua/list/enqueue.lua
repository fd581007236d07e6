--[[
  list/enqueue: stores a batch of messages and makes each ready (or delayed), idempotently on its id.

  KEYS[1] ready     list of ids, consumed from the head
  KEYS[2] delayed   zset id -> due time
  KEYS[3] messages  hash id -> "enqueuedAt|payload"
  KEYS[4] acked     zset id -> time until which the acked id is remembered
  KEYS[5] wake      list of wake-up tokens for idle consumers
  KEYS[6] extras    hash id -> "expiresAt|level|groupId" of a message sent with any of them
  KEYS[7] prioritized  zset id -> level and place of a ready message with a priority
  KEYS[8] seq       counter the places in a level's line, and in a group's, are drawn from
  KEYS[9] groups    hash group id -> id of its current message
  KEYS[10] grouped  zset of the groups' lines
  KEYS[11] meta     hash of the queue's own settings with its shard count marker; read only for a count in ARGV[1]

  ARGV[1] the endpoint's shard count, checked against KEYS[11]'s marker; '' for no check
  ARGV[3k-1] id of the k-th message
  ARGV[3k]   its payload, "<length of the headers JSON>|<headers JSON><body>"
  ARGV[3k+1] its options: its delay in ms alone, or 'delay|ttl|level|group id' (ttl in ms, 0: none; level 0-9)
  ARGV[#ARGV] the deadline, server time in ms; '' for none

  Returns: one code per message, in order:
    1 stored
    0 a no-op: the id is already queued, delayed, in flight, dead, acked within the window, or earlier in the batch
  Errors: 'DEADLINE the call ran <n> ms after its deadline ...' when Redis runs it late, before any read
    'SHARDS <recorded> <resharding to, or 0> <count> <meta>' when KEYS[11]'s marker does not match ARGV[1]
    'ERR enqueue of <n> in one call; at most 1000', or 'ERR enqueue: ...' for malformed options, a priority not
      0 to 9, a needed key not passed, or a message with a group id and a delay or a priority; all before any write]]
include("list/includes/enqueue_steps", "includes/limits", "includes/shards", "includes/time")

local first, last = 2, #ARGV - 1
local now = now_before(ARGV[#ARGV])
require_shards(KEYS[11], ARGV[1])
require_batch((last - first + 1) / ENQUEUE_STRIDE, 'enqueue')
local plan = enqueue_plan(KEYS, ARGV, first, last, now)
enqueue_write(KEYS, plan)
return plan.codes
