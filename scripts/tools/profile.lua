-- scripts/tools/profile.lua - a small sampling profiler for bot files.
--
--   ./cheskers scripts/tools/profile.lua BOT.lua[:opt=value,...] [MOVES] [SEED]
--
-- Plays MOVES moves (default 30) of the bot against itself from the start
-- position, seeded by SEED (default 1), and times each choose() with
-- os.clock (the hook's cost included: about 3 times the time without).
-- Meanwhile a debug.sethook count hook takes a sample every 100 Lua VM
-- instructions and charges the CPU time since the previous sample to the
-- Lua function and line running then (time in C functions such as
-- b:moves() is charged to the Lua line running at the next sample, a few
-- instructions after the call). Prints the time per move and the functions
-- and lines that took the most time.
local cheskers = require "cheskers"
local bots = require "cheskers.bots"

local spec, moves, seed = arg[1], math.tointeger(tonumber(arg[2] or "30")), math.tointeger(tonumber(arg[3] or "1"))
if not spec or not moves or not seed then
  io.stderr:write("usage: cheskers scripts/tools/profile.lua BOT.lua[:options] [MOVES] [SEED]\n")
  os.exit(1)
end

-- The bot file, run here (not in a box, so that the hook sees it).
local path, options = assert(bots.parse_spec(spec))
local chunk = assert(loadfile(path))
local bot = chunk()
if bot.configure then bot.configure(options) end

local by_fn, by_line, last = {}, {}, os.clock()
local function sample()
  local now = os.clock()
  local info = debug.getinfo(2, "Sln")
  if info then
    local fn = string.format("%s:%d (%s)", info.short_src, info.linedefined, info.name or "?")
    local line = string.format("%s:%d", info.short_src, info.currentline)
    by_fn[fn] = (by_fn[fn] or 0) + now - last
    by_line[line] = (by_line[line] or 0) + now - last
  end
  last = now
end

local function top(t, n)
  local list, total = {}, 0
  for k, v in pairs(t) do list[#list + 1] = { k, v }; total = total + v end
  table.sort(list, function(a, b) return a[2] > b[2] end)
  for i = 1, math.min(n, #list) do
    print(string.format("  %5.1f%%  %s", total > 0 and 100 * list[i][2] / total or 0, list[i][1]))
  end
end

math.randomseed(seed)
local b = cheskers.new()
local played, spent = 0, 0
while played < moves and not b:result() do
  if bot.new_game and played == 0 then bot.new_game(b:rules()) end
  local t0 = os.clock()
  last = t0
  debug.sethook(sample, "", 100)
  local m = bot.choose(b:copy(), {})
  debug.sethook()
  spent = spent + os.clock() - t0
  b:play(m)
  played = played + 1
end
print(string.format("%s: %d moves, %.3f s CPU, %.1f ms a move", bot.name or path, played, spent,
                    played > 0 and 1000 * spent / played or 0))
print("functions (share of the CPU time sampled):")
top(by_fn, 10)
print("lines:")
top(by_line, 10)
