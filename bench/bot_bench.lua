-- bench/bot_bench.lua - the speed of a bot written in Lua beside the C
-- search, in one run: the bot (scripts/bots/alphabeta.lua unless a path is
-- given) and b:search search the same positions;
-- prints both speeds and their ratio (issue 13: the Lua bot should reach
-- 0.05 of the C search's nodes/s). The bot counts its nodes in bot.last_nodes
-- when it can; else the budget is taken as spent.
-- The C search gets C_NODES a position (default 500000): a short search
-- spends much of its time clearing its tables, so its rate is taken where
-- it is steady (the higher figure, the harder ratio).
-- usage: cheskers bench/bot_bench.lua [BOT.lua [NODES [C_NODES]]]
local cheskers = require "cheskers"

local path = arg and arg[1] or "scripts/bots/alphabeta.lua"
local budget = tonumber(arg and arg[2]) or 20000
local c_budget = tonumber(arg and arg[3]) or 500000

-- Positions from a game: the start, then every 8 plies of a fixed line
-- (the move at a place that changes with the ply).
local function positions()
  local list, b = {}, cheskers.new()
  for ply = 0, 40 do
    local moves = b:moves()
    if #moves == 0 then break end
    if ply % 8 == 0 then list[#list + 1] = b:fen() end
    b:play(moves[ply % #moves + 1])
  end
  return list
end

local function run_bot(fens)
  local bot = dofile(path)
  local nodes, t = 0, 0
  for _, fen in ipairs(fens) do
    local b = cheskers.new(fen)
    bot.last_nodes = nil
    local t0 = os.clock()
    bot.choose(b, { nodes = budget })
    t = t + os.clock() - t0
    nodes = nodes + (bot.last_nodes or budget)
  end
  return nodes, t
end

local function run_c(fens)
  local nodes, t = 0, 0
  for _, fen in ipairs(fens) do
    local b = cheskers.new(fen)
    local t0 = os.clock()
    local r = b:search { nodes = c_budget }
    t = t + os.clock() - t0
    nodes = nodes + r.nodes
  end
  return nodes, t
end

local fens = positions()
local ln, lt = run_bot(fens)
local cn, ct = run_c(fens)
print(string.format("Lua bot %s: %d nodes in %.3f s, %.0f knps", path, ln, lt, ln / lt / 1e3))
print(string.format("C search: %d nodes in %.3f s, %.0f knps", cn, ct, cn / ct / 1e3))
print(string.format("Lua bot / C search nodes/s: %.3f", (ln / lt) / (cn / ct)))
