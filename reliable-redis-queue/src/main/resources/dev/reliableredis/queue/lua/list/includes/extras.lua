--[[
  list/includes/extras: a message's fixed options, its field of the extras hash, for the list scripts.
  Value: "expiresAt|level|groupId", a field only for a message sent with a time to live, a priority other than
    DEFAULT_LEVEL or a group; expiresAt '' for none, level '' for DEFAULT_LEVEL, groupId last ('' for none)]]

local DEFAULT_LEVEL = 4

local function extras_value(expires_at, level, gid)
  if expires_at == '' and level == DEFAULT_LEVEL and gid == '' then
    return nil
  end
  return expires_at .. '|' .. (level == DEFAULT_LEVEL and '' or string.format('%d', level)) .. '|' .. gid
end

-- expiresAt (nil: none), level and group id (false: none) of a field's value (false: no field)
local function parse_extras(value)
  local ends, level, gid = string.match(value or '', '^(%d*)|(%d?)|(.*)$')
  if not ends then
    return nil, DEFAULT_LEVEL, false
  end
  return tonumber(ends), tonumber(level) or DEFAULT_LEVEL, gid ~= '' and gid
end

local extras_exist = {}

local function extras_of(extras, ids)
  if #ids == 0 then
    return {}
  end
  if extras_exist[extras] == nil then
    extras_exist[extras] = redis.call('EXISTS', extras) == 1
  end
  if not extras_exist[extras] then
    return {}
  end
  return redis.call('HMGET', extras, unpack(ids))
end
