-- cheskers tournament BOT BOT ... [options]: round robin or gauntlet
-- (cheskers.tournament). This file owns the command line: options
-- (argparse, whose help is the only usage text), the progress line, and
-- which report is printed when.

local DESCRIPTION = [[
Every pair of bots plays N games (default 2), or with --gauntlet BOT that
bot plays N games against each of the others. Each pairing is a match
(see cheskers match): colours alternating, games 2k-1 and 2k from the same
opening, the same openings in every pairing, games seeded by (seed, game).
Prints a progress line as games end (and a line for each game a bot loses
by a fault: the bot, the fault, its traceback), then the standings (score,
Elo by maximum likelihood with its 95% interval, the likelihood of
superiority over the next bot), the crosstable, how the games ended and
which bots lost games by a fault.

With --out DIR the games are stored as they end in
DIR/tournament.shard<I>of<N>.jsonl; the same command again resumes (even
after kill -9; more --games extends the tournament). With
--shard I/N a run plays only games I, I+N, I+2N, ... (run the N shards
anywhere, into one DIR or folders copied together); the report is printed
when the folder holds every game, and at any time by
cheskers tournament --report DIR.]]

local EPILOG = [[
A bot is a name from scripts/bots/ (random, greedy, alphabeta, mcts,
engine), builtin-random, builtin-greedy, or a Lua file, with options after
a colon: engine:level=3  alphabeta:depth=2  my/bot.lua. Exit status 0, or
1 on an error.]]

local function parser()
  local cli = require "cheskers.cli"
  local p = cli.parser("cheskers tournament", DESCRIPTION, EPILOG)
  p:argument("BOT", "the bots"):args("*"):target("bots")
  p:option("--gauntlet", "this bot plays every BOT (and the BOTs do not play each other)"):argname("BOT")
  require("cheskers.cli").number(p, "--games -n", "games per pairing", "2")
  require("cheskers.cli").game_options(p)
  p:option("--out", "results folder (created): resumable, shards share it"):argname("DIR"):convert(cli.path)
  p:option("--shard", "I/N: play only the games numbered I, I+N, I+2N, ... (needs --out)", "1/1"):argname("I/N")
  cli.add_run_options(p, "the tournament files of --out")
  p:option("--report", "print the report of the tournament in folder DIR (play nothing)"):argname("DIR")
    :convert(cli.path)
  p:option("--records", "game records file (PGN: the seven tags Event, Site, Date, Round, White, "
           .. "Black, Result first); with --shard I/N each shard writes its own, .shard<I>of<N> before "
           .. "the extension (games.pgn: games.shard1of4.pgn); with --report, every game of DIR"):argname("FILE")
    :convert(cli.path)
  p:option("--html", "write the report as an HTML page of its own (with the settings and command)"):argname("FILE")
    :convert(cli.path)
  require("cheskers.cli").number(p, "--prior", "virtual draws added to each pairing (default: 0, or 1 "
           .. "when a score is perfect and the maximum likelihood is infinite)"):argname("N")
  p:flag("--quiet -q", "no progress line (a game lost by a fault is still reported)")
  return p
end

local fail = require("cheskers.cli").failure("tournament")

-- The options as a tournament configuration, or nil, message.
local function config(o)
  local cfg = { bots = o.bots, gauntlet = o.gauntlet, out = o.out, restart = o.restart, records = o.records,
                steal_lock = o.steal_lock, command = o.command }
  local okg, err = require("cheskers.match").game_options(o, cfg)
  if not okg then return nil, err end
  local ok, shard, shards = pcall(require("cheskers.store").parse_shard, o.shard)
  if not ok then return nil, shard end
  cfg.shard, cfg.shards = shard, shards
  if shards > 1 and cfg.records then
    cfg.records = cfg.records:gsub("(%.[^./]*)$", "") .. string.format(".shard%dof%d", shard, shards)
      .. (o.records:match("(%.[^./]*)$") or "")
  end
  return cfg
end

-- Prints the report of a summary; --html and (for --report) --records.
local function print_report(tournament, sum, o, cfg)
  local write_file = require("cheskers.store").write_file
  local t = tournament.standings(sum, o.prior)
  print(tournament.report(t))
  if o.html then write_file(o.html, tournament.html(t, { command = o.command })) end
  if o.report and o.records then
    local parts = {}
    for _, r in ipairs(sum.results) do parts[#parts + 1] = tournament.render_record(cfg, r) end
    write_file(o.records, table.concat(parts))
  end
end

-- The console's progress line (none with --quiet) and, above it, a line for
-- each game lost by a fault (cheskers.match.fault_text: who, how, the
-- traceback; names escaped for the console).
local function progress_printer(tournament, quiet)
  local fault_text = require("cheskers.match").fault_text
  if quiet then
    return function(_, _, r)
      local fault = fault_text(r, r.round)
      if fault then io.stderr:write(fault, "\n") end
    end, function() end
  end
  local show, finish = require("cheskers.cli").progress()
  return function(done, total, r) show(tournament.progress_line(done, total, r), fault_text(r, r.round)) end,
    finish
end

-- --report DIR: the folder's games (its own fingerprint gives the openings
-- of the game records).
local function report_only(tournament, o)
  local sum, err = tournament.read_dir(o.report)
  if not sum then return fail(err) end
  if o.rules and o.records then   -- a trusted rule file, for games whose rules have hooks (a folder names no file)
    local rules, rerr = require("cheskers.rulearg").parse(o.rules)
    if rules == nil then return fail("--rules: " .. rerr) end
    sum.cfg = tournament.config_of(sum.fingerprint, rules, sum.where)
  end
  print_report(tournament, sum, o, sum.cfg)
  return 0
end

local function play(tournament, o, cfg)
  local finish
  cfg.progress, finish = progress_printer(tournament, o.quiet)
  local ok, sum = pcall(tournament.run, cfg)
  finish()
  if not ok then
    if require("cheskers").error_code(sum) == "interrupted" and cfg.out then
      io.stderr:write("cheskers tournament: the finished games are stored; run the same command again to resume\n")
    end
    if type(sum) == "string" then return fail(sum) end
    error(sum, 0)
  end
  if not cfg.out then
    print_report(tournament, sum, o, cfg)
    return 0
  end
  local all, err = tournament.read_dir(cfg.out)
  if not all then return fail(err) end
  if #all.results < all.total then
    io.stderr:write(string.format("shard %d/%d: %d played, %d already there; %s holds %d of %d games: "
      .. "when every shard is done, cheskers tournament --report %s\n", cfg.shard, cfg.shards, sum.played,
      sum.skipped, cfg.out, #all.results, all.total, cfg.out))
    return 0
  end
  print_report(tournament, all, o, cfg)
  return 0
end

local function run(args)
  local p = parser()
  local o = require("cheskers.cli").parse_args(p, args)
  if not o then return 0 end
  o.command = require("cheskers.cli").command_line("tournament", args)
  local tournament = require "cheskers.tournament"
  if o.report then
    if #o.bots > 0 then return fail("--report DIR takes no bots (it plays nothing)") end
    return report_only(tournament, o)
  end
  if #o.bots + (o.gauntlet and 1 or 0) < 2 then
    return fail("give at least two bots (or --gauntlet BOT and one bot)\n" .. p:get_usage())
  end
  local cfg, err = config(o)
  if not cfg then return fail(err) end
  return play(tournament, o, cfg)
end

return {
  summary = "round robin or gauntlet of bots: crosstable, Elo ratings, LOS",
  usage = parser():get_help(),
  run = run,
}
