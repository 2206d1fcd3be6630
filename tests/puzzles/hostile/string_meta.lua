-- Hostile: string metatable tricks. Reaches the string library through a
-- string value's metatable and tries to poison it for the host afterwards.
local lib = ("").rep and ("x").format
local mt = ("").__index
mt.rep = function() return "poisoned" end
return { fen = ("x"):rep(4), moves = 1 }
