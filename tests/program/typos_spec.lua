-- tests/program/typos_spec.lua - the typo corpus (issue "Nothing a user writes is
-- misread"): what users really mistype, on every surface where they type -
-- REPL lines, subcommand options and --rules values, bot specs, experiment
-- and puzzle files, option tables of the Lua API - one row per case.
--
-- A row: { surface, input, { fragments } [, setup = ..., file = ...] }.
-- Every row runs the real program (a process, `timeout`, a small budget
-- so that a typo that is silently accepted ends quickly) and asserts:
--   - it fails: a non-zero exit status (a Lua row: an error is raised);
--   - the message holds every fragment (loose words, not sentences: the
--     typo echoed, and the right name suggested or what is allowed);
--   - no Lua traceback: no "stack traceback", no "attempt to", no
--     "file.lua:12:" location, no "stdin:1:" (a REPL line read as Lua);
--   - a suggestion is worded the one way, cheskers.did_you_mean's
--     " (did you mean 'x'?)";
--   - nothing is done: the REPL's board and rules are as before the line
--     (its output equals that of the same session without the line); a
--     command writes nothing into its output folder (the folder of the
--     row stays empty: no games, no puzzles, no tables, no page).
-- The controls at the end run the corrected inputs through the same
-- machinery and must succeed, so a row fails for its typo and not for the
-- scaffolding around it.
-- Expected words come from the documents (docs/*.md, README, the briefs
-- of the issue), never from the program's output.
local H = require "helpers"

local SCALE = tonumber(os.getenv("CHESKERS_TIME_SCALE") or "") or 1
local TIMEOUT = math.ceil(20 * SCALE)    -- seconds per process
local ROOT = H.ROOT

-- the start position (docs/reference/rules.md)
local START = "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b 0 1"
-- Black: camel b8, pawns e7 and d6, king h8; White: pawn c5, king a1.
-- Black must capture (d6xb4, or the camel b8xc5); b8-e7 is a camel leap
-- onto Black's own pawn.
local CAPTURE = "1c5k/4p3/3p4/2P5/8/8/8/K7 b"
-- A win in 1 worked out from docs/reference/rules.md: White's pawn c3 jumps Black's
-- only king d4 (c3xe5): Black has no king left.
local WIN1 = 'fen = "8/8/8/8/3k4/2P5/8/K7 w", moves = 1, solution = { "c3xe5" }'

-- The head of the experiment files of the rows: one quick game.
local EXP_HEAD = 'name = "typo", games = 1, max_plies = 6, '
-- the usual rest: random bots, no evaluation trace, one plain variant
local R = 'bots = "builtin-random", trace = false, '
local V = 'variants = { { name = "a" } }'

-- ---- the corpus ------------------------------------------------------------------

local ROWS = {
  -- REPL: moves (docs: text shaped like a move is always a move)
  { "repl", "i1-a1", { "i1", "not a square" } },
  { "repl", "k3-h4", { "k3", "not a square" } },
  { "repl", "e9-e5", { "e9", "not a square" } },
  { "repl", "b6a5", { "b6a5", "b6-a5" } },
  { "repl", "d6--e5", { "d6--e5", "d6-e5" } },
  { "repl", "e5 c3", { "e5", "c3", "move" } },
  { "repl", "1. d6-e5 c3d4", { "c3d4", "c3-d4" } },
  { "repl", "play d6-e5 x9", { "x9" } },
  { "repl", "d6-e5=Q", { "Q", "K, B or C" } },
  { "repl", "moves i9", { "i9", "not a square" } },
  { "repl", "d6-f4", { "d6-f4", "not a legal path" } },
  { "repl", "c3-d4", { "c3", "White's" } },
  { "repl", "b8-e7", { "e7", "own piece" } },
  { "repl", "b8-e7", { "e7", "own piece" }, setup = { "fen " .. CAPTURE } },
  { "repl", "h8-g7", { "capture", "compulsory" }, setup = { "fen " .. CAPTURE } },
  { "repl", "fen 8/8/8/8/3k4/2P5/8/K7 x", { "'x'", "w or b" } },
  -- REPL: commands and help topics
  { "repl", "hepl", { "hepl", "did you mean 'help'" } },
  { "repl", "perf 3", { "perf", "did you mean 'perft'" } },
  { "repl", "Rules golomb", { "Rules", "did you mean 'rules'" } },
  { "repl", "hisotry", { "hisotry", "did you mean 'history'" } },
  { "repl", "help rulez", { "rulez", "did you mean 'rules'" } },
  { "repl", "help undoo", { "undoo", "did you mean 'undo'" } },
  { "repl", "perft 2.5", { "2.5" } },
  { "repl", "undo 1.5", { "1.5" } },
  { "repl", "go dpeth 3", { "dpeth", "did you mean 'depth'" } },
  { "repl", "go depth x", { "depth", "'x'" } },
  { "repl", "go nodes 1.5", { "nodes", "1.5" } },
  { "repl", "puzzle scripts/puzzles/win-in-1.lua 0", { "puzzle", "'0'" } },
  { "repl", "puzzle {file}", { "solutoin", "did you mean 'solution'" },
    file = "return { { " .. WIN1:gsub("solution", "solutoin") .. " } }" },
  -- REPL: rules values (docs/reference/rules.md options; README: typos get "did you mean")
  { "repl", "rules majority=maybe", { "majority", "true or false", "'maybe'" } },
  { "repl", "rules majority=yes", { "majority", "'yes'" } },
  { "repl", "rules majority=False", { "majority", "'False'" } },
  { "repl", "rules capture=jumps,majority=flase", { "majority", "'flase'", "true or false" } },
  { "repl", "rules flying_kings", { "flying_kings=true" } },
  { "repl", "rules promote=kb", { "promote", "'kb'" } },
  { "repl", "rules draw_repetition=-3", { "draw_repetition", "-3" } },
  { "repl", "rules capture=jump", { "capture", "'jump'", "did you mean 'jumps'" } },
  { "repl", "rules golmob", { "golmob", "did you mean 'golomb'" } },
  { "repl", "rules majorty=false", { "majorty", "did you mean 'majority'" } },
  { "repl", "rules Majority=false", { "Majority", "did you mean 'majority'" } },
  { "repl", "rules flying_king=true", { "flying_king", "did you mean 'flying_kings'" } },
  { "repl", "rules pawns_capture_backwards=true",
    { "pawns_capture_backwards", "did you mean 'pawns_capture_backward'" } },
  { "repl", "rules first=White", { "first", "'White'", "did you mean 'white'" } },
  { "repl", "rules promote=KQ", { "promote", "Q" } },
  { "repl", "rules draw_repetition=2.5", { "draw_repetition", "2.5" } },
  { "repl", "rules draw_quiet_plies=99999999999999999999", { "draw_quiet_plies", "99999999999999999999" } },
  -- REPL: bots (names and options, docs/guide/bots.md)
  { "repl", "bot randon", { "randon", "did you mean 'random'" } },
  { "repl", "bot Greedy", { "Greedy", "did you mean 'greedy'" } },
  { "repl", "bot engine:levle=3", { "levle", "did you mean 'level'" } },
  { "repl", "bot engine:level=x", { "level", "'x'" } },
  { "repl", "bot random purple", { "purple", "white", "black" } },
  -- REPL: settings (repl.settings, docs/guide/exploring.md "can add commands and settings")
  { "repl", "repl.settings.flipp = true", { "flipp", "did you mean 'flip'" } },
  { "repl", "repl.settings.ascii = 'yes'", { "ascii", "'yes'" } },

  -- subcommands and their options
  { "cli", "mtach random greedy", { "mtach", "did you mean 'match'" } },
  { "cli", "Match random greedy", { "Match", "did you mean 'match'" } },
  { "cli", "help tournamnet", { "tournamnet", "did you mean 'tournament'" } },
  { "cli", "rules shwo golomb", { "shwo", "did you mean 'show'" } },
  { "cli", "tb biuld", { "biuld", "did you mean 'build'" } },
  { "cli", "match random greedy --gmaes 1", { "--gmaes", "did you mean '--games'" } },
  { "cli", "match random greedy --games 1.5", { "--games", "1.5" } },
  { "cli", "match random greedy --time 1,5", { "--time", "1,5" } },
  { "cli", "match random greedy --sprt 0:50", { "--sprt", "0:50" } },
  { "cli", "tb build --peices 2", { "--peices", "did you mean '--pieces'" } },
  { "cli", "tb build --pieces 2.5", { "--pieces", "2.5" } },
  { "cli", "tb build --pieces 7", { "--pieces", "7" } },
  { "cli", "tb plna --pieces 3", { "plna", "did you mean 'plan'" } },
  { "cli", "tb build --ignore-spcae --pieces 2", { "--ignore-spcae", "did you mean '--ignore-space'" } },
  { "cli", "tb build --only KBvKX", { "KBvKX", "not a signature" } },
  { "cli", "tb plan --only KBvKB --pieces 3", { "KBvKB", "up to 3 pieces" } },
  { "cli", "mine --theme stalmate", { "stalmate", "did you mean 'stalemate'" } },
  { "cli", "mine --from randm", { "randm", "did you mean 'random'" } },
  { "cli", "mine --moves 5-1", { "--moves", "5-1" } },
  { "cli", "check --max-seconds x {file}", { "--max-seconds", "'x'" }, file = "return { { " .. WIN1 .. " } }" },
  { "cli", "experiment {exp} --games 1.5", { "--games", "1.5" } },
  { "cli", "tournament random greedy --shard 3/2", { "3/2" } },
  -- --rules of every command (the one reader of rules text)
  { "cli", "match random greedy --rules majority=maybe", { "majority", "'maybe'" } },
  { "cli", "match random greedy --rules golmob", { "golmob", "did you mean 'golomb'" } },
  { "cli", "match random greedy --rules Golomb", { "Golomb", "did you mean 'golomb'" } },
  { "cli", "match random greedy --rules capture=jump", { "'jump'", "did you mean 'jumps'" } },
  { "cli", "match random greedy --rules draw_quiet_plies=99999999999999999999",
    { "draw_quiet_plies", "99999999999999999999" } },
  { "cli", "match random greedy --rules {majorty=false}", { "majorty", "did you mean 'majority'" } },
  { "cli", "tournament random greedy --rules majority=maybe", { "majority", "'maybe'" } },
  { "cli", "tournament random greedy --rules golmob", { "golmob", "did you mean 'golomb'" } },
  { "cli", "mine --rules golmob", { "golmob", "did you mean 'golomb'" } },
  { "cli", "mine --rules majority=maybe", { "majority", "'maybe'" } },
  { "cli", "mine --rules capture=jump", { "'jump'", "did you mean 'jumps'" } },
  { "cli", "tb build --rules majority=maybe", { "majority", "'maybe'" } },
  { "cli", "tb build --rules golmob", { "golmob", "did you mean 'golomb'" } },
  { "cli", { "tb", "probe", "8/8/8/8/8/2k5/8/K7 w", "--rules", "capture=jump" }, { "'jump'", "did you mean 'jumps'" } },
  { "cli", "tb atlas --rules golmob", { "golmob", "did you mean 'golomb'" } },
  { "cli", "tb atlas --vs golmob", { "golmob", "did you mean 'golomb'" } },
  { "cli", "mine --studies --theme zugswang", { "zugswang", "did you mean 'zugzwang'" } },
  { "cli", "experiment {exp} --rules majority=maybe", { "majority", "'maybe'" } },
  { "cli", "experiment {exp} --rules golmob", { "golmob", "did you mean 'golomb'" } },
  { "cli", "experiment {exp} --rules capture=jump", { "'jump'", "did you mean 'jumps'" } },
  { "cli", "rules diff golomb majority=maybe", { "majority", "'maybe'" } },
  { "cli", "rules show golmob", { "golmob", "did you mean 'golomb'" } },
  -- bot specs of match and tournament (names, options)
  { "cli", "match randon greedy", { "randon", "did you mean 'random'" } },
  { "cli", "match random Greedy", { "Greedy", "did you mean 'greedy'" } },
  { "cli", "match engine:levle=3 greedy", { "levle", "did you mean 'level'" } },
  { "cli", "match engine:level=11 greedy", { "level", "11" } },
  { "cli", "match engine:level=2.5 greedy", { "level", "2.5" } },
  { "cli", "match alphabeta:deph=2 greedy", { "deph", "did you mean 'depth'" } },
  { "cli", "match alphabeta:depth=two greedy", { "depth", "'two'" } },
  { "cli", "match mcts:iteratons=50 greedy", { "iteratons", "did you mean 'iterations'" } },
  { "cli", "match builtin-random:depth=2 greedy", { "builtin-random", "no options" } },
  { "cli", "tournament random randon", { "randon", "did you mean 'random'" } },
  { "cli", "tournament random greedy --gauntlet greddy", { "greddy", "did you mean 'greedy'" } },
  { "cli", "tournament random engine:levle=3", { "levle", "did you mean 'level'" } },
  -- tune: its options, its bot, its weights files (docs/notes/engine-history.md, "Tuning the weights")
  { "cli", "tune --out {out} --games 2 --anchor bishp", { "bishp", "did you mean 'bishop'" } },
  { "cli", "tune --out {out} --games 2 --bot engine:levle=3", { "levle", "did you mean 'level'" } },
  { "cli", "tune --out {out} --games 2 --rules golmob", { "golmob", "did you mean 'golomb'" } },
  { "cli", "tune --out {out} --gmaes 2", { "--gmaes", "did you mean '--games'" } },
  { "cli", "tune --out {out} --games 2 --bot engine:weights={file}", { "kign", "did you mean 'king'" } ,
    file = "return { weights = { kign = 300 } }" },
  { "repl", "weights {file}", { "bishp", "did you mean 'bishop'" }, file = "return { weights = { bishp = 1 } }" },

  -- experiment files (docs/guide/experiments.md field table)
  { "experiment file", R .. 'variants = { { name = "a" }, { name = "backward", rule = { pawns_capture_backward = true } } }',
    { "variant 2", "backward", "'rule'", "did you mean 'rules'" } },
  { "experiment file", R .. 'varients = { { name = "a" } }', { "varients", "did you mean 'variants'" } },
  { "experiment file", R .. V .. ', swap_colours = true', { "swap_colours", "did you mean 'swap_colors'" } },
  { "experiment file", R .. V .. ', swap_colors = "yes"', { "swap_colors", "'yes'" } },
  { "experiment file", R .. V .. ', Name = "x"', { "Name", "did you mean 'name'" } },
  { "experiment file", R .. V .. ', random_plies = "4"', { "random_plies", "'4'" } },
  { "experiment file", R .. V .. ', material_every = 0.5', { "material_every", "0.5" } },
  { "experiment file", R .. 'variants = { { name = "a", game = 2 } }', { "game", "did you mean 'games'" } },
  { "experiment file", R .. 'variants = { { name = "a", rules = { majority = "maybe" } } }',
    { "majority", "'maybe'" } },
  { "experiment file", R .. 'variants = { { name = "a", rules = "golmob" } }', { "golmob", "did you mean 'golomb'" } },
  { "experiment file", R .. V .. ', base = { draw_repetiton = 3 }',
    { "draw_repetiton", "did you mean 'draw_repetition'" } },
  { "experiment file", R .. 'variants = { { name = "a", restrict = { white = "no-bishop-move" } } }',
    { "no-bishop-move", "did you mean 'no-bishop-moves'" } },
  { "experiment file", R .. V .. ', measure = { "plies" }', { "'measure'", "did you mean 'measures'" } },
  { "experiment file", R .. V .. ', measures = { "plys" }', { "plys", "did you mean 'plies'" } },
  { "experiment file", R .. V .. ', sweep = { camle = { { 1, 3 } } }', { "camle", "did you mean 'camel'" } },
  { "experiment file", R .. V .. ', strengths = { 1, 3.5 }', { "strengths", "3.5" } },
  { "experiment file", R .. V .. ', strengths = { 1 }, strength_bot = "engine:levle=%d"',
    { "levle", "did you mean 'level'" } },
  { "experiment file", R .. V .. ', thresholds = { drama = 2, leed = 1 }', { "leed", "did you mean 'lead'" } },
  { "experiment file", R .. V .. ', thresholds = { drama = "high" }', { "drama", "high" } },
  { "experiment file", 'trace = false, bots = "randon", ' .. V, { "randon", "did you mean 'random'" } },
  { "experiment file", 'trace = false, bots = { white = "builtin-random", blak = "builtin-random" }, ' .. V,
    { "blak", "did you mean 'black'" } },
  { "experiment file", R .. V .. ', limits = { node = 100 }', { "node", "did you mean 'nodes'" } },
  { "experiment file", 'bots = "builtin-random", trace = { dpeth = 2 }, ' .. V, { "dpeth", "did you mean 'depth'" } },
  -- fitted engines (docs/guide/experiments.md, "Fitted engines")
  { "experiment file", R .. V .. ', fited = true', { "fited", "did you mean 'fitted'" } },
  { "experiment file", R .. V .. ', fitted = { gmaes = 10 }', { "gmaes", "did you mean 'games'" } },
  { "experiment file", R .. V .. ', fitted = { nodes = "many" }', { "nodes", "'many'" } },
  { "experiment file", R .. V .. ', fitted = true', { "builtin-random", "not the engine" } },
  { "cli", "experiment {exp} --fitted nodse=50", { "nodse", "did you mean 'nodes'" } },
  { "cli", "experiment {exp} --weights-cahce x", { "--weights-cahce", "did you mean '--weights-cache'" } },

  -- puzzle files (docs/guide/puzzles.md), checked by cheskers check
  { "puzzle file", WIN1:gsub("solution", "solutoin"), { "solutoin", "did you mean 'solution'" } },
  { "puzzle file", WIN1:gsub("fen", "FEN"), { "FEN", "did you mean 'fen'" } },
  { "puzzle file", WIN1 .. ', tag = { "x" }', { "'tag'", "did you mean 'tags'" } },
  { "puzzle file", WIN1 .. ', auther = "me"', { "auther", "did you mean 'author'" } },
  { "puzzle file", WIN1:gsub("moves = 1", 'moves = "1"'), { "moves", "'1'" } },
  { "puzzle file", WIN1:gsub("moves = 1", "moves = 0"), { "moves", "not 0" } },
  { "puzzle file", WIN1:gsub("moves = 1", "moves = 1.5"), { "moves", "1.5" } },
  { "puzzle file", WIN1 .. ', goal = "mate"', { "goal", "'mate'", "win" } },
  { "puzzle file", WIN1 .. ', rules = "golmob"', { "golmob", "did you mean 'golomb'" } },
  { "puzzle file", WIN1 .. ', rules = { majority = "yes" }', { "majority", "'yes'" } },
  { "puzzle file", WIN1 .. ', title = 5', { "title", "5" } },
  { "puzzle file", WIN1:gsub("c3xe5", "i3xe5"), { "i3", "not a square" } },
  { "cli", "book {file}", { "solutoin", "did you mean 'solution'" },
    file = "return { { " .. WIN1:gsub("solution", "solutoin") .. " } }" },

  -- option tables of the Lua API (docs/reference/lua_api.md); DIR: a path nothing may create
  { "lua", "cheskers.new(nil, { majorty = false })", { "majorty", "did you mean 'majority'" } },
  { "lua", "cheskers.new(nil, { majority = 'no' })", { "majority", "'no'" } },
  { "lua", "cheskers.new(nil, { capture = 'Jumps' })", { "'Jumps'", "did you mean 'jumps'" } },
  { "lua", "cheskers.new(nil, { first = 'White' })", { "'White'", "did you mean 'white'" } },
  { "lua", "cheskers.new(nil, { draw_quiet_plies = 2.5 })", { "draw_quiet_plies", "2.5" } },
  { "lua", "cheskers.new(nil, 'golmob')", { "golmob", "did you mean 'golomb'" } },
  { "lua", "cheskers.new():search{ dpeth = 2 }", { "dpeth", "did you mean 'depth'" } },
  { "lua", "cheskers.new():search{ depth = 2.5 }", { "depth", "2.5" } },
  { "lua", "cheskers.new():search{ depth = '3' }", { "depth", "'3'" } },
  { "lua", "cheskers.new('8/8/8/8/3k4/2P5/8/K7 w'):solve{ move = 1 }", { "'move'", "did you mean 'moves'" } },
  { "lua", "cheskers.new('8/8/8/8/3k4/2P5/8/K7 w'):solve{ moves = 99 }", { "moves", "99" } },
  { "lua", "cheskers.new():eval{ featurs = true }", { "featurs", "did you mean 'features'" } },
  { "lua", "cheskers.tb.build{ peices = 2, dir = DIR }", { "peices", "did you mean 'pieces'" } },
  { "lua", "cheskers.tb.build{ pieces = 2.5, dir = DIR }", { "pieces", "2.5" } },
  { "lua", "cheskers.tb.build{ pieces = 2, dir = DIR, rules = { majorty = false } }",
    { "majorty", "did you mean 'majority'" } },
  { "lua", "require('cheskers.match').run{ a = 'random', b = 'greedy', gmaes = 1, max_plies = 4 }",
    { "gmaes", "did you mean 'games'" } },
  { "lua", "require('cheskers.match').run{ a = 'random', b = 'greedy', games = 1.5, max_plies = 4 }",
    { "games", "1.5" } },
}

-- ---- running the program ------------------------------------------------------------

local function q(s) return H.shell_quote(tostring(s)) end

local read_file, write_file = H.read_file, H.write_file

-- Runs ./cheskers with the argument list args and the text input on
-- standard input, with a timeout, away from the user's start-up file and
-- tablebases. Returns { out =, err =, status = exit status (124: timed out) }.
local function run(args, input)
  local inp, out, err = H.tmpname(".in"), H.tmpname(".out"), H.tmpname(".err")
  write_file(inp, input or "")
  local words = {}
  for i, a in ipairs(args) do words[i] = q(a) end
  local cmd = ("cd %s && env -u CHESKERS_RC -u CHESKERS_TB timeout -k 5 %d ./cheskers %s <%s >%s 2>%s")
    :format(q(ROOT), TIMEOUT, table.concat(words, " "), q(inp), q(out), q(err))
  local _, how, code = os.execute(cmd)
  local res = { out = read_file(out) or "", err = read_file(err) or "", status = how == "exit" and code or 128 + (code or 0) }
  os.remove(inp); os.remove(out); os.remove(err)
  return res
end

-- Whether the folder dir holds nothing (a listing, else "").
local function listing(dir)
  local p = assert(io.popen("ls -A " .. q(dir) .. " 2>&1"))
  local s = p:read("a")
  p:close()
  return (s:gsub("\n", " "):gsub(" $", ""))
end

local function words(s)
  local t = {}
  for w in s:gmatch("%S+") do t[#t + 1] = w end
  return t
end

-- The small budgets added to a command unless the row gives that option:
-- the command ends quickly even when it accepts the typo. {out}: the
-- row's output folder, which must stay empty.
local BUDGET = {
  match = { { "--games", "1" }, { "--max-plies", "4" }, { "--move-timeout", "2" }, { "--quiet" },
            { "--out", "{out}/match.jsonl" } },
  tournament = { { "--games", "1" }, { "--max-plies", "4" }, { "--move-timeout", "2" }, { "--quiet" },
                 { "--out", "{out}/tournament" } },
  mine = { { "--games", "1" }, { "--moves", "1" }, { "--depth", "1" }, { "--max", "1" }, { "--quiet" },
           { "--out", "{out}/mined" } },
  experiment = { { "--games", "1" }, { "--quiet" }, { "--out", "{out}/experiment" } },
  book = { { "--out", "{out}/book.html" } },
  build = { { "--pieces", "2" }, { "--threads", "1" }, { "--dir", "{out}/tb" } },
  probe = { { "--dir", "{out}/tb" } },
  atlas = { { "--dir", "{out}/tb" } },
}

-- The arguments of a command row: its words (or its list), then the budget
-- options it does not give itself, with {file}, {exp} and {out} replaced.
local function command_args(input, paths)
  local args = type(input) == "table" and { table.unpack(input) } or words(input)
  local given = {}
  for _, a in ipairs(args) do given[a] = true end
  for _, opt in ipairs(BUDGET[args[1] == "tb" and args[2] or args[1]] or {}) do
    if not given[opt[1]] then table.move(opt, 1, #opt, #args + 1, args) end
  end
  for i, a in ipairs(args) do
    args[i] = a:gsub("{(%a+)}", paths)
  end
  return args
end

-- A small program that runs the code of a Lua row in the cheskers program,
-- with `cheskers` and DIR (a path nothing may create), and exits 1 with
-- the error message on stderr, or 0 when nothing was raised.
local LUA_RUNNER = [[
local code, dir = arg[1], arg[2]
local env = setmetatable({ cheskers = require "cheskers", DIR = dir }, { __index = _G })
local f = assert(load(code, "=row", "t", env))
local ok, e = pcall(f)
if ok then print("no error") os.exit(0) end
io.stderr:write(tostring(e), "\n")
os.exit(1)
]]

local EXPERIMENT_FILE = "return { " .. EXP_HEAD .. "%s }\n"
local PUZZLE_FILE = "return { { title = \"typo\", %s } }\n"

-- The REPL's output of a session: the setup lines, the line (if any), then
-- `fen` and `rules`, which show the board and the rules.
local function repl_session(setup, line)
  local lines = {}
  for _, l in ipairs(setup or {}) do lines[#lines + 1] = l end
  if line then lines[#lines + 1] = line end
  lines[#lines + 1] = "fen"
  lines[#lines + 1] = "rules"
  return run({ "--norc" }, table.concat(lines, "\n") .. "\n")
end

local baselines = {}
local function repl_baseline(setup)
  local key = table.concat(setup or {}, "\n")
  if not baselines[key] then baselines[key] = repl_session(setup, nil) end
  return baselines[key]
end

-- Runs a row in fresh folders (removed afterwards): its files, and the
-- output folder its command is given. Returns the result of the run and
-- what was done, in words (nil: nothing).
local function run_row(row)
  local surface, input = row[1], row[2]
  local files, out = H.tmpdir(), H.tmpdir()
  local paths = { out = out, file = files .. "/typo.lua", exp = files .. "/typo_exp.lua" }
  if row.file then write_file(paths.file, row.file) end
  write_file(paths.exp, EXPERIMENT_FILE:format(R .. V))
  local res, done
  if surface == "repl" then
    local line = input:gsub("{(%a+)}", paths)
    res = repl_session(row.setup, line)
    local base = repl_baseline(row.setup)
    if base.status ~= 0 then
      done = "the session without the line failed: " .. base.err
    elseif res.out ~= base.out then
      done = "the board or the rules changed, or something was printed: " .. res.out:sub(1, 200)
    end
  else
    local args
    if surface == "cli" then
      args = command_args(input, paths)
    elseif surface == "experiment file" then
      write_file(paths.exp, EXPERIMENT_FILE:format(input))
      args = command_args({ "experiment", "{exp}" }, paths)
    elseif surface == "puzzle file" then
      write_file(paths.file, PUZZLE_FILE:format(input))
      args = { "check", paths.file }
    elseif surface == "lua" then
      write_file(files .. "/runner.lua", LUA_RUNNER)
      args = { files .. "/runner.lua", input, out .. "/tb" }
    else
      error("unknown surface " .. surface)
    end
    res = run(args)
    local left = listing(out)
    if left ~= "" then done = "it wrote into its output folder: " .. left end
  end
  H.rmdir(files); H.rmdir(out)
  return res, done
end

-- What a refused typo must look like (see the top of this file).
local TRACES = { "stack traceback", "attempt to ", "%.lua:%d+:", "stdin:%d+:", "%(command line%):%d+:" }

-- The surfaces whose message is one line (the REPL, a command, a Lua error;
-- a puzzle check prints a report).
local ONE_LINE = { repl = true, cli = true, lua = true }

local function problems_of(row, res, done)
  -- the message, without the usage text that follows some command errors
  local text = (res.err .. res.out):gsub("\n[Uu]sage:.*$", "\n")
  if row[1] == "repl" then text = res.err end
  local problems = {}
  local function add(fmt, ...) problems[#problems + 1] = fmt:format(...) end
  if res.status == 124 or res.status == 137 then
    add("timed out after %d s", TIMEOUT)
  elseif res.status == 0 then
    add("it did not fail (exit status 0)")
  end
  for _, pat in ipairs(TRACES) do
    local hit = text:match("[^\n]*" .. pat .. "[^\n]*")
    if hit then add("a Lua traceback or location: %s", hit) break end
  end
  for _, frag in ipairs(row[3]) do
    if not text:find(frag, 1, true) then add("the message lacks %q", frag) end
  end
  local said = 0
  for _ in text:gmatch("[Dd]id you mean") do said = said + 1 end
  local worded = 0
  for _ in text:gmatch("%(did you mean '[^'\n]+'%?%)") do worded = worded + 1 end
  if worded < said then add("a suggestion is not worded \" (did you mean 'x'?)\"") end
  if ONE_LINE[row[1]] and res.status ~= 0 then
    local n = select(2, text:gsub("[^\n]*%S[^\n]*", ""))
    if n ~= 1 then add("the message is %d lines, not one", n) end
  end
  if done then add("%s", done) end
  return problems
end

local function label(row)
  local input = type(row[2]) == "table" and table.concat(row[2], " ") or row[2]
  if row[1] == "experiment file" and input:sub(1, #R) == R then input = "..., " .. input:sub(#R + 1) end
  input = input:gsub("%s+", " ")
  if #input > 90 then input = input:sub(1, 87) .. "..." end
  return row[1] .. ": " .. input .. (row.setup and (" (after " .. table.concat(row.setup, "; ") .. ")") or "")
end

-- ---- the tests ----------------------------------------------------------------------------

describe("the typo corpus", function()
  teardown(function() H.cleanup() end)

  it("has at least 70 rows, each with words to find", function()
    assert.is_true(#ROWS >= 70, #ROWS .. " rows")
    for i, row in ipairs(ROWS) do
      assert.is_true(type(row[3]) == "table" and #row[3] > 0, "row " .. i .. " has no fragments")
    end
  end)

  for _, row in ipairs(ROWS) do
    it("refuses " .. label(row), function()
      local res, done = run_row(row)
      local problems = problems_of(row, res, done)
      if #problems > 0 then
        -- (a REPL row's standard output is the board and rules shown after it)
        local said = (row[1] == "repl" and res.err or res.err .. res.out):gsub("\n+$", ""):sub(1, 400)
        error(("%s\n  %s\n  output (exit %d): %s"):format(label(row), table.concat(problems, "\n  "),
          res.status, said), 0)
      end
    end)
  end
end)

-- The corrected inputs pass through the same machinery: the scaffolds are
-- sound, and "nothing done" notices what a command does. A row of
-- CONTROLS: surface, input, and whether it changes the session or writes
-- into its output folder.
local CONTROLS = {
  { "repl", "d6-e5", does = true },
  { "repl", "rules majority=false", does = true },
  { "repl", "local x = 1", does = false },
  { "cli", "match random greedy --rules majority=false", does = true },
  { "cli", "tournament random greedy --rules majority=false", does = true },
  { "cli", "mine --rules golomb", does = true },
  { "cli", "tb build --rules majority=false", does = true },
  { "cli", "tune --out {out} --games 1 --nodes 50 --anchor bishop", does = true, status = 1 },
  { "cli", { "tb", "probe", "8/8/8/8/8/2k5/8/K7 w", "--rules", "capture=jumps" }, does = false, status = 1 },
  { "cli", "book {file}", file = "return { { " .. WIN1 .. " } }", does = true },
  { "experiment file", R .. V .. ", swap_colors = true", does = true },
  { "experiment file", 'bots = "engine:nodes=20", trace = false, fitted = { games = 50, nodes = 20 }, ' .. V,
    does = true },
  { "puzzle file", WIN1, does = false },
  { "lua", "cheskers.tb.build{ pieces = 2, dir = DIR }", does = true },
  { "lua", "cheskers.new(nil, { majority = false }):search{ depth = 2 }", does = false },
}

describe("the typo corpus' controls", function()
  teardown(function() H.cleanup() end)

  it("the REPL sessions show the board", function()
    assert.equal(0, repl_baseline().status, repl_baseline().err)
    assert.truthy(repl_baseline().out:find(START, 1, true), repl_baseline().out)
  end)

  for _, row in ipairs(CONTROLS) do
    it("accepts " .. label(row), function()
      local res, done = run_row(row)
      assert.equal(row.status or 0, res.status, res.out .. res.err)
      if row.does then
        assert.truthy(done, "what it did went unnoticed")
      else
        assert.falsy(done, done)
      end
    end)
  end
end)
