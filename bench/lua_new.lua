-- bench/lua_new.lua - what a board costs: the memory of N boards kept alive
-- (made by cheskers.new(fen) with the default rules, then copies that each
-- played a move: their history), as the growth of the
-- process's resident memory (/proc/self/statm: the Lua heap and the C
-- allocations) and of the Lua heap alone (collectgarbage "count"); then
-- cheskers.new(fen) calls a second (CPU time; the boards are dropped as they
-- are made, so the collector's work is counted), with the default rules and
-- with a rules table. Runs on older builds too (no method newer than
-- cheskers.new), so that two builds can be compared side by side.
-- usage: cheskers bench/lua_new.lua [CALLS [BOARDS]]
local cheskers = require "cheskers"

local calls = tonumber(arg and arg[1]) or 1000000
local boards = tonumber(arg and arg[2]) or 20000
-- W: Kg1 Pc3 Pe3; B: kb8 pd6 pf6: a position that is not the start
local FEN = "1k6/8/3p1p2/8/8/2P1P3/8/6K1 w 0 1"

local function full_collect()
  collectgarbage("collect")
  collectgarbage("collect")
end

-- resident bytes of this process, nil where /proc is not there
local function rss()
  local f = io.open("/proc/self/statm")
  if not f then return nil end
  local _, pages = f:read("n", "n")
  f:close()
  return pages and pages * 4096
end

-- prints the memory a live board of those make() makes costs; returns them
-- (kept alive, so that the next measure does not reuse their memory)
local function memory(what, make)
  full_collect()
  local rss0, lua0 = rss(), collectgarbage("count")
  local keep = {}
  for i = 1, boards do keep[i] = make() end
  full_collect()
  local rss1, lua1 = rss(), collectgarbage("count")
  print(string.format("memory a live board, %s (%d boards): %s bytes resident, %.0f bytes Lua heap",
                      what, #keep, rss0 and string.format("%.0f", (rss1 - rss0) / boards) or "?",
                      (lua1 - lua0) * 1024 / boards))
  return keep
end

local new = cheskers.new
do      -- both sets of boards alive at once; gone at the end of the block
  local made = memory("cheskers.new(fen)", function() return new(FEN) end)
  local root = new(FEN)
  local first = root:moves()[1]
  local copies = memory("a copy that played a move", function()
    local b = root:copy()
    b:play(first)
    return b
  end)
  assert(#made == boards and #copies == boards)
end
full_collect()

local function rate(what, f)
  local t0 = os.clock()
  for _ = 1, calls do f() end
  local s = os.clock() - t0
  print(string.format("%s: %.3f M/s", what, calls / s / 1e6))
end
rate("cheskers.new(fen)", function() return new(FEN) end)
local spec = { majority = false }
rate("cheskers.new(fen, {majority = false})", function() return new(FEN, spec) end)
