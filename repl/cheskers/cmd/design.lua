-- cheskers design FILE --out DIR [--shard I/N] [--budget N] [--time S] ...
-- The command line of a design search: reads FILE (cheskers.design), races
-- its candidates (games into DIR/games, resumable and sharded), prints the
-- text report (cheskers.design_report) and writes it with the HTML page and
-- the survivors into DIR. argparse's help is the only usage text.

local DESCRIPTION = [[
Searches the rule space of the design FILE (a Lua file, see
scripts/designs/ and docs/guide/design.md) for the rule sets that meet its
targets, by racing: every candidate plays rounds of self-play games and is
dropped as soon as an interval excludes a target, with the family-wise
error of every claim at most the file's alpha.]]

local EPILOG = [[
Each candidate's games go to DIR/games/<candidate>/ as an experiment of its
own (a game depends only on the seed, the candidate and its number), so a
search that was interrupted resumes where it stopped, and shards (--shard
I/N, GNU parallel, a Slurm array: scripts/slurm/design.sbatch) share DIR:
each plays its part of every round and waits for the others' before
judging, so every shard reaches the same decisions. The report goes to
stdout and DIR/design.txt, the page to DIR/design.html, and every rule set
that meets all targets to DIR/survivors/<candidate>.rules and .lua (an
experiment file: cheskers experiment replays its games).]]

local function parser()
  local cli = require "cheskers.cli"
  local p = cli.parser("cheskers design", DESCRIPTION, EPILOG)
  local number = require("cheskers.cli").number
  p:argument("file", "design file (Lua)"):convert(cli.path)
  p:option("--out", "results folder (created if missing)"):convert(cli.path)
  p:option("--shard", "I/N: play only game I, I+N, ... of each candidate's round (every shard judges alike)", "1/1")
  number(p, "--seed", "the seed (default: the file's `seed`)")
  number(p, "--budget", "at most this many games in all (default: the file's budget.games)", nil, "design --budget")
  number(p, "--time", "stop starting rounds after this many seconds (decisions then depend on the machine)",
         nil, "design --time")
  p:option("--weights-cache", "with fitted players: the folder of the fitted weights (default DIR/weights)")
    :argname("CACHE"):convert(cli.path)
  cli.add_run_options(p, "the design's games in DIR")
  p:flag("--sandbox", "for a design you did not write: run FILE itself, its constraints and the bot files "
         .. "in sandboxes (as experiment --sandbox; docs/reference/security.md)")
  p:flag("--quiet", "no progress on stderr")
  return p
end

local function run(args)
  local p = parser()
  local cli = require "cheskers.cli"
  local opts = cli.parse_args(p, args)
  if not opts then return 0 end
  if not opts.out then error("--out DIR is required; see --help", 0) end
  local design = require "cheskers.design"
  local report = require "cheskers.design_report"
  local store = require "cheskers.store"
  local shard, nshards = store.parse_shard(opts.shard)
  local d = design.load(opts.file, { sandbox = opts.sandbox })
  if opts.seed then d.seed = opts.seed end
  local quiet = opts.quiet
  local look_now = 1
  local show, finish = cli.progress { every = 1 }
  local command = cli.command_line("design", args)
  store.mkdir(opts.out)
  local result = design.run(d, {
    out = opts.out, shard = shard, shards = nshards, budget = opts.budget, time = opts.time,
    restart = opts.restart, steal_lock = opts.steal_lock, weights_cache = opts.weights_cache, command = command,
    progress = function(state, look, sofar)
      look_now = look + 1
      -- the report so far, rewritten after each round (shard 1 writes it)
      sofar.running = true
      if shard == 1 then
        store.write_file(opts.out .. "/design.txt", report.text(sofar, { command = command }))
        store.write_file(opts.out .. "/design.html", report.html(sofar, { command = command }))
      end
      if not quiet then show(nil, ("%s: %s"):format(d.name, report.progress(state, look))) end
    end,
    tick = not quiet and function(state, c)
      show(("%s: look %d: %s: %d games played here"):format(d.name, look_now, c.name, state.played))
    end or nil,
    waiting = not quiet and function(c, have, want)
      show(nil, ("%s: waiting for other shards: %s has %d of %d games"):format(d.name, c.name, have, want))
    end or nil,
  })
  finish()
  local survivors = design.write_survivors(result, opts.out .. "/survivors")
  local text = report.text(result, { survivors = survivors, command = command })
  store.write_file(opts.out .. "/design.txt", text)
  store.write_file(opts.out .. "/design.html", report.html(result, { survivors = survivors, command = command }))
  io.stdout:write(text)
  if not quiet then
    io.stderr:write(("%s: %d games played here (%.0fs); %s/design.txt and design.html\n")
      :format(d.name, result.played, result.seconds, opts.out))
  end
  return 0
end

return {
  summary = "search a space of rules for the rule sets that meet targets, by racing (scripts/designs/)",
  usage = parser():get_help(),
  run = run,
}
