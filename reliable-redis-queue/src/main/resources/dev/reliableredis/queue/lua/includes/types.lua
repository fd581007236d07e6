--[[
  types: require_type(key, kind), run before a script's first write: 'WRONGTYPE <key> holds a <type>, not a <kind>'.]]

include "includes/errors"

local function require_type(key, kind)
  local found = redis.call('TYPE', key)['ok']
  if found ~= kind and found ~= 'none' then
    fail('WRONGTYPE ' .. key .. ' holds a ' .. found .. ', not a ' .. kind)
  end
end
