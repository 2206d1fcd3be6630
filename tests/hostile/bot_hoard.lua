-- keeps 40 MB more per call, for ever
local kept = {}
return { choose = function()
  kept[#kept + 1] = ("x"):rep(40 * 2^20 - #kept)
  return #kept
end }
