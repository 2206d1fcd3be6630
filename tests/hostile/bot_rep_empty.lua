-- string.rep of the empty string a huge number of times: a C loop that
-- allocates nothing
return { choose = function()
  local s = string.rep("", math.maxinteger)
  local t = (""):rep(1e15)
  return "x" .. s .. t
end }
