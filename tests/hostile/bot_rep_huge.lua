-- a string of 10^15 bytes
return { choose = function() return ("ab"):rep(1e15) end }
