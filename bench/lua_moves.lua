-- bench/lua_moves.lua - perft written in Lua that builds the move objects
-- at every ply (b:moves at every node, the last ply included), the way a
-- bot's search uses the API; prints move objects made per second. Beside
-- bench/lua_perft.lua, which counts the last ply with b:count.
-- usage: cheskers bench/lua_moves.lua [DEPTH]
local cheskers = require "cheskers"

local b = cheskers.new()
local moves, play, undo = b.moves, b.play, b.undo

-- Returns the leaves and the move objects made below the position.
local function perft(depth)
  local list = moves(b)
  local made = #list
  if depth == 1 then return made, made end
  local leaves = 0
  for i = 1, #list do
    play(b, list[i])
    local l, m = perft(depth - 1)
    undo(b)
    leaves, made = leaves + l, made + m
  end
  return leaves, made
end

local depth = tonumber(arg and arg[1]) or 6
local t0 = os.clock()
local leaves, made = perft(depth)
local s = os.clock() - t0
print(string.format("lua moves %d: %d leaves, %d move objects in %.3f s, %.1f Mnps",
  depth, leaves, made, s, made / s / 1e6))
