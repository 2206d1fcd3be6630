-- cheskers mine --games N [--moves A-B] [--out DIR] ...
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
  local number = require("cheskers.numbers").option
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


-- The most pieces of a table of `tables` for the rules of board (0: none).
-- Every table there is used, a larger set built in part too: a file is
-- written only once its table is whole, after the tables it reads.
local function largest_table(tables, board)
  local most = 0
  for _, info in ipairs(tables:info(board) or {}) do most = math.max(most, info.pieces) end
  return most
end

-- --tb: N random positions the tables cover.
local function mine_tables(m)
  local cheskers, opts = require "cheskers", m.opts
  local rng = require("cheskers.game").rng(opts.seed)
  local most = largest_table(opts.tables, cheskers.new(nil, opts.rules))
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

-- ---- --studies: endgame studies mined from the tables ----------------------
--
-- A study is a table position (White to move, as the tables store them)
-- that White wins with exactly one winning move at every one of its turns
-- along the main line (every other move draws or loses), except in the
-- last opts.duals plies, where other moves may win too but more slowly (a
-- dual as fast would fail `check`); the loser always resists longest. Its
-- material is natural (natural_material below). Candidates come from
-- tables:wins (the longest positions with a single winning move of each
-- signature); the main line is built with tables:moves.

-- The pieces of each side of a signature name ("KBvKP").
local function sides_of(name)
  local w, b = name:match("^(%u+)v(%u+)$")
  local function count(text)
    local n = {}
    for c in text:gmatch(".") do n[c] = (n[c] or 0) + 1 end
    return n
  end
  return count(w), count(b)
end

-- Natural material: no side has more of a kind than its army at the start
-- (2 kings, a bishop, a camel, 8 pawns), so nothing looks promoted, and
-- the winner (White) has at most one more piece other than pawns than the
-- loser (one extra minor, not a crushing majority).
local ARMY = { K = 2, B = 1, C = 1, P = 8 }
local function natural_material(name)
  local w, b = sides_of(name)
  local officers = { 0, 0 }
  for i, side in ipairs { w, b } do
    for kind, n in pairs(side) do
      if n > ARMY[kind] then return false end
      if kind ~= "P" then officers[i] = officers[i] + n end
    end
  end
  return officers[1] - officers[2] <= 1
end

