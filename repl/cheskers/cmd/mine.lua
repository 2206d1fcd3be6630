-- cheskers mine --games N [--moves A-B] [--out DIR] ...: reads the
-- arguments, writes the puzzles and prints; the algorithm is cheskers.mine.
-- Plays self-play games (through cheskers.game) and keeps the positions
-- where the side to move has a unique forced win (no cooks, no duals along
-- the main line) in A to B moves, writing them as puzzle files. With
-- --tb DIR it finds endgame studies in the tablebases instead, and with
-- --studies it walks every table for them (ranked, with their themes).

local DESCRIPTION = [[
Plays N self-play games from the start position and looks, at every
position, for a forced win of the side to move in A to B of its moves
(default 1-5). A position is kept when its win is unique: one first move
wins within the stated number, the main line (longest defences) has no
duals, and the puzzle passes `cheskers check`; and when the side to move
has at least 3 legal moves (else the key is all but forced). Kept puzzles
are written to DIR (default: .) as one file per puzzle, named
win<K>-<hash>.lua, or all into DIR/NAME with --file.

With --tb TBDIR it finds endgame studies in the tablebases: N random
positions that the tables cover (both sides a king, up to the tables'
size), kept when the side to move wins in A to B moves (up to 64) with
exactly one winning move, the main line has no duals, and the puzzle
passes `cheskers check --tb TBDIR`.

With --studies (and --tb TBDIR or $CHESKERS_TB; no --games) it walks every
table instead, for endgame studies: White to play wins in A to B moves
(default 6-64) with exactly one winning move at each of its turns (every
other move draws or loses; in the last --duals plies, default 3, slower
wins may exist too), Black resisting longest, natural material (no side
has more of a kind than at the start, White at most one piece other than
pawns up), a quiet key; at most --per-signature a material, ranked longer
first, then fewer pieces; tagged with their themes (zugzwang, sacrifice,
promotion choice, race), which --theme selects. --pieces N walks only
the tables of N pieces, --signature only those listed.]]

local EPILOG = [[
Games are varied by a few random opening moves and an occasional random
move; a player with a forced win plays it only now and then, so that the
games go on past their first puzzle. The games depend only on the seed: a
run killed at any moment and run again writes the same files.]]

local function parser()
  local cli = require "cheskers.cli"
  local p = cli.parser("cheskers mine", DESCRIPTION, EPILOG)
  local number = require("cheskers.cli").number
  number(p, "--games", "games to play (required)", nil, "mine --games")
  p:option("--moves", "win lengths wanted, A-B or one number (default 1-5; --studies 6-64)")
  p:option("--out", "output folder (created if missing)", "."):convert(cli.path)
  p:option("--file", "write every puzzle into DIR/NAME (a list) instead"):convert(cli.path)
  number(p, "--seed", "random seed; the games depend only on it", "1")
  number(p, "--depth", "engine search depth for the moves played", "2", "mine --depth")
  number(p, "--max", "stop after N puzzles", nil, "mine --max")
  p:option("--rules", "the rules (default golomb): a preset, name=value options, a {...} table, "
           .. "a rule file or FILE.lua:VARIANT, as every --rules (written into each puzzle)")
  p:option("--from", "games, or random: N random positions (kings and up to --pieces other "
           .. "pieces a side)", "games")
  number(p, "--pieces", "--from random: most extra pieces a side (default 4); --studies: only the tables "
         .. "of N pieces", nil, "mine --pieces")
  p:option("--theme", "keep only wins that end so: stalemate or kings (--studies: also zugzwang, "
           .. "sacrifice, promotion choice, race)")
  p:option("--tb", "find studies in the tablebases of this directory"):convert(cli.path)
  p:flag("--studies", "walk every table of --tb DIR (or $CHESKERS_TB) for studies, ranked")
  number(p, "--duals", "--studies: the last plies where slower wins may exist too", "3", "mine --duals")
  number(p, "--per-signature", "--studies: most studies of one material", "3", "mine --per-signature")
  p:option("--signature", "--studies: only these materials (e.g. KCvKP or KCvKP,KBvKP)")
  p:flag("--quiet", "no progress on stderr")
  return p
end

local function parse_range(text, most)
  local N = require "cheskers.numbers"
  local a, b = text:match("^([^-]*)%-(.*)$")
  if not a then a, b = text, text end
  a, b = N.read(a, "mine --moves"), N.read(b, "mine --moves")
  if not a or not b or b < a or b > most then
    error(string.format("--moves must be A-B with 1 <= A <= B <= %d, or one number%s, not %s", most,
      most == 15 and " (up to 64 with --tb)" or "", require("cheskers.schema").show(text)), 0)
  end
  return a, b
end

local store = require "cheskers.store"
local mine = require "cheskers.mine"

local function mkdir(dir)
  local ok, err = store.mkdir(dir)
  if not ok then error(err, 0) end
end

-- The rules of --rules (rulearg.parse, as every command reads --rules),
-- refused when a puzzle file cannot hold them (hooks); nil: golomb.
local run_studies

