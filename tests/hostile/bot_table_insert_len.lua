-- table.insert at the front of a table whose __len is huge
return { choose = function()
  local t = setmetatable({}, { __len = function() return math.maxinteger - 1 end })
  table.insert(t, 1, "x")
end }
