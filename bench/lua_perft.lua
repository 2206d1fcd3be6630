-- bench/lua_perft.lua - perft written in Lua on the public module API
-- (b:moves, b:play, b:undo; the last ply counted with b:count), for the
-- benchmark that compares it with the C perft. The methods are kept in
-- locals, the usual Lua idiom for a hot loop.
-- usage: cheskers bench/lua_perft.lua [DEPTH]
local cheskers = require "cheskers"

local b = cheskers.new()
local moves, play, undo, count = b.moves, b.play, b.undo, b.count

local function perft(depth)
  if depth == 1 then return count(b) end
  local n, list = 0, moves(b)
  if depth == 2 then            -- the last ply counted without a call per move
    for i = 1, #list do
      play(b, list[i])
      n = n + count(b)
      undo(b)
    end
    return n
  end
  for i = 1, #list do
    play(b, list[i])
    n = n + perft(depth - 1)
    undo(b)
  end
  return n
end

local depth = tonumber(arg and arg[1]) or 7
local t0 = os.clock()
local n = perft(depth)
local s = os.clock() - t0
print(string.format("lua perft %d: %d nodes in %.3f s, %.1f Mnps", depth, n, s, n / s / 1e6))