local function puzzle_rules(text)
  if text == nil then return nil end
  local rules, err = require("cheskers.rulearg").parse(text)
  if rules == nil then error("--rules: " .. err, 0) end
  local ok, ferr = require("cheskers.puzzle").file_rules(rules)
  if not ok then error("--rules: " .. ferr, 0) end
  return rules
end

-- The writer of a run's puzzles: into DIR/NAME (the whole file again each
-- time: an interrupted run keeps its finds), else one file per puzzle.
local function puzzle_writer(opts, header)
  local puzzle, so_far = require "cheskers.puzzle", {}
  return function(p, hash)
    if opts.file then
      so_far[#so_far + 1] = p
      store.write_file(opts.out .. "/" .. opts.file, puzzle.serialize(so_far, header))
      return
    end
    local name = string.format("%s/win%d-%016x.lua", opts.out, p.moves, hash)
    store.write_file(name, puzzle.serialize({ p }))   -- whole files only, even when killed
  end
end

-- The progress line of a run on stderr (nil with --quiet); name: what was
-- just done (--studies: the signature walked; padded over a longer one).
local function progress_line(opts, what)
  if opts.quiet then return nil end
  local show, done = require("cheskers.cli").progress()
  return function(g, n, k, name)
    show(string.format("%s %d/%d: %s%s", what, g, n, require("cheskers").plural(k, "puzzle"),
      name and (" (%s)"):format(name) or ""))
    if g == n then done() end
  end
end

-- The summary line: how many of each length, and where.
local function summary(opts, list, lo, hi)
  local counts, parts = mine.counts(list), {}
  for k = lo, hi do
    if counts[k] or hi - lo < 15 then parts[#parts + 1] = string.format("%d in %d", counts[k] or 0, k) end
  end
  io.stdout:write(string.format("%s (%s) written to %s\n", require("cheskers").plural(#list, "puzzle"),
    table.concat(parts, ", "), opts.file and (opts.out .. "/" .. opts.file) or opts.out))
end

-- cheskers mine --studies
function run_studies(opts)
  local cli, S = require "cheskers.cli", require "cheskers.schema"
  if opts.theme ~= nil then cli.check_option("--theme", opts.theme, S.one_of(mine.STUDY_THEMES)) end
  if opts.pieces ~= nil then cli.check_option("--pieces", opts.pieces, S.int { min = 2, max = 6 }) end
  local tables = require("cheskers.puzzle").tables(opts.tb)
  if not tables then error("--studies needs tablebases: --tb DIR, or $CHESKERS_TB", 0) end
  local lo, hi = parse_range(opts.moves or "6-64", 64)
  local rules = puzzle_rules(opts.rules)
  mkdir(opts.out)
  local header = ("Endgame studies mined by cheskers mine --studies --moves %d-%d --duals %d%s%s%s"):format(lo, hi,
    opts.duals, opts.pieces and (" --pieces %d"):format(opts.pieces) or "",
    opts.signature and (" --signature " .. opts.signature) or "",
    opts.rules and (" --rules %q"):format((opts.rules:gsub("%s+", " "))) or "")
  local list = mine.run { studies = true, seed = 1, tables = tables, lo = lo, hi = hi, duals = opts.duals,
                      rules = rules, per_signature = opts.per_signature, signature = opts.signature, max = opts.max,
                      pieces = opts.pieces, theme = opts.theme,
                      candidates = mine.STUDY_CANDIDATES, found = puzzle_writer(opts, header),
                      progress = progress_line(opts, "signature") }
  summary(opts, list, lo, hi)
  return 0
end

local function run(args)
  local ap = parser()
  local opts = require("cheskers.cli").parse_args(ap, args)
  if not opts then return 0 end
  if opts.studies then return run_studies(opts) end
  if not opts.games then error("--games N is required (N >= 0)\n" .. ap:get_usage(), 0) end
  local cli, S = require "cheskers.cli", require "cheskers.schema"
  cli.check_option("--from", opts.from, S.one_of { "games", "random" })
  if opts.theme ~= nil then cli.check_option("--theme", opts.theme, S.one_of(mine.THEMES)) end
  local lo, hi = parse_range(opts.moves or "1-5", opts.tb and 64 or 15)
  local rules = puzzle_rules(opts.rules)
  local puzzle = require "cheskers.puzzle"
  mkdir(opts.out)
  local header = string.format("Mined by cheskers mine --games %d --moves %s --seed %d%s%s", opts.games,
    opts.moves or "1-5", opts.seed, opts.tb and " --tb" or opts.from == "random" and " --from random" or "",
    opts.rules and (" --rules %q"):format((opts.rules:gsub("%s+", " "))) or "")
  local found = puzzle_writer(opts, header)
  local progress = progress_line(opts, opts.from == "random" and "position" or "game")
  local list = mine.run { games = opts.games, lo = lo, hi = hi, seed = opts.seed,
                      depth = opts.depth, max = opts.max, rules = rules, progress = progress, found = found,
                      from = opts.from, pieces = opts.pieces, theme = opts.theme,
                      tables = opts.tb and puzzle.tables(opts.tb) }
  summary(opts, list, lo, hi)
  return 0
end

return {
  summary = "find puzzles (unique forced wins) in self-play games",
  usage = parser():get_help(),
  run = run,
}
