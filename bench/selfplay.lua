-- bench/selfplay.lua - self-play throughput of rule experiments (issue 15):
-- games per CPU second of engine:level=3 self-play through
-- cheskers.selfplay.play_game (no file output), and the cost of recording
-- the evaluation trace. Modes run interleaved, so that a busy machine
-- slows them alike.
-- usage: cheskers bench/selfplay.lua GAMES [MODE...]   MODE: none, eval, depth2
-- prints one line per mode: "MODE: G games in S s cpu: R games/s"
local experiment = require "cheskers.experiment"
local selfplay = require "cheskers.selfplay"

local games = math.tointeger(tonumber(arg[1] or "40")) or 40
local modes = { table.unpack(arg, 2) }
if #modes == 0 then modes = { "none", "eval", "depth2" } end
local TRACE = { none = false, eval = "eval", depth2 = { depth = 2 } }

local exps = {}
for _, mode in ipairs(modes) do
  if TRACE[mode] == nil then error("unknown mode " .. mode .. " (none, eval, depth2)", 0) end
  local e = experiment.normalize({ name = "selfplay", games = games, bots = "engine:level=3",
    random_plies = 4, trace = TRACE[mode], variants = { { name = "golomb" } } }, "selfplay")
  exps[mode] = selfplay.prepare(e)
end

local spent, plies = {}, {}
for _, mode in ipairs(modes) do spent[mode], plies[mode] = 0, 0 end
for g = 1, games do
  for _, mode in ipairs(modes) do
    local e = exps[mode]
    local c0 = os.clock()
    local rec = selfplay.play_game(e, e.variants[1], g, 1)
    spent[mode] = spent[mode] + os.clock() - c0
    plies[mode] = plies[mode] + rec.plies
  end
end
for _, mode in ipairs(modes) do
  print(("%s: %d games (%d plies) in %.2f s cpu: %.1f games/s"):format(mode, games, plies[mode],
        spent[mode], games / spent[mode]))
end
