-- cheskers match BOT_A BOT_B [options]: bot against bot (cheskers.match).
local argparse = require "argparse"

local usage = [[
usage: cheskers match BOT_A BOT_B [--games N] [--rules SPEC] [--seed S]
                      [--nodes N | --time T] [--openings FILE | --opening-plies K]
                      [--max-plies N] [--repetition N] [--out FILE] [--records FILE]
                      [--resume] [--sprt ELO0,ELO1] [--move-timeout T] [--sandbox]
                      [--quiet]

Plays N games (default 10) between two bots, colours alternating, each pair
of games from the same opening: K random plies (default 4, chosen from the
seed) or the lines of an openings file (a position text, or moves from the
start position, per line). A game ends by the rules, or is adjudicated a
draw after --max-plies plies (default 400) or at the --repetition-th
occurrence of a position (default 3; 0: off). A bot that raises an error,
returns no move or an illegal one, or overruns its time loses the game;
the reason is recorded and the match goes on.

A bot is a name from scripts/bots/ (random, greedy, alphabeta, mcts,
engine) or a Lua file, with options after a colon:
  engine:level=5   engine:nodes=50000   alphabeta:depth=3   my/bot.lua

  --nodes N        node budget per move (handed to the bots in limits.nodes)
  --time T         seconds per move (limits.time); a move taking more than
                   3T + 1 CPU seconds (or --move-timeout) loses the game
  --out FILE       JSON lines: a header, then one line per game as it ends
  --records FILE   the game records (the REPL's format), one after another
  --resume         continue the match recorded in --out (same bots, seed, rules)
  --sprt E0,E1     stop early when a sequential test decides between Elo
                   E0 and E1 (alpha = beta = 0.05)
  --sandbox        load the bot files in a sandbox: no io, os (but os.clock,
                   os.time), require (but "cheskers"), package, load, debug,
                   string patterns; each call into a bot runs under an
                   instruction budget and a memory cap. A bot that breaks
                   these loses the game (reason error, detail "sandbox: ...")
  --quiet          no progress line

Prints a progress line as games end and a final table: wins, draws, losses,
score, the Elo difference with its 95% interval. Exit status 0, or 1 on a
usage error.]]

local function parser()
  local p = argparse("cheskers match", "Bot against bot.")
  p:add_help(false)
  p:argument("BOT_A", "first bot"):target("a")
  p:argument("BOT_B", "second bot"):target("b")
  p:option("--games -n", "games", "10"):convert(math.tointeger)
  p:option("--rules", "rule spec")
  p:option("--seed", "seed", "1"):convert(math.tointeger)
  p:option("--nodes", "nodes per move"):convert(math.tointeger)
  p:option("--time", "seconds per move"):convert(tonumber)
  p:option("--openings", "openings file")
  p:option("--opening-plies", "random opening plies", "4"):convert(math.tointeger)
  p:option("--max-plies", "adjudication", "400"):convert(math.tointeger)
  p:option("--repetition", "adjudication", "3"):convert(math.tointeger)
  p:option("--out", "results file (JSON lines)")
  p:option("--records", "game records file")
  p:option("--sprt", "elo0,elo1")
  p:option("--move-timeout", "seconds"):convert(tonumber)
  p:flag("--resume")
  p:flag("--sandbox")
  p:flag("--quiet -q")
  p:flag("-h --help")
  return p
end

local function fail(msg)
  io.stderr:write("cheskers match: ", msg, "\n")
  return 1
end

local function run(args)
  local p = parser()
  for _, a in ipairs(args) do
    if a == "-h" or a == "--help" then print(usage) return 0 end
  end
  local ok, o = p:pparse(args)
  if not ok then return fail(o .. "\n" .. usage:match("^(.-)\n\n")) end
  local match = require "cheskers.match"
  local cfg = {
    a = o.a, b = o.b, games = o.games, seed = o.seed, nodes = o.nodes, time = o.time,
    opening_plies = o.opening_plies, max_plies = o.max_plies, repetition = o.repetition,
    out = o.out, records = o.records, resume = o.resume, move_timeout = o.move_timeout,
    sandbox = o.sandbox,
  }
  if not cfg.games or cfg.games < 1 then return fail("--games must be a positive integer") end
  if o.nodes ~= nil and (not cfg.nodes or cfg.nodes < 1) then return fail("--nodes must be a positive integer") end
  if o.time ~= nil and (not cfg.time or cfg.time <= 0) then return fail("--time must be a positive number") end
  if o.resume and not o.out then return fail("--resume needs --out FILE") end
  if o.rules then
    local rulespec = require "cheskers.rulespec"
    local rules, err = rulespec.parse(o.rules)
    if not rules then return fail(err) end
    cfg.rules = rules
    cfg.rules_text = o.rules
    local cheskers = require "cheskers"
    local okr, rerr = pcall(cheskers.rules, rules)
    if not okr then return fail(tostring(rerr)) end
  end
  if o.openings then
    local list, err = match.read_openings(o.openings)
    if not list then return fail(err) end
    cfg.openings, cfg.openings_file = list, o.openings
  end
  if o.sprt then
    local e0, e1 = o.sprt:match("^%s*(%-?[%d.]+)%s*,%s*(%-?[%d.]+)%s*$")
    if not e0 then return fail("--sprt takes ELO0,ELO1 (e.g. 0,50)") end
    cfg.sprt = { elo0 = tonumber(e0), elo1 = tonumber(e1) }
  end
  local okrl, rl = pcall(require, "cheskers.readline")
  local tty = okrl and rl.isatty(2)
  if not o.quiet then
    cfg.progress = function(sum, r)
      local line = match.progress_line(sum, r)
      if tty then io.stderr:write("\r\27[K", line) else io.stderr:write(line, "\n") end
      io.stderr:flush()
    end
    cfg.log = function(msg) io.stderr:write(msg, "\n") end
  end
  local sum = match.run(cfg)
  if tty and not o.quiet then io.stderr:write("\n") end
  print(match.table(sum))
  return 0
end

return {
  summary = "play bots against each other: results, Elo, SPRT",
  usage = usage,
  run = run,
  main = run,
}
