-- cheskers experiment FILE [--games N] [--shard I/N] [--seed S] --out DIR
-- Plays the self-play games of a rule experiment (see cheskers.experiment)
-- into DIR, one JSON line per game; resumable; shards independent.
local argparse = require "argparse"

local usage = [[
usage: cheskers experiment FILE [--games N] [--shard I/N] [--seed S] --out DIR [--moves] [--quiet]

Plays the self-play games of the experiment FILE (a Lua file, see
scripts/experiments/) and appends one JSON line per finished game to
DIR/<name>.seed<S>.shard<I>of<N>.jsonl.

  --games N     games per variant (default: the file's `games`)
  --shard I/N   play only shard I of N (default 1/1): the games numbered
                I, I+N, I+2N, ... of the whole schedule
  --seed S      the seed (default: the file's `seed`); a game depends only
                on (seed, variant, game number)
  --out DIR     output folder (created if missing)
  --moves       also record each game's start position and moves (keys
                "start" and "moves"), to replay it later
  --quiet       no progress on stderr

Games already recorded in any .jsonl file of DIR are skipped, so a run
that was interrupted picks up where it stopped, and shards of the same
experiment can share DIR. Then: cheskers report DIR.]]

local function parser()
  local p = argparse("cheskers experiment", "Play the self-play games of a rule experiment.")
  p:add_help(false)
  p:argument("file", "experiment file (Lua)")
  p:option("--games", "games per variant"):convert(math.tointeger)
  p:option("--shard", "shard I/N", "1/1")
  p:option("--seed", "seed"):convert(math.tointeger)
  p:option("--out", "output folder")
  p:flag("--quiet")
  p:flag("--moves")
  p:flag("-h --help")
  return p
end

local function run(args)
  if require("cheskers.cli").wants_help(args) then io.stdout:write(usage, "\n") return 0 end
  local ok, opts = parser():pparse(args)
  if not ok then error(opts .. "; see --help", 0) end
  if opts.help then io.stdout:write(usage, "\n") return 0 end
  if not opts.out then error("--out DIR is required; see --help", 0) end
  if opts.games ~= nil and opts.games < 0 then error("--games must be >= 0", 0) end
  local experiment = require "cheskers.experiment"
  local shard, nshards = experiment.parse_shard(opts.shard)
  local e = experiment.load(opts.file)
  local seed = opts.seed or e.seed
  local started = os.time()
  local last = 0
  local progress
  if not opts.quiet then
    progress = function(done, total)
      local now = os.clock()
      if done == total or now - last >= 1 then
        last = now
        io.stderr:write(("\r%s shard %d/%d: %d/%d games"):format(e.name, shard, nshards, done, total))
        io.stderr:flush()
      end
    end
  end
  local shown = false
  local ok, s = pcall(experiment.run, e, opts.out, shard, nshards, {
    seed = seed, games = opts.games, moves = opts.moves,
    progress = progress and function(...) shown = true; progress(...) end })
  if not ok then
    if shown then io.stderr:write("\n") end
    if require("cheskers").error_code(s) == "interrupted" then
      io.stderr:write("cheskers experiment: the finished games are recorded; "
                      .. "run the same command again to resume\n")
    end
    error(s, 0)
  end
  if not opts.quiet then
    io.stderr:write(("%s%s shard %d/%d (seed %d): %d played, %d already done, %d in all; %s (%ds)\n")
      :format(s.played > 0 and "\n" or "", e.name, shard, nshards, seed, s.played, s.skipped, s.total,
              s.file, os.time() - started))
  end
  return 0
end

return {
  summary = "play self-play games of a rule experiment (scripts/experiments/)",
  usage = usage,
  run = run,
  main = run,
}
