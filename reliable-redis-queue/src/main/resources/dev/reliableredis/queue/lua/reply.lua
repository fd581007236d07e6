--[[
  reply: answers a request whose settlement could not carry its reply: one that was dead-lettered, or acked by a
  shard in another Redis Cluster slot than its requester's inbox. One script for both modes.

  KEYS[1] inbox    list of replies to one requester (see includes/reply)

  ARGV[1] the reply
  ARGV[2] how long the inbox is kept after it, in ms

  Returns 1. Fails with an error, writing nothing, when the inbox is not a list.
]]
--- @include "includes/reply"

reply_check(KEYS[1])
reply_write(KEYS[1], ARGV[1], tonumber(ARGV[2]))
return 1
