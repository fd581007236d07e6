--[[
  types: require_type(key, kind) and require_types(kind, key, ...), before a script's first write: 'WRONGTYPE ...'.]]

include("includes/errors")

local function require_type(key, kind)
  local found = redis.call('TYPE', key)['ok']
  if found ~= kind and found ~= 'none' then
    fail('WRONGTYPE ' .. key .. ' holds a ' .. found .. ', not a ' .. kind)
  end
end

local function require_types(kind, ...)
  for _, key in ipairs({...}) do
    require_type(key, kind)
  end
end
