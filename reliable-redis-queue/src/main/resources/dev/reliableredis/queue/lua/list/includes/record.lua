--[[
  list/includes/record: for list/claim.lua, whether a messages-hash record has its shape,
  "enqueuedAt|headersLength|<headers JSON><body>", or was written malformed by something else.]]

-- a part of a record as a failure shows it, cut short: a record can be megabytes
local function record_part(part)
  if #part > 20 then
    part = string.sub(part, 1, 20) .. '...'
  end
  return "'" .. part .. "'"
end

-- nil when the record has its shape; else what is wrong with it, "malformed record: ..."
local function record_problem(record)
  local time, length, start = string.match(record, '^(%d+)|(%d+)|()')
  if time and #time <= 18 and tonumber(length) <= #record - start + 1 then
    return nil
  end
  local first = string.find(record, '|', 1, true)
  local second = first and string.find(record, '|', first + 1, true)
  if not second then
    return 'malformed record: it does not start with enqueuedAt|headersLength|'
  end
  time = string.sub(record, 1, first - 1)
  length = string.sub(record, first + 1, second - 1)
  if not string.find(time, '^%d+$') then
    return 'malformed record: enqueuedAt ' .. record_part(time) .. ' is not a number'
  end
  if #time > 18 then
    return 'malformed record: enqueuedAt ' .. record_part(time) .. ' is out of range'
  end
  if not string.find(length, '^%d+$') then
    return 'malformed record: headers length ' .. record_part(length) .. ' is not a number'
  end
  return 'malformed record: headers length ' .. record_part(length) .. ' is more than the ' .. (#record - second)
      .. ' bytes after it'
end
