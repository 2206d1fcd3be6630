-- cheskers match BOT_A BOT_B [options]: bot against bot (cheskers.match).
-- This file owns the command line: options (argparse, whose help is the
-- only usage text), the console progress and fault lines.

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
score, the Elo difference with its 95% interval; when an error stops the
match, the table of the games played so far first. Names the bots chose are
shown escaped (\n, \x1b). Exit status 0, or 1 on an error.]]

local function parser()
  local cli = require "cheskers.cli"
  local p = cli.parser("cheskers match", DESCRIPTION, EPILOG)
  p:argument("BOT_A", "first bot"):target("a")
  p:argument("BOT_B", "second bot"):target("b")
  require("cheskers.cli").number(p, "--games -n", "games to play", "10")
  require("cheskers.cli").game_options(p)
  p:option("--out", "results file (JSON lines: a header, then one line per game as it ends; "
           .. "its folder is created); run again, it keeps its games and plays the rest"):convert(cli.path)
  p:option("--records", "game records file (the REPL's format), kept in step with --out"):convert(cli.path)
  p:option("--sprt", "ELO0,ELO1: stop when a sequential test decides (alpha = beta = 0.05)")
  require("cheskers.cli").add_run_options(p, "the games --out holds")
  p:flag("--resume", "continue the match recorded in --out (what a rerun does anyway: its games are "
         .. "kept, and a file of another match, other bots, seed, rules..., is refused)")
  p:flag("--quiet -q", "no progress line")
  return p
end

local fail = require("cheskers.cli").failure("match")

-- The options as a match configuration, or nil, message.
local function config(o, match)
  local cfg = { a = o.a, b = o.b, out = o.out, records = o.records, restart = o.restart, steal_lock = o.steal_lock }
  if o.resume and not o.out then return nil, "--resume needs --out FILE" end
  if o.restart and not o.out then return nil, "--restart needs --out FILE" end
  if o.restart and o.resume then return nil, "--restart and --resume contradict each other: give one" end
  local ok, err = match.game_options(o, cfg)
  if not ok then return nil, err end
  if o.sprt then
    local e0, e1 = require("cheskers.numbers").pair((o.sprt:gsub("%s", "")), ",", "--sprt", "--sprt")
    if not e0 then return nil, e1 .. " (ELO0,ELO1, e.g. 0,50)" end
    -- (equal: every LLR is 0 and nothing is ever decided; reversed: H0 and H1 swap)
    if e0 >= e1 then return nil, ("--sprt: ELO0 must be below ELO1, not %s"):format(o.sprt) end
    cfg.sprt = { elo0 = e0, elo1 = e1 }
  end
  return cfg
end

local function progress_printer(match)
  local show, done = require("cheskers.cli").progress()
  return function(sum, r) show(match.progress_line(sum, r), match.fault_text(r)) end, done
end

-- Prints the final table (after partial = the games played when the match
-- stopped). Games played are never lost with a table that cannot be made:
-- then the counts are printed bare, and the error after them.
local function print_table(match, sum, partial)
  if partial then print(("after %d of %d games:"):format(sum.played, sum.games)) end
  local ok, text = pcall(match.table, sum)
  if ok then print(text) return true end
  local console = require("cheskers.escape").console
  print(("%s +%d =%d -%d %s"):format(console(sum.a), sum.wins, sum.draws, sum.losses, console(sum.b)))
  fail("cannot make the table: " .. tostring(text))
  return false
end

local function run(args)
  local p = parser()
  local o = require("cheskers.cli").parse_args(p, args)
  if not o then return 0 end
  local match = require "cheskers.match"
  local cfg, err = config(o, match)
  if not cfg then return fail(err) end
  local progress, finish
  if o.quiet then
    progress = function(_, r)
      local fault = match.fault_text(r)
      if fault then io.stderr:write(fault, "\n") end
    end
    finish = function() end
  else
    progress, finish = progress_printer(match)
    cfg.log = function(msg) io.stderr:write(msg, "\n") end
  end
  local so_far      -- the summary of the games played, should the match stop
  cfg.progress = function(sum, r) so_far = sum; progress(sum, r) end
  local okr, sum = pcall(match.run, cfg)
  finish()
  if not okr then
    if so_far and so_far.played > 0 then print_table(match, so_far, true) end
    if type(sum) == "string" then return fail(sum) end
    error(sum, 0)
  end
  return print_table(match, sum) and 0 or 1
end

return {
  summary = "play bots against each other: results, Elo, SPRT",
  usage = parser():get_help(),
  run = run,
}
