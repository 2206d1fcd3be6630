-- comparisons of 16 MB strings: one VM instruction each
return { choose = function()
  local a = ("x"):rep(16 * 2^20) .. "a"
  local b = ("x"):rep(16 * 2^20) .. "b"
  local n = 0
  while true do if a < b and a ~= b then n = n + 1 end end
end }
