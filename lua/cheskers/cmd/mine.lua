-- cheskers mine --games N [--moves A-B] [--out DIR] ...
-- Plays self-play games (through cheskers.game) and keeps the positions
-- where the side to move has a unique forced win (no cooks, no duals along
-- the main line) in A to B moves, writing them as puzzle files. With
-- --tb DIR it finds endgame studies in the tablebases instead.

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
passes `cheskers check --tb TBDIR`.]]

local EPILOG = [[
Games are varied by a few random opening moves and an occasional random
move; a player with a forced win plays it only now and then, so that the
games go on past their first puzzle. The games depend only on the seed: a
run killed at any moment and run again writes the same files.]]

local function parser()
  local p = require("cheskers.cli").parser("cheskers mine", DESCRIPTION, EPILOG)
  p:option("--games", "games to play (required)"):convert(math.tointeger)
  p:option("--moves", "win lengths wanted, A-B or one number", "1-5")
  p:option("--out", "output folder (created if missing)", ".")
  p:option("--file", "write every puzzle into DIR/NAME (a list) instead")
  p:option("--seed", "random seed; the games depend only on it", "1"):convert(math.tointeger)
  p:option("--depth", "engine search depth for the moves played", "2"):convert(math.tointeger)
  p:option("--max", "stop after N puzzles"):convert(math.tointeger)
  p:option("--rules", "the rules (default golomb): a preset, name=value options, a {...} table, "
           .. "a rule file or FILE.lua:VARIANT, as every --rules (written into each puzzle)")
  p:option("--from", "games, or random: N random positions (kings and up to --pieces other "
           .. "pieces a side)", "games")
  p:option("--pieces", "--from random: most extra pieces a side", "4"):convert(math.tointeger)
  p:option("--theme", "keep only wins that end so: stalemate or kings")
  p:option("--tb", "find studies in the tablebases of this directory")
  p:flag("--quiet", "no progress on stderr")
  return p
end

local function parse_range(text, most)
  local a, b = text:match("^(%d+)%-(%d+)$")
  if not a then a = text:match("^(%d+)$") b = a end
  a, b = tonumber(a), tonumber(b)
  if not a or a < 1 or b < a or b > most then
    error(string.format("--moves must be A-B with 1 <= A <= B <= %d, or one number%s, not '%s'", most,
      most == 15 and " (up to 64 with --tb)" or "", text), 0)
  end
  return a, b
end

