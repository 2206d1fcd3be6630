-- table.remove on a table whose __len is huge: a C loop shifting nils
return { choose = function()
  local t = setmetatable({}, { __len = function() return math.maxinteger end })
  return table.remove(t, 1)
end }
