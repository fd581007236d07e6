--[[
  reply: appends a reply its settlement could not carry (dead-lettered, or another slot) to the requester's inbox.

  KEYS[1] inbox    list of replies to one requester, expiring ARGV[2] ms after the latest (includes/reply.lua)

  ARGV[1] the reply
  ARGV[2] how long the inbox is kept after it, in ms

  Returns: 1. Errors: 'WRONGTYPE <inbox> holds a <type>, not a list', before any write]]
include("includes/reply")

reply_check(KEYS[1])
reply_write(KEYS[1], ARGV[1], tonumber(ARGV[2]))
return 1