-- The move to play: a random one now and then, else the engine's choice
-- (b:search) or a greedy one: a capture of the most pieces, else random.
local function choose(b, moves, depth, rng)
  if rng(100) <= 15 then return moves[rng(#moves)] end
  if b.search then
    local ok, res = pcall(b.search, b, { depth = depth })
    if ok and res and res.move then return res.move end
    if not ok and require("cheskers").error_code(res) == "interrupted" then error(res, 0) end
  end
  local best, bestn = {}, -1
  for _, m in ipairs(moves) do
    local n = #m.captures
    if n > bestn then best, bestn = { m }, n elseif n == bestn then best[#best + 1] = m end
  end
  return best[rng(#best)]
end

local store = require "cheskers.store"

local function mkdir(dir)
  local ok, err = store.mkdir(dir)
  if not ok then error(err, 0) end
end


-- An empty board with a random side to move, and its free squares.
local function empty_board(cheskers, rng, rules)
  local b = cheskers.new("8/8/8/8/8/8/8/8 " .. (rng(2) == 1 and "w" or "b"), rules)
  local free = {}
  for _, sq in ipairs(cheskers.SQUARES) do free[#free + 1] = sq end
  return b, free
end

-- Puts letter on a random free square (pawns never on their promotion rank).
local function put_random(b, free, rng, letter)
  for _ = 1, 20 do
    local i = rng(#free)
    local sq = free[i]
    local rank = sq:sub(2, 2)
    if not ((letter == "P" and rank == "8") or (letter == "p" and rank == "1")) then
      b:put(sq, letter)
      table.remove(free, i)
      return
    end
  end
end

-- The board b as a fresh position (validated, no history), or nil when it
-- is not legal or the game is already over.
local function fresh_position(cheskers, b, rules)
  local ok, fresh = pcall(cheskers.new, b:fen(), rules)
  if not ok or fresh:result() then return nil end
  return fresh
end

-- A random position for --from random: both sides' kings (1 or 2) and up
-- to `extra` other pieces each, on random dark squares; pawns never on
-- their promotion rank. nil when the game would already be over.
local function random_position(cheskers, rng, rules, extra)
  local b, free = empty_board(cheskers, rng, rules)
  local function put(letter) put_random(b, free, rng, letter) end
  local kinds = "PPPPBCK"
  for _, side in ipairs { "upper", "lower" } do
    local function L(c) return side == "upper" and c or c:lower() end
    for _ = 1, rng(2) do put(L "K") end
    for _ = 1, rng(extra + 1) - 1 do
      local k = rng(#kinds)
      put(L(kinds:sub(k, k)))
    end
  end
  return fresh_position(cheskers, b, rules)
end

-- A random position for --tb: 3 to `most` pieces, a king a side and the
-- others of any kind and side.
local function table_position(cheskers, rng, rules, most)
  local b, free = empty_board(cheskers, rng, rules)
  local letters = "KBCPkbcp"
  put_random(b, free, rng, "K")
  put_random(b, free, rng, "k")
  for _ = 1, rng(most - 2) do
    local k = rng(#letters)
    put_random(b, free, rng, letters:sub(k, k))
  end
  return fresh_position(cheskers, b, rules)
end

local FOUND_ENOUGH = setmetatable({}, { __tostring = function() return "found enough" end })

-- The state of a mining run: its options, a generator of its own
-- (deterministic, independent of math.random), the puzzles found and the
-- positions seen.
local function new_miner(opts)
  return { opts = opts, rng = require("cheskers.game").rng(opts.seed), found = {}, seen = {} }
end

local function enough(m) return m.opts.max and #m.found >= m.opts.max end

-- The puzzle of position b with a win in k (line: its main line).
local function make_puzzle(m, b, k, line, how, source)
  local opts = m.opts
  local p = { fen = b:fen(), goal = "win", moves = k, solution = line,
              title = string.format("%s to play wins in %d", b:turn() == "white" and "White" or "Black", k),
              tags = { opts.from == "random" and "generated" or "mined",
                       how == "stalemate" and "stalemate" or "kings" },
              source = source }
  if opts.rules then p.rules = opts.rules end
  return p
end

-- Looks at position b: returns the first move of a win within opts.hi (or
-- nil), and the length of the puzzle kept (or nil).
local function consider(m, b, source, kept_ok)
  local opts, puzzle = m.opts, require "cheskers.puzzle"
  local s = b:solve { moves = opts.hi, all = false }
  if not s.win then return nil end
  local k, h = s.shortest, b:hash()
  if k < opts.lo or not kept_ok or m.seen[h] then return s.moves[1] end
  -- a key that is (nearly) the only legal move makes no puzzle
  if b:count() < 3 then return s.moves[1] end
  m.seen[h] = true
  local line = puzzle.main_line(b, k)
  if not line then return s.moves[1] end
  local c = b:copy()
  for _, t in ipairs(line) do c:play(t) end
  local _, how = c:result()
  if opts.theme and how ~= opts.theme then return s.moves[1] end
  local p = make_puzzle(m, b, k, line, how, source)
  if not puzzle.check(p).ok then return s.moves[1] end
  m.found[#m.found + 1] = p
  if opts.found then opts.found(p, h) end
  return s.moves[1], k
end

-- A study from the tables in position b: the side to move wins in lo..hi
-- moves with exactly one winning move, and a main line without duals that
-- passes check. Returns the puzzle or nil.
local function table_study(m, b, source)
  local opts, puzzle, tables = m.opts, require "cheskers.puzzle", m.opts.tables
  local value, dist = b:probe(tables)
  if value ~= "win" then return nil end
  local k, h = (dist + 1) // 2, b:hash()
  if k < opts.lo or k > opts.hi or m.seen[h] or b:count() < 3 then return nil end
  m.seen[h] = true
  local wins = 0
  for _, mv in ipairs(b:tb_moves(tables)) do
    if mv.value == "win" then wins = wins + 1 end
  end
  if wins ~= 1 then return nil end
  local ok, line = pcall(puzzle.main_line, b, k, tables)
  if not ok then
    if require("cheskers").error_code(line) == "interrupted" then error(line, 0) end
    return nil
  end
  if not line then return nil end
  local c = b:copy()
  for _, t in ipairs(line) do c:play(t) end
  local _, how = c:result()
  if opts.theme and how ~= opts.theme then return nil end
  local p = make_puzzle(m, b, k, line, how, source)
  p.tags = { "endgame", "tablebase", p.tags[2] }     -- and how it ends
  if not puzzle.check(p, { tb = tables }).ok then return nil end
  return p, h
end


-- --tb: N random positions the tables cover.
local function mine_tables(m)
  local cheskers, opts = require "cheskers", m.opts
  local rng = require("cheskers.game").rng(opts.seed)
  local most = opts.tables:max_pieces(cheskers.new(nil, opts.rules)) or 0
  if most < 3 then error("no tablebases with 3 or more pieces in " .. opts.tables:dir(), 0) end
  for i = 1, opts.games do
    local b = table_position(cheskers, rng, opts.rules, most)
    local p, h
    if b then p, h = table_study(m, b, string.format("cheskers mine --tb --seed %d, position %d", opts.seed, i)) end
    if p then
      m.found[#m.found + 1] = p
      if opts.found then opts.found(p, h) end
      if enough(m) then return end
    end
    if opts.progress then opts.progress(i, opts.games, #m.found) end
  end
end

-- --from random: N random positions.
local function mine_random(m)
  local cheskers, opts = require "cheskers", m.opts
  for i = 1, opts.games do
    local b = random_position(cheskers, m.rng, opts.rules, opts.pieces or 4)
    if b then
      consider(m, b, string.format("cheskers mine --from random --seed %d, position %d", opts.seed, i), true)
      if enough(m) then return end
    end
    if opts.progress then opts.progress(i, opts.games, #m.found) end
  end
end

-- The player of the mined games (both sides; a bot of cheskers.game): it
-- looks for puzzles at every position past the opening, plays a forced win
-- half the time, else choose().
local function miner_bot(m)
  local opts, rng = m.opts, m.rng
  local bot = { name = "miner", builtin = true, game = 0 }
  local ply, opening, skip = 0, 0, 0
  function bot.new_game() ply, opening, skip = 0, 2 + rng(6), 0 end
  function bot.choose(b, _, moves)
    ply = ply + 1
    if #moves == 0 then return nil end
    local won, k
    if ply > opening then
      won, k = consider(m, b, string.format("cheskers mine --seed %d, game %d, ply %d", opts.seed, bot.game, ply),
                        ply > skip)
      if k then skip = ply + 2 * k end
      if enough(m) then error(FOUND_ENOUGH, 0) end
    end
    if won and rng(2) == 1 then return won end
    return choose(b, moves, opts.depth, rng)
  end
  return bot
end

local function mine_games(m)
  local cheskers, game, opts = require "cheskers", require "cheskers.game", m.opts
  local bot = miner_bot(m)
  for g = 1, opts.games do
    bot.game = g
    local ok, err = pcall(game.play, { white = bot, black = bot, board = cheskers.new(nil, opts.rules),
                                       max_plies = 300, repetition = 0, record_moves = false })
    if not ok then
      if err == FOUND_ENOUGH then return end
      error(err, 0)
    end
    if opts.progress then opts.progress(g, opts.games, #m.found) end
  end
end

-- Mines; returns the list of puzzles found. opts: games, lo, hi, seed,
-- depth, max, rules, from ("games" or "random"), theme ("stalemate" or
-- nil), tables (a tables object: studies from the tablebases),
-- progress(i, n, found), found(p, hash).
local function mine(opts)
  local m = new_miner(opts)
  if opts.tables then
    mine_tables(m)
  elseif opts.from == "random" then
    mine_random(m)
  else
    mine_games(m)
  end
  return m.found
end

-- The rules of --rules (rulearg.parse, as every command reads --rules),
-- refused when a puzzle file cannot hold them (hooks); nil: golomb.
local function puzzle_rules(text)
  if text == nil then return nil end
  local rules, err = require("cheskers.rulearg").parse(text)
  if rules == nil then error("--rules: " .. err, 0) end
  if type(rules) == "table" and (rules.filter ~= nil or rules.result ~= nil) then
    error("--rules: rules with hooks (filter, result) cannot be written into puzzle files", 0)
  end
  return rules
end

local function run(args)
  local ap = parser()
  local opts = require("cheskers.cli").parse_args(ap, args)
  if not opts then return 0 end
  if not opts.games or opts.games < 0 then error("--games N is required (N >= 0)\n" .. ap:get_usage(), 0) end
  if not opts.seed then error("--seed must be an integer", 0) end
  if not opts.depth or opts.depth < 1 then error("--depth must be an integer >= 1", 0) end
  local cli, S = require "cheskers.cli", require "cheskers.schema"
  cli.check_option("--from", opts.from, S.one_of { "games", "random" })
  if opts.theme ~= nil then cli.check_option("--theme", opts.theme, S.one_of { "stalemate", "kings" }) end
  cli.check_option("--pieces", opts.pieces, S.int { min = 0, max = 10 })
  local lo, hi = parse_range(opts.moves, opts.tb and 64 or 15)
  local rules = puzzle_rules(opts.rules)
  local puzzle = require "cheskers.puzzle"
  mkdir(opts.out)
  local header = string.format("Mined by cheskers mine --games %d --moves %s --seed %d%s%s", opts.games,
    opts.moves, opts.seed, opts.tb and " --tb" or opts.from == "random" and " --from random" or "",
    opts.rules and (" --rules %q"):format((opts.rules:gsub("%s+", " "))) or "")
  local so_far = {}
  local function found(p, hash)
    if opts.file then   -- the whole file again: an interrupted run keeps its finds
      so_far[#so_far + 1] = p
      store.write_file(opts.out .. "/" .. opts.file, puzzle.serialize(so_far, header))
      return
    end
    local name = string.format("%s/win%d-%016x.lua", opts.out, p.moves, hash)
    store.write_file(name, puzzle.serialize({ p }))   -- whole files only, even when killed
  end
  local progress
  if not opts.quiet then
    progress = function(g, n, k)
      io.stderr:write(string.format("\r%s %d/%d: %s", opts.from == "random" and "position" or "game",
        g, n, require("cheskers").plural(k, "puzzle")))
      if g == n then io.stderr:write("\n") end
      io.stderr:flush()
    end
  end
  local list = mine { games = opts.games, lo = lo, hi = hi, seed = opts.seed, depth = opts.depth,
                      max = opts.max, rules = rules, progress = progress, found = found,
                      from = opts.from, pieces = opts.pieces, theme = opts.theme,
                      tables = opts.tb and puzzle.tables(opts.tb) }
  local counts = {}
  for _, p in ipairs(list) do counts[p.moves] = (counts[p.moves] or 0) + 1 end
  local parts = {}
  for k = lo, hi do parts[#parts + 1] = string.format("%d in %d", counts[k] or 0, k) end
  io.stdout:write(string.format("%s (%s) written to %s\n", require("cheskers").plural(#list, "puzzle"),
    table.concat(parts, ", "),
    opts.file and (opts.out .. "/" .. opts.file) or opts.out))
  return 0
end

return {
  summary = "find puzzles (unique forced wins) in self-play games",
  usage = parser():get_help(),
  run = run,
  mine = mine,
}
