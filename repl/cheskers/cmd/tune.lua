-- cheskers tune --out DIR [options] | --fit DIR: fits the evaluation's
-- weights by the Texel method (cheskers.tune). This file owns the command
-- line: options (argparse, whose help is the only usage text), the
-- progress bar, the table of the fit and when it is made.
local argparse = require "argparse"

local DESCRIPTION = [[
Plays self-play games (the engine against itself at a fixed node budget,
from random openings) into DIR, then fits every weight of the evaluation
to their results: a logistic regression of each quiet position's result
(1, 1/2, 0 for the side to move) on its features (Texel's method), the
scale fixed by --anchor (pawn = 100). Writes the weights file
DIR/weights.lua (or --save FILE), which engine:weights=FILE and the
REPL's `weights FILE` load, and prints the weights with their standard
errors.

Games are stored as they end in DIR/tune.shard<I>of<N>.jsonl; the same
command again resumes (even after kill -9; more --games adds games). With
--shard I/N a run plays only games I, I+N, I+2N, ... (run the N shards
anywhere, into one DIR or folders copied together); the fit is made when
the folder holds every game, and at any time by cheskers tune --fit DIR.]]

local EPILOG = [[
Each game depends only on (seed, game number) and the inputs of the run,
so shards, resumed runs and reruns play the same games and fit the same
weights. docs/notes/engine-history.md, "Tuning the weights", has the method, the file
format and which weights the games can determine.]]

local function parser()
  local cli = require "cheskers.cli"
  local p = argparse("cheskers tune", DESCRIPTION, EPILOG)
  p:add_help(false)
  p:option("--out", "the games' folder (created): resumable, shards share it"):argname("DIR"):convert(cli.path)
  p:option("--fit", "fit the weights to the games of DIR (play nothing)"):argname("DIR"):convert(cli.path)
  require("cheskers.cli").number(p, "--games -n", "games in all (default 1000)")
  p:option("--bot", "the bot that plays both sides (default engine; engine:weights=FILE plays "
           .. "with the weights of FILE, engine:bishop=400 with one changed)"):argname("SPEC")
  require("cheskers.cli").game_options(p, { opening_plies = require("cheskers.tune").DEFAULTS.opening_plies })
  p:option("--shard", "I/N: play only the games numbered I, I+N, I+2N, ...", "1/1"):argname("I/N")
  require("cheskers.cli").add_run_options(p, "the tune files of --out")
  p:option("--anchor", "a weight that keeps the value the games were played with, which sets "
           .. "the scale (default: none, the scale of the games' own weights is kept)"):argname("WEIGHT")
  require("cheskers.cli").number(p, "--ridge", "L2 penalty on the logistic coefficients (default 1; 0: "
           .. "plain maximum likelihood)"):argname("L")
  p:option("--save", "the weights file to write (default DIR/weights.lua)"):argname("FILE"):convert(cli.path)
  p:flag("--quiet -q", "no progress on stderr")
  p:flag("-h --help", "this help")
  return p
end

local cheskers = require "cheskers"

local function clock_text(s)
  s = math.floor(s + 0.5)
  if s >= 3600 then return string.format("%d:%02d:%02d", s // 3600, s // 60 % 60, s % 60) end
  return string.format("%d:%02d", s // 60, s % 60)
end

-- The progress bar of the games on a terminal: "[####----] 12/40 games
-- 0:03 ~0:07 left"; nothing elsewhere (cli.progress). finish() ends its line.
local function game_bar(quiet)
  if quiet then return nil, function() end end
  local line, finish = require("cheskers.cli").progress { every = 0.1, terminal = true }
  local t0, first = cheskers.clock(), nil
  local function show(done, total)
    local now = cheskers.clock()
    first = first or done - 1
    local width = 30
    local filled = total > 0 and width * done // total or width
    local played, elapsed = done - first, now - t0
    local left = played > 0 and done < total and elapsed / played * (total - done)
    line(string.format("[%s%s] %d/%d games  %s%s", ("#"):rep(filled), ("-"):rep(width - filled), done, total,
      clock_text(elapsed), left and "  ~" .. clock_text(left) .. " left" or ""), nil, done >= total)
  end
  return show, finish
end

-- A one-line status on a terminal (reading games, Newton steps); nil clears it.
local function status(quiet)
  if quiet then return function() end end
  return (require("cheskers.cli").progress { terminal = true })
end

-- The table of a fit.
local function fit_text(fit, start, names, path)
  local lines = {
    string.format("fitted on %d quiet positions of %d games (bot %s, rules %s, seed %d)", fit.positions,
                  fit.games, fit.bot, fit.rules, fit.seed),
    string.format("mean logistic loss %.4f (the games' own weights, with their best scale: %.4f); "
                  .. "K = %.5f a centipawn", fit.loss, fit.start_loss, fit.scale),
    string.format("%-15s %8s %8s   %s", "weight", "played", "fitted", "standard error"),
  }
  for _, n in ipairs(names) do
    local note = n == fit.anchor and "the anchor" or fit.se[n] and string.format("%.0f", fit.se[n])
      or "not fitted: " .. fit.why[n]
    lines[#lines + 1] = string.format("%-15s %8d %8d   %s", n, start[n], fit.weights[n], note)
  end
  lines[#lines + 1] = "wrote " .. path
  -- each line escaped for the console: the bot and the rules are the
  -- folder's header, which anyone may have written
  for i, line in ipairs(lines) do lines[i] = require("cheskers.escape").console(line) end
  return table.concat(lines, "\n")
end

-- The fit of folder dir (tune.fit_folder, under the weights file's lock),
-- printed; a shard that finds the lock held leaves the fit to the run
-- holding it.
local function fit_locked(tune, dir, o, shard)
  local fit, data, path = tune.fit_folder(dir, { save = o.save, anchor = o.anchor, ridge = o.ridge,
    rules = o.given_rules, steal_lock = o.steal_lock, status = status(o.quiet), leave_locked = shard })
  if not fit then
    io.stderr:write("cheskers tune: another run is fitting " .. dir .. " now\n")
    return 0
  end
  print(fit_text(fit, data.start, data.names, path))
  return 0
end

-- The options as a run's configuration.
local function config(o)
  local cfg = { out = o.out, bot = o.bot, restart = o.restart, steal_lock = o.steal_lock }
  if o.games == nil then o.games = require("cheskers.tune").DEFAULTS.games end
  local okg, err = require("cheskers.match").game_options(o, cfg)
  if not okg then error(err, 0) end
  cfg.shard, cfg.shards = require("cheskers.store").parse_shard(o.shard)
  if cfg.bot then
    local ok, berr = pcall(require("cheskers.bots").load, cfg.bot)   -- refused before any file is made
    if not ok then error(berr, 0) end
  end
  return cfg
end

local function play(tune, o)
  local cfg = config(o)
  o.given_rules = cfg.rules
  local show, finish = game_bar(o.quiet)
  cfg.progress = show
  local ok, sum = pcall(tune.run, cfg)
  finish()
  if not ok then
    if cheskers.error_code(sum) == "interrupted" then
      io.stderr:write("cheskers tune: the finished games are stored; run the same command again to resume\n")
    end
    error(sum, 0)
  end
  local run, err = tune.read_dir(cfg.out)
  if not run then error(err, 0) end
  if #run.games < run.planned then
    io.stderr:write(string.format("shard %d/%d: %d played, %d already there; %s holds %d of %d games: "
      .. "when every shard is done, cheskers tune --fit %s\n", cfg.shard, cfg.shards, sum.played, sum.skipped,
      cfg.out, #run.games, run.planned, cfg.out))
    return 0
  end
  return fit_locked(tune, cfg.out, o, true)
end

local function run(args)
  local p = parser()
  local cli = require "cheskers.cli"
  if cli.wants_help(args) then io.stdout:write(p:get_help(), "\n") return 0 end
  local o = cli.parse_args(p, args)
  if o.anchor then cli.check_option("--anchor", o.anchor, require("cheskers.schema").one_of(cheskers.engine.names)) end
  local tune = require "cheskers.tune"
  if o.fit then
    if o.out then error("give --out DIR (play, then fit) or --fit DIR (fit only), not both", 0) end
    if o.games or o.bot or o.nodes or o.time then
      error("--fit DIR plays nothing: --games, --bot, --nodes and --time go with --out DIR", 0)
    end
    if o.rules then   -- a trusted rule file for games whose rules have hooks (a folder names no file)
      local rules, rerr = require("cheskers.rulearg").parse(o.rules)
      if rules == nil then error("--rules: " .. rerr, 0) end
      o.given_rules = rules
    end
    return fit_locked(tune, o.fit, o, false)
  end
  if not o.out then error("--out DIR (play, then fit) or --fit DIR is required; see --help", 0) end
  return play(tune, o)
end

return {
  summary = "fit the evaluation's weights to self-play games (Texel's method)",
  usage = parser():get_help(),
  run = run,
  main = run,
}
