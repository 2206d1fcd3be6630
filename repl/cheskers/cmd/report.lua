-- cheskers report DIR [--svg FILE | --no-svg] [--html FILE] [--margin POINTS] [--plies-margin PLIES]
-- The command line of the experiment report: merges every shard file of
-- DIR (cheskers.report.read_dir), prints the statistics per variant and
-- what is missing or does not belong (a tournament's folder: its table, by
-- cheskers.cmd.tournament); writes the SVG chart (cheskers.chart) and, with --html,
-- the self-contained HTML report (cheskers.report_html).

local DESCRIPTION = [[
Reads every .jsonl file in DIR (all shards and runs of `cheskers
experiment`; a game recorded twice counts once) and prints per variant:
  - games; white, black and draw rates with 95% Wilson score intervals;
  - the differences from the first variant (at the same strength; rates:
    Newcombe intervals; mean length: Welch intervals; * when significant
    after Holm's correction over all the differences of the experiment;
    = when equivalent within --margin points / --plies-margin plies by two
    one-sided tests, Holm-corrected the same way: "no difference" is only
    ever that, never the absence of a star);
  - game length in plies (mean, quartiles by linear interpolation, min,
    max); the mean branching factor (legal moves per sampled position);
  - how the games ended; pieces captured (by the capturing kind), lost and
    promoted to, per game; the experiment's own measures;
  - the design measures (drama, lead changes, decided at, killer moves,
    uncertainty) from the evaluation traces, the first mover's score, and
    piece values in pawns from a logistic fit, each with a 95% interval;
  - the design measures' differences from the base, and with strengths
    whether each measure grows, shrinks or vanishes as play gets stronger
    and the variant x strength interaction of every difference (Cochran's
    Q): exploratory tests, with Benjamini-Hochberg q-values over all of
    them (piece values: Fieller intervals, untested).
A power line says how many games a 5-point difference in win rate would
take.
When games are missing from what the runs planned (a shard not run or cut
short), it says so on stderr: "found M of N games; shards short: ...".
A game counts only where its file's header says it belongs (the same
experiment and seed, a declared variant, a game number within the plan);
anything else is named on stderr by file and line and not counted. Files
of two editions of one experiment (other variants, rules, bots...) are
refused. A folder of cheskers tournament gets its standings and
crosstable (as cheskers tournament --report DIR).]]

local EPILOG = [[
Writes an SVG chart (win rates with their intervals, game-length
histograms) to DIR/report.svg, or to FILE with --svg. --html FILE writes
one self-contained HTML page (inline SVG, no network) with every table and
chart, sample evaluation traces, and the commands and rules behind them.]]

local function parser()
  local cli = require "cheskers.cli"
  local p = cli.parser("cheskers report", DESCRIPTION, EPILOG)
  p:argument("dir", "output folder of cheskers experiment (or of cheskers tournament)"):convert(cli.path)
  p:option("--svg", "chart file (default DIR/report.svg)"):convert(cli.path)
  p:option("--title", "chart title")
  p:flag("--no-svg", "no chart")
  p:option("--html", "also write the HTML report to FILE"):convert(cli.path)
  local number = require("cheskers.cli").number
  number(p, "--margin", "equivalence margin of the rates, in points (TOST)", "5")
  number(p, "--plies-margin", "equivalence margin of the mean length, in plies (TOST)", "5")
  return p
end

local function write_html(opts, stats, files, dir, args)
  require("cheskers.store").write_file(opts.html, require("cheskers.report_html").page(stats, files, {
    title = opts.title, dir = dir, command = require("cheskers.cli").command_line("report", args),
    margins = opts.margins }))
  io.stderr:write("html: ", opts.html, "\n")
end

-- A tournament's folder: what cheskers tournament --report DIR prints (the
-- tournament library's standings, without calling that subcommand).
local function tournament_report(opts, dir)
  if opts.svg then io.stderr:write("cheskers report: ", dir, " holds a tournament: no chart (--svg ignored)\n") end
  local tournament = require "cheskers.tournament"
  local sum, err = tournament.read_dir(dir)
  if not sum then error(err, 0) end
  local t = tournament.standings(sum)
  print(tournament.report(t))
  if opts.html then require("cheskers.store").write_file(opts.html, tournament.html(t)) end
  return 0
end

local function run(args)
  local p, cli = parser(), require "cheskers.cli"
  local opts = cli.parse_args(p, args)
  if not opts then return 0 end
  local report = require "cheskers.report"
  local margins = { margin = opts.margin / 100, plies_margin = opts.plies_margin }
  local dir = opts.dir:gsub("/+$", "")
  if dir == "" then dir = "/" end
  local kinds = require("cheskers.store").kinds(dir)
  if kinds.tournament and not kinds.experiment then return tournament_report(opts, dir) end
  local recs, warnings, files = report.read_dir(dir)
  for _, w in ipairs(warnings) do cli.report(w, "report") end   -- (escaped: they quote the folder)
  if #recs == 0 then error("no games in " .. dir, 0) end
  local stats = report.summarize(recs)
  io.stdout:write(report.format_report(stats, margins))
  if not opts.no_svg then
    local chart = require "cheskers.chart"
    local names = {}
    for _, g in ipairs(stats) do
      if names[#names] ~= g.experiment then names[#names + 1] = g.experiment end
    end
    local title = opts.title or ("Cheskers rule experiment: " .. table.concat(names, ", "))
    local path = opts.svg or (dir .. "/report.svg")
    require("cheskers.store").write_file(path, chart.svg(stats, title))
    io.stderr:write("chart: ", path, "\n")
  end
  opts.margins = margins
  if opts.html then write_html(opts, stats, files, dir, args) end
  return 0
end

return {
  summary = "merge experiment shards: win rates with intervals, lengths, SVG chart",
  usage = parser():get_help(),
  run = run,
}