local function value_of(moves, value)
  local list = {}
  for _, mv in ipairs(moves) do
    if mv.value == value then list[#list + 1] = mv end
  end
  return list
end

-- The moves of b by the tables (raises on a damaged file).
local function tb_moves(tables, b)
  local moves, err = tables:moves(b)
  if not moves then error(err, 0) end
  return moves
end

-- The main line from b (the winner to move): a list of moves and the
-- number of winner turns where another (slower) move also won, or nil when
-- a winner's move is not the only win before the last `duals` plies, or
-- the fastest win is not unique. Among longest defences the first that
-- keeps the line sound is taken. memo: the answers by position (hash),
-- false for none (lines of one material merge, so most are known).
local function study_line(tables, b, duals, memo)
  local h = b:hash()
  local known = memo[h]
  if known ~= nil then
    if not known then return nil end
    return table.move(known.line, 1, #known.line, 1, {}), known.duals
  end
  memo[h] = false
  if b:result() then memo[h] = { line = {}, duals = 0 } return {}, 0 end
  local wins, best = value_of(tb_moves(tables, b), "win"), nil
  for _, mv in ipairs(wins) do
    if not best or mv.distance < best.distance then best = mv end
  end
  if not best then return nil end
  for _, mv in ipairs(wins) do
    if mv ~= best and mv.distance == best.distance then return nil end   -- a dual as fast
  end
  if #wins > 1 and best.distance > duals then return nil end
  local c = b:copy()
  c:play(best.move)
  local line, n
  if c:result() then
    line, n = {}, 0
  else
    local replies, longest = tb_moves(tables, c), -1
    for _, mv in ipairs(replies) do
      if mv.value ~= "loss" then return nil end     -- not covered: no study
      longest = math.max(longest, mv.distance)
    end
    for _, mv in ipairs(replies) do
      if mv.distance == longest and not line then
        local cc = c:copy()
        cc:play(mv.move)
        local rest, k = study_line(tables, cc, duals, memo)
        if rest then
          table.insert(rest, 1, mv.move)
          line, n = rest, k
        end
      end
    end
    if not line then return nil end
  end
  table.insert(line, 1, best.move)
  n = n + (#wins > 1 and 1 or 0)
  memo[h] = { line = table.move(line, 1, #line, 1, {}), duals = n }
  return line, n
end

-- b with the other side to move (a fresh board), or nil when that is no
-- legal position.
local function other_side_to_move(b)
  local place, side, rest = b:fen():match("^(%S+) (%a)(.*)$")
  local ok, c = pcall(require("cheskers").new, place .. " " .. (side == "w" and "b" or "w") .. rest, b:rules())
  return ok and c or nil
end

-- The themes of a study's line from b (winner to move): zugzwang (after
-- the key, the same position with the winner to move would be no win for
-- it: the loser loses only because it must move), sacrifice (a winner's
-- move that captures nothing is answered by a capture), promotion choice
-- (the winner promotes where another letter does not win), race (both
-- sides start with pawns and both move one in the line).
local function study_themes(tables, b, line)
  local themes, seen = {}, {}
  local function add(t) if not seen[t] then seen[t] = true themes[#themes + 1] = t end end
  local winner, c = b:turn(), b:copy()
  local pawn_moved = {}
  for i, m in ipairs(line) do
    if c:get(m.from):upper() == "P" then pawn_moved[c:turn()] = true end
    if c:turn() == winner then
      if m.promotion then
        local stem = tostring(m):gsub("=%u$", "")
        for _, mv in ipairs(tb_moves(tables, c)) do
          if mv.move.promotion and mv.value ~= "win" and tostring(mv.move):gsub("=%u$", "") == stem then
            add("promotion choice")
          end
        end
      end
      if not m.is_capture and line[i + 1] and line[i + 1].is_capture then add("sacrifice") end
    elseif i == 2 then
      local flipped = other_side_to_move(c)
      if flipped and not flipped:result() and tables:probe(flipped) ~= "win" then add("zugzwang") end
    end
    c:play(m)
  end
  if pawn_moved.white and pawn_moved.black then add("race") end
  return themes
end

-- The keys of a position and of its images under the symmetries the
-- tables use for pawnless material (the half turn, the long diagonals):
-- positions sharing a key are the same study.
local SYMMETRIES = {
  function(f, r) return f, r end,
  function(f, r) return 7 - f, 7 - r end,
  function(f, r) return r, f end,
  function(f, r) return 7 - r, 7 - f end,
}
local function position_keys(b)
  local pawnless = #b:pieces("white", "P") + #b:pieces("black", "P") == 0
  local keys = {}
  for i = 1, pawnless and #SYMMETRIES or 1 do
    local parts = {}
    for _, sq in ipairs(require("cheskers").SQUARES) do
      local piece = b:get(sq)
      if piece then
        local f, r = SYMMETRIES[i](sq:byte(1) - 97, sq:byte(2) - 49)
        parts[#parts + 1] = string.char(97 + f, 49 + r) .. piece
      end
    end
    table.sort(parts)
    keys[i] = table.concat(parts, ",") .. " " .. b:turn()
  end
  return keys
end

-- Marks every position of a study's line as seen (with its images).
local function mark_line(seen, b, line)
  local c = b:copy()
  for i = 0, #line do
    if i > 0 then c:play(line[i]) end
    for _, k in ipairs(position_keys(c)) do seen[k] = true end
  end
end

-- Whether the line from b meets a seen position within its first
-- STUDY_JOIN plies (then it is a variant of a study already taken).
local STUDY_JOIN = 4
local function joins_seen(seen, b, line)
  local c = b:copy()
  for i = 0, math.min(STUDY_JOIN, #line) do
    if i > 0 then c:play(line[i]) end
    for _, k in ipairs(position_keys(c)) do
      if seen[k] then return true end
    end
  end
  return false
end

local function count_pieces(name) return #name - 1 end

-- The ranking: longer first, then fewer pieces, then fewer duals at the
-- end, then the position text (a stable order).
local function study_before(x, y)
  if x.p.moves ~= y.p.moves then return x.p.moves > y.p.moves end
  if x.pieces ~= y.pieces then return x.pieces < y.pieces end
  if x.duals ~= y.duals then return x.duals < y.duals end
  return x.p.fen < y.p.fen
end

local function has(list, x)
  for _, v in ipairs(list) do if v == x then return true end end
  return false
end

-- The puzzle of study b (White to move) with its main line, or nil when
-- its themes lack opts.theme or it fails `check --tb`.
local function study_puzzle(m, name, b, line, duals)
  local opts, tables = m.opts, m.opts.tables
  local texts, c = {}, b:copy()
  for i, mv in ipairs(line) do
    texts[i] = tostring(mv)
    c:play(mv)
  end
  local _, how = c:result()
  local k = (#line + 1) // 2
  local p = make_puzzle(m, b, k, texts, how, "cheskers mine --studies, " .. name)
  p.title = ("%s: White to play wins in %d"):format(name:gsub("v", " v "), k)
  p.tags = { "study", "tablebase" }
  for _, t in ipairs(study_themes(tables, b, line)) do p.tags[#p.tags + 1] = t end
  p.tags[#p.tags + 1] = how
  if opts.theme and not has(p.tags, opts.theme) then return nil end
  p.comment = ("Only one winning move at each of White's turns%s; mined from the tables."):format(
    duals > 0 and (", but for %s in the last %d plies (slower wins too)"):format(
      require("cheskers").plural(duals, "turn"), opts.duals) or "")
  if not require("cheskers.puzzle").check(p, { tb = tables }).ok then return nil end
  return p
end

-- The studies of one signature: at most opts.per_signature, longest
-- first, with a quiet key, none joining the line of another within its
-- first two moves.
local function signature_studies(m, info, board)
  local opts, tables = m.opts, m.opts.tables
  local list, err = tables:wins(board, info.name, 2 * opts.lo - 1, true, opts.candidates)
  if not list then error(err, 0) end
  local found, seen, memo = {}, {}, {}
  for _, cand in ipairs(list) do
    if #found >= opts.per_signature then break end
    local b = require("cheskers").new(cand.fen, opts.rules)
    local line, duals
    if cand.distance <= 2 * opts.hi - 1 then line, duals = study_line(tables, b, opts.duals, memo) end
    if line and not line[1].is_capture and not joins_seen(seen, b, line) then
      mark_line(seen, b, line)
      local p = study_puzzle(m, info.name, b, line, duals)
      if p then found[#found + 1] = { p = p, pieces = count_pieces(info.name), duals = duals } end
    end
  end
  return found
end

-- The tables --studies walks: those of opts.signature (names separated
-- by commas), else every table of natural material there (of opts.pieces
-- pieces when given). Raises on a name with no table.
local function study_tables(opts, board)
  local cheskers = require "cheskers"
  local infos, err = opts.tables:info(board)
  if not infos then error(err, 0) end
  local todo, by_name, names = {}, {}, {}
  for _, info in ipairs(infos) do by_name[info.name], names[#names + 1] = info, info.name end
  if opts.signature then
    for name in (opts.signature .. ","):gmatch("([^,]*),") do
      if not by_name[name] then
        error(("no table %s in %s%s"):format(name, opts.tables:dir(), cheskers.did_you_mean(name, names)), 0)
      end
      todo[#todo + 1] = by_name[name]
    end
    return todo
  end
  for _, info in ipairs(infos) do
    if natural_material(info.name) and (not opts.pieces or info.pieces == opts.pieces) then
      todo[#todo + 1] = info
    end
  end
  if #todo == 0 then
    error(("no tables%s in %s for these rules: build them with `%s`"):format(
      opts.pieces and (" of %d pieces"):format(opts.pieces) or "", opts.tables:dir(),
      require("cheskers.puzzle").build_hint(board, opts.tables:dir(), opts.pieces)), 0)
  end
  return todo
end

-- --studies: every table of natural material (or opts.signature), ranked.
local function mine_studies(m)
  local cheskers, opts = require "cheskers", m.opts
  local board = cheskers.new(nil, opts.rules)
  local todo = study_tables(opts, board)
  local all = {}
  for i, info in ipairs(todo) do
    for _, s in ipairs(signature_studies(m, info, board)) do all[#all + 1] = s end
    if opts.progress then opts.progress(i, #todo, #all, info.name) end
  end
  table.sort(all, study_before)
  for i, s in ipairs(all) do
    if opts.max and i > opts.max then break end
    s.p.source = s.p.source .. (", rank %d"):format(i)
    m.found[#m.found + 1] = s.p
    if opts.found then opts.found(s.p, require("cheskers").new(s.p.fen, opts.rules):hash()) end
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
-- progress(i, n, found [, signature]), found(p, hash).
local function mine(opts)
  local m = new_miner(opts)
  if opts.studies then
    mine_studies(m)
  elseif opts.tables then
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
local run_studies
local STUDY_THEMES = { "zugzwang", "sacrifice", "promotion choice", "race", "stalemate", "kings" }
local STUDY_CANDIDATES = 100000   -- the longest positions looked at in each signature

local function puzzle_rules(text)
  if text == nil then return nil end
  local rules, err = require("cheskers.rulearg").parse(text)
  if rules == nil then error("--rules: " .. err, 0) end
  if type(rules) == "table" and (rules.filter ~= nil or rules.result ~= nil) then
    error("--rules: rules with hooks (filter, result) cannot be written into puzzle files", 0)
  end
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
  return function(g, n, k, name)
    io.stderr:write(string.format("\r%s %d/%d: %s%s", what, g, n, require("cheskers").plural(k, "puzzle"),
      name and (" (%s)%s"):format(name, (" "):rep(8 - #name)) or ""))
    if g == n then io.stderr:write("\n") end
    io.stderr:flush()
  end
end

-- The summary line: how many of each length, and where.
local function summary(opts, list, lo, hi)
  local counts, parts = {}, {}
  for _, p in ipairs(list) do counts[p.moves] = (counts[p.moves] or 0) + 1 end
  for k = lo, hi do
    if counts[k] or hi - lo < 15 then parts[#parts + 1] = string.format("%d in %d", counts[k] or 0, k) end
  end
  io.stdout:write(string.format("%s (%s) written to %s\n", require("cheskers").plural(#list, "puzzle"),
    table.concat(parts, ", "), opts.file and (opts.out .. "/" .. opts.file) or opts.out))
end

-- cheskers mine --studies
function run_studies(opts)
  local cli, S = require "cheskers.cli", require "cheskers.schema"
  if opts.theme ~= nil then cli.check_option("--theme", opts.theme, S.one_of(STUDY_THEMES)) end
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
  local list = mine { studies = true, seed = 1, tables = tables, lo = lo, hi = hi, duals = opts.duals, rules = rules,
                      per_signature = opts.per_signature, signature = opts.signature, max = opts.max,
                      pieces = opts.pieces, theme = opts.theme,
                      candidates = STUDY_CANDIDATES, found = puzzle_writer(opts, header),
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
  if opts.theme ~= nil then cli.check_option("--theme", opts.theme, S.one_of { "stalemate", "kings" }) end
  local lo, hi = parse_range(opts.moves or "1-5", opts.tb and 64 or 15)
  local rules = puzzle_rules(opts.rules)
  local puzzle = require "cheskers.puzzle"
  mkdir(opts.out)
  local header = string.format("Mined by cheskers mine --games %d --moves %s --seed %d%s%s", opts.games,
    opts.moves or "1-5", opts.seed, opts.tb and " --tb" or opts.from == "random" and " --from random" or "",
    opts.rules and (" --rules %q"):format((opts.rules:gsub("%s+", " "))) or "")
  local found = puzzle_writer(opts, header)
  local progress = progress_line(opts, opts.from == "random" and "position" or "game")
  local list = mine { games = opts.games, lo = lo, hi = hi, seed = opts.seed, depth = opts.depth,
                      max = opts.max, rules = rules, progress = progress, found = found,
                      from = opts.from, pieces = opts.pieces, theme = opts.theme,
                      tables = opts.tb and puzzle.tables(opts.tb) }
  summary(opts, list, lo, hi)
  return 0
end

return {
  summary = "find puzzles (unique forced wins) in self-play games",
  usage = parser():get_help(),
  run = run,
  mine = mine,
}
