-- an error message of 30 MB, and then a 60 MB result
return {
  fail = function() error(("y"):rep(30 * 2^20)) end,
  choose = function() return ("z"):rep(60 * 2^20) end,
}
