-- cheskers match BOT_A BOT_B [options]: bot against bot (cheskers.match).
-- This file owns the command line: options (argparse, whose help is the
-- only usage text), the console progress and fault lines.
local argparse = require "argparse"

local DESCRIPTION = [[
Plays N games (default 10) between two bots, colours alternating, each pair
of games from the same opening: K random plies (default 4, chosen from the
seed) or the lines of an openings file (a position text, or moves from the
start position, per line). A game ends by the rules, or is adjudicated a
draw after --max-plies plies (default 400) or at the --repetition-th
occurrence of a position (default 3; 0: off). A bot that raises an error,
returns no move or an illegal one, or overruns its time loses the game;
the reason is shown and recorded, and the match goes on.

A bot is a name from scripts/bots/ (random, greedy, alphabeta, mcts,
engine), builtin-random, builtin-greedy, or a Lua file, with options after
a colon: engine:level=5  engine:nodes=50000  alphabeta:depth=3  my/bot.lua]]

local EPILOG = [[
Prints a progress line as games end and a final table: wins, draws, losses,
score, the Elo difference with its 95% interval. Exit status 0, or 1 on a
usage error.]]

local function parser()
  local p = argparse("cheskers match", DESCRIPTION, EPILOG)
  p:add_help(false)
  p:argument("BOT_A", "first bot"):target("a")
  p:argument("BOT_B", "second bot"):target("b")
  p:option("--games -n", "games to play", "10"):convert(math.tointeger)
  require("cheskers.match").add_game_options(p)
  p:option("--out", "results file (JSON lines: a header, then one line per game as it ends; "
           .. "its folder is created)")
  p:option("--records", "game records file (the REPL's format), kept in step with --out")
  p:option("--sprt", "ELO0,ELO1: stop when a sequential test decides (alpha = beta = 0.05)")
  p:flag("--resume", "continue the match recorded in --out (refused if bots, seed, rules... differ)")
  p:flag("--steal-lock", "take over the lock of --out even when its owner looks alive (a run on "
         .. "another machine that is gone; a dead process here or an ended Slurm job is taken over anyway)")
  p:flag("--quiet -q", "no progress line")
  p:flag("-h --help", "this help")
  return p
end

local function fail(msg)
  io.stderr:write("cheskers match: ", msg, "\n")
  return 1
end

-- The options as a match configuration, or nil, message.
local function config(o, match)
  local cfg = { a = o.a, b = o.b, out = o.out, records = o.records, resume = o.resume, steal_lock = o.steal_lock }
  if o.resume and not o.out then return nil, "--resume needs --out FILE" end
  local ok, err = match.game_options(o, cfg)
  if not ok then return nil, err end
  if o.sprt then
    local e0, e1 = o.sprt:match("^%s*(%-?[%d.]+)%s*,%s*(%-?[%d.]+)%s*$")
    if not e0 then return nil, ("--sprt takes ELO0,ELO1 (e.g. 0,50), not '%s'"):format(o.sprt) end
    cfg.sprt = { elo0 = tonumber(e0), elo1 = tonumber(e1) }
  end
  return cfg
end

local function progress_printer(match)
  local tty = require("cheskers").isatty(io.stderr)
  local shown = false
  local function progress(sum, r)
    local fault = match.fault_text(r)
    if fault then io.stderr:write(shown and tty and "\r\27[K" or "", fault, "\n") end
    local line = match.progress_line(sum, r)
    if tty then io.stderr:write("\r\27[K", line) else io.stderr:write(line, "\n") end
    shown = true
    io.stderr:flush()
  end
  return progress, function() if tty and shown then io.stderr:write("\n") end end
end

local function run(args)
  local p = parser()
  if require("cheskers.cli").wants_help(args) then io.stdout:write(p:get_help(), "\n") return 0 end
  local o = require("cheskers.cli").parse_args(p, args)
  local match = require "cheskers.match"
  local cfg, err = config(o, match)
  if not cfg then return fail(err) end
  local finish = function() end
  if o.quiet then
    cfg.progress = function(_, r)
      local fault = match.fault_text(r)
      if fault then io.stderr:write(fault, "\n") end
    end
  else
    cfg.progress, finish = progress_printer(match)
    cfg.log = function(msg) io.stderr:write(msg, "\n") end
  end
  local okr, sum = pcall(match.run, cfg)
  finish()
  if not okr then
    if type(sum) == "string" then return fail(sum) end
    error(sum, 0)
  end
  print(match.table(sum))
  return 0
end

return {
  summary = "play bots against each other: results, Elo, SPRT",
  usage = parser():get_help(),
  run = run,
  main = run,
}
