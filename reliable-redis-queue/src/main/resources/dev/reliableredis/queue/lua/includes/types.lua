--[[
  Included by the scripts that move messages between keys, in both modes: a key another program broke (a value of
  the wrong type) must stop a script before its first write, not halfway, where a message would be out of one
  key and in none. Redis does not undo a script's writes when it fails.
]]

--- @include "includes/errors"

-- errors when the key exists with a type other than kind ('list', 'zset', 'hash', 'stream', 'string')
local function require_type(key, kind)
  local found = redis.call('TYPE', key)['ok']
  if found ~= kind and found ~= 'none' then
    fail('WRONGTYPE ' .. key .. ' holds a ' .. found .. ', not a ' .. kind)
  end
end
