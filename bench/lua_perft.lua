-- bench/lua_perft.lua - perft written in Lua on the public module API
-- (b:moves, b:play, b:undo; the last ply counted with b:count), for the
-- benchmark that compares it with the C perft.
-- usage: cheskers bench/lua_perft.lua [DEPTH]
local cheskers = require "cheskers"

local function perft(b, depth)
  if depth == 1 then return b:count() end
  local n = 0
  for _, m in ipairs(b:moves()) do
    b:play(m)
    n = n + perft(b, depth - 1)
    b:undo()
  end
  return n
end

local depth = tonumber(arg and arg[1]) or 7
local b = cheskers.new()
local t0 = os.clock()
local n = perft(b, depth)
local s = os.clock() - t0
print(string.format("lua perft %d: %d nodes in %.3f s, %.1f Mnps", depth, n, s, n / s / 1e6))
