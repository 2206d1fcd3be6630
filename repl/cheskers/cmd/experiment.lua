-- cheskers experiment FILE [--games N] [--shard I/N] [--seed S] --out DIR
-- The command line of a rule experiment: reads FILE (cheskers.experiment)
-- and plays its self-play games into DIR (cheskers.selfplay), one JSON line
-- per game; resumable; shards independent. argparse's help is the only usage text.

local DESCRIPTION = [[
Plays the self-play games of the experiment FILE (a Lua file, see
scripts/experiments/) and appends one JSON line per finished game to
DIR/<name>.seed<S>.shard<I>of<N>.jsonl.]]

local EPILOG = [[
Games already recorded in any .jsonl file of DIR are skipped, so a run
that was interrupted (even by kill -9) picks up where it stopped, and
shards of the same experiment can share DIR. A file of DIR made from other
inputs (edited variants, bots, rules, limits, max_plies...) is refused
with what differs; --restart throws the experiment's files away first (do
not give it to shards running at the same time). Then: cheskers report DIR.
A bot that uses more than 3 limits.time + 1 s of CPU for a move (30 s
without limits.time), or 3 times that in wall-clock time, loses that game
(reason "time"); the hooks and measures of a --sandbox file have CPU time
limits too (docs/reference/security.md).
An experiment with `fitted` first finds each variant's weights in the
weights cache (DIR/weights, or --weights-cache) or fits them there (cheskers
tune's method, once per rule set; shards wait for the one fitting), and
plays every variant's engine with them (docs/guide/experiments.md).]]

local function parser()
  local cli = require "cheskers.cli"
  local p = cli.parser("cheskers experiment", DESCRIPTION, EPILOG)
  p:argument("file", "experiment file (Lua)"):convert(cli.path)
  local number = require("cheskers.cli").number
  number(p, "--games", "games per variant (default: the file's `games`; 0: check the file, play none)", nil, "games")
  p:option("--shard", "I/N: play only the games numbered I, I+N, I+2N, ... of the whole schedule", "1/1")
  number(p, "--seed", "the seed (default: the file's `seed`); a game depends only on "
         .. "(seed, variant, game number)")
  p:option("--out", "output folder (created if missing)"):convert(cli.path)
  p:option("--rules", "rules laid over every variant's rules (a preset, name=value options, a {...} "
           .. "table, a rule file or FILE.lua:VARIANT, as every --rules; composed as the file's base is)")
  p:option("--fitted", "play every variant by the engine with weights fitted to its rules, as the field "
           .. "fitted = true (or the budget: --fitted games=2000,nodes=250,seed=1)"):args("?"):argname("BUDGET")
  p:option("--weights-cache", "with `fitted`: the folder of the fitted weights (default DIR/weights); "
           .. "share one between runs and experiments to fit each rule set once"):argname("CACHE"):convert(cli.path)
  p:flag("--fit-only", "with `fitted`: make the weights and play no game (then run the shards)")
  p:flag("--moves", "also record each game's start position and moves (keys \"start\" and \"moves\")")
  require("cheskers.cli").add_run_options(p, "this experiment's result files (this seed) in DIR")
  p:flag("--sandbox", "for an experiment you did not write: run FILE itself, its hooks and measures "
         .. "and the bot files in sandboxes (as match --sandbox; docs/reference/security.md)")
  p:flag("--quiet", "no progress on stderr")
  return p
end

-- The progress of the games (nil with --quiet) and finish() that ends its line.
local function progress_printer(e, shard, nshards, quiet)
  if quiet then return nil, function() end end
  local show, finish = require("cheskers.cli").progress { every = 1 }
  return function(done, total)
    show(("%s shard %d/%d: %d/%d games"):format(e.name, shard, nshards, done, total), nil, done == total)
  end, finish
end

-- Lays the rules of --rules over every variant's rules (rulespec.compose,
-- the one composition); they are part of the experiment's fingerprint.
local function over_variants(e, text)
  local rulespec = require "cheskers.rulespec"
  local spec, err = require("cheskers.rulearg").parse(text)
  if spec == nil then error("--rules: " .. err, 0) end
  for _, v in ipairs(e.variants) do
    local base = v.rules
    if type(base) == "string" then base = assert(rulespec.compose(nil, base)) end
    local r, cerr = rulespec.compose(base, spec)
    if r == nil then error("--rules: " .. cerr, 0) end
    v.rules = r
  end
end

-- --fitted [BUDGET]: the file's own fitting (or the defaults) without a
-- budget, else the budget's name=value text, checked as the field is.
local function fitted_option(e, args)
  local experiment = require "cheskers.experiment"
  if #args == 0 then return experiment.set_fitted(e, e.fitted or true, "--fitted") end
  local budget, err = require("cheskers").read_options(args[1])
  if not budget then error("--fitted: " .. err, 0) end
  return experiment.set_fitted(e, budget, "--fitted")
end

-- The fitted weights of every variant (cheskers.fitted), with progress.
local function fit(e, opts)
  local quiet = opts.quiet
  local show, done_line = require("cheskers.cli").progress { every = 1 }
  local fits = require("cheskers.fitted").prepare(e, {
    out = opts.out, cache = opts.weights_cache, steal_lock = opts.steal_lock,
    progress = not quiet and function(name, fp, done, total)
      show(("%s: fitting weights %s (variant %s): %d/%d games"):format(e.name, fp,
        require("cheskers.escape").console(name), done, total), nil, done == total)
      if done == total then done_line() end
    end or nil,
    waiting = not quiet and function(name, fp)
      io.stderr:write(("%s: waiting for another run fitting weights %s (variant %s)\n"):format(e.name, fp,
        require("cheskers.escape").console(name)))
    end or nil,
  })
  if not quiet then
    for _, f in ipairs(fits) do
      io.stderr:write(("%s: weights %s for %s\n"):format(e.name, f.file,
        require("cheskers.escape").console(table.concat(f.variants, ", "))))
    end
  end
end

local function run(args)
  local p = parser()
  local opts = require("cheskers.cli").parse_args(p, args)
  if not opts then return 0 end
  if not opts.out then error("--out DIR is required; see --help", 0) end
  if opts.games ~= nil and opts.games < 0 then error("--games must be >= 0", 0) end
  local experiment = require "cheskers.experiment"
  local shard, nshards = require("cheskers.store").parse_shard(opts.shard)
  local e = experiment.load(opts.file, { sandbox = opts.sandbox })
  if opts.rules then over_variants(e, opts.rules) end
  if opts.fitted then fitted_option(e, opts.fitted) end
  if not e.fitted and (opts.weights_cache or opts.fit_only) then
    error((opts.fit_only and "--fit-only" or "--weights-cache") .. " is for an experiment with `fitted`, and "
          .. opts.file .. " has none", 0)
  end
  if e.fitted then fit(e, opts) end
  if opts.fit_only then return 0 end
  local seed = opts.seed or e.seed
  local started = require("cheskers").clock()
  local progress, finish = progress_printer(e, shard, nshards, opts.quiet)
  local ok_run, s = pcall(require("cheskers.selfplay").run, e, opts.out, shard, nshards, {
    seed = seed, games = opts.games, moves = opts.moves, restart = opts.restart, sandbox = opts.sandbox,
    steal_lock = opts.steal_lock,
    command = require("cheskers.cli").command_line("experiment", args),
    progress = progress })
  finish()
  if not ok_run then
    if require("cheskers").error_code(s) == "interrupted" then
      io.stderr:write("cheskers experiment: the finished games are recorded; "
                      .. "run the same command again to resume\n")
    end
    error(s, 0)
  end
  if not opts.quiet then
    io.stderr:write(("%s shard %d/%d (seed %d): %d played, %d already done, %d in all; %s (%.0fs)\n")
      :format(e.name, shard, nshards, seed, s.played, s.skipped, s.total,
              s.file, require("cheskers").clock() - started))
  end
  return 0
end

return {
  summary = "play self-play games of a rule experiment (scripts/experiments/)",
  usage = parser():get_help(),
  run = run,
}
