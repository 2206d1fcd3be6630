-- cheskers.puzzle: puzzle files, loaded as data in a sandbox, and the
-- checker that says whether a puzzle is sound.
--
-- A puzzle file is Lua text returning one puzzle or a list of them:
--   { fen = "...", goal = "win", moves = 3,
--     solution = { "c3-d4", "e5xc3", ... },   -- solver and defender alternating
--     rules = "golomb" or { majority = false, ... },   -- optional
--     title = "...", author = "...", tags = { "..." } } -- optional
-- goal "win": the side to move forces a win (all enemy kings captured or
-- the enemy stalemated) within `moves` of its own moves.
--
--   puzzle.load(path [, opts])   -> list of puzzles | nil, message
--   puzzle.load_string(text, name [, opts]) -> the same, from text
--       opts.each: a bad puzzle stays in the list with p.invalid (why)
--       instead of rejecting the file
--   puzzle.goal_text(p [, report]) -> "Black to play and win in 2."
--   puzzle.check(p [, opts])     -> report (see check below); opts.tb: a
--       tables object (cheskers.tb.open): the solver answers the positions
--       they cover exactly, and `moves` may go past the solver's 15 up to
--       puzzle.MAX_MOVES_TB (a long endgame study); without tables such a
--       puzzle fails with "needs tablebases: cheskers tb build --pieces N"
--       (N: the position's pieces), and so it does when the tables do not
--       cover it and hold fewer pieces than it has.
--   puzzle.pieces(b)             -> the number of pieces on board b
--   puzzle.not_covered(b, tables) -> "no table covers this position (5
--       pieces): the tables in tb go to 4 pieces; build them with `...`"
--   puzzle.build_hint(b [, dir [, pieces]]) -> "cheskers tb build --pieces N
--       [--rules 'SPEC'] [--dir DIR]": the tables b needs (DIR quoted for sh
--       when it holds more than letters, digits and -_./=:,@)
--   puzzle.tables([dir])         -> the tables of dir, else of $CHESKERS_TB
--       when it is set, else nil (for check --tb and mine --tb)
--   puzzle.format_report(r)      -> text for people
--   puzzle.serialize(list)       -> the text of a puzzle file
--   puzzle.file_rules(rules)     -> rules as a puzzle file holds them (a
--       preset name or a table of options), or nil, why (rules with hooks)
--   puzzle.refute(b, move, n)    -> defence | false, nil  or  nil, length
--
-- The file is read as data by cheskers.sandbox.load_data (text only, an
-- empty environment, limits on size, nesting, instructions, memory, time;
-- only plain data comes out).

local cheskers = require "cheskers"
local sandbox = require "cheskers.sandbox"
local luadata = require "cheskers.luadata"
local S = require "cheskers.schema"

local puzzle = {}

puzzle.MAX_SOURCE = require("cheskers.files").CAPS.puzzle   -- bytes of puzzle file text
puzzle.MAX_INSTRUCTIONS = 1000000       -- Lua VM instructions to run the file
puzzle.MAX_MEMORY_KB = 4096             -- memory growth while it runs
puzzle.MAX_PUZZLES = 10000
puzzle.MAX_NESTING = 40                 -- brackets in the file's text
puzzle.MAX_MOVES = 15                   -- the solver's limit
puzzle.MAX_MOVES_TB = 64                -- its limit with tablebases (a win into table positions)
puzzle.MAX_NODES = 10000000             -- solver nodes per search in check (about 10 s)

puzzle.MAX_SECONDS = 30                 -- CPU seconds for one check (then no new search)

local budget = puzzle.MAX_NODES         -- the node budget of each search of the check running
-- The check's time limit is CPU time (docs/guide/puzzles.md: a loaded machine does
-- not make a puzzle "too hard"); the time a report shows is elapsed time.
local cpu_clock = os.clock
local deadline = nil                    -- cpu_clock() past which it starts no search
local tables = nil                      -- the tablebases of the check running (opts.tb)

-- The node budget for the next search; raises when the check is past its time.
local function nodes_left()
  if deadline and cpu_clock() > deadline then error("check time limit", 0) end
  return budget
end

-- The options of a solver call within n moves: the budget and the tables
-- (tb: these, else the check's).
local function within(n, all, tb)
  return { moves = n, nodes = nodes_left(), all = all, tb = tb or tables }
end

-- ---- the puzzle schema -----------------------------------------------------

-- A puzzle's rules: a preset name or a table of rule options whose values
-- are data (cheskers.rules checks them when the puzzle is checked); the
-- hooks (filter, result) are code, never taken from a puzzle.
local RULES = S.either("string", S.map(S.either("string", "number", "boolean", "table")))
local function read_rules(v, where)
  if type(v) ~= "string" and type(v) ~= "table" then
    return nil, ("%s must be a preset name or a table of rule options, not %s"):format(where, S.show(v))
  end
  local t, err = S.read(v, RULES, where)
  if t == nil then return nil, err end
  for _, hook in ipairs(type(t) == "table" and { "filter", "result" } or {}) do
    if t[hook] ~= nil then return nil, ("%s: hooks ('%s') cannot come from a puzzle file"):format(where, hook) end
  end
  return t
end

-- The fields of a puzzle (docs/guide/puzzles.md lists them; a test checks that
-- the two agree). fen and moves are required.
local function fields(extra)
  local f = {
    fen = "string",
    goal = S.one_of { "win" },
    moves = S.int { min = 1, max = puzzle.MAX_MOVES_TB },
    solution = S.list("string", { item = function(i) return "solution move " .. i end }),
    rules = S.custom(read_rules, "a preset name or a table of rule options"),
    title = "string", author = "string", source = "string", comment = "string", id = "string",
    tags = S.list("string"),
  }
  for k, v in pairs(extra or {}) do f[k] = v end
  return f
end
puzzle.SCHEMA = S.record { fields = fields(), required = { "fen", "moves" } }
-- a puzzle as load returns it: with the file's name and its place there
local LOADED = S.record { fields = fields { file = "string", index = "integer" }, required = { "fen", "moves" } }

-- The options of load and check.
local LOAD_OPTIONS = S.record { noun = "option", what = "a table of options", fields = { each = "boolean" } }
local CHECK_OPTIONS = S.record { noun = "option", what = "a table of options", fields = {
  max_nodes = require("cheskers.numbers").spec "--max-nodes",      -- the ranges of cheskers check's options
  max_seconds = require("cheskers.numbers").spec "--max-seconds", defences = "boolean",
  tb = S.custom(function(v) return v end, "tables (cheskers.tb.open)"),   -- checked by the solver
} }

-- ---- the sandbox -----------------------------------------------------------

-- The limits of cheskers.sandbox.load_data, for puzzle files.
local function data_limits()
  return { source = puzzle.MAX_SOURCE, instructions = puzzle.MAX_INSTRUCTIONS,
           memory = puzzle.MAX_MEMORY_KB * 1024, nesting = puzzle.MAX_NESTING }
end

-- Compiles and runs text in the sandbox: the value it returns, or nil, message.
function puzzle.run_sandboxed(text, name)
  return sandbox.load_data(text, name, data_limits())
end

-- ---- puzzles as data -------------------------------------------------------

-- Checks one puzzle table against the schema (spec: puzzle.SCHEMA for
-- what a file gives, LOADED for what load returns) and fills in the
-- defaults: t, or nil and the message (without the puzzle's name: the
-- caller says which puzzle).
local function validate(t, spec)
  if type(t) ~= "table" then return nil, "a puzzle must be a table, not " .. S.show(t) end
  local ok, err = S.read(t, spec or LOADED)
  if not ok then return nil, err end
  t.goal = t.goal or "win"
  t.solution = t.solution or {}
  return t
end

-- "puzzle 3 ('Two kings')": which puzzle of a file a message is about.
local function puzzle_where(i, p)
  local title = type(p) == "table" and rawget(p, "title")
  if type(title) == "string" then return ("puzzle %d (%s)"):format(i, S.show(title)) end
  return "puzzle " .. i
end

-- Turns what a file returned into a list of puzzles: list or nil, message.
local function to_list(data, name)
  if type(data) ~= "table" then return nil, name .. ": the file must return a table" end
  local list = {}
  if data.fen ~= nil or data.moves ~= nil then
    list[1] = data
  else
    for k in pairs(data) do
      if math.type(k) ~= "integer" or k < 1 or k > #data then
        return nil, name .. ": a list of puzzles must have only the keys 1..n (found '" ..
                    tostring(k) .. "')"
      end
    end
    for i = 1, #data do list[i] = data[i] end
  end
  if #list == 0 then return nil, name .. ": no puzzles in the file" end
  if #list > puzzle.MAX_PUZZLES then return nil, name .. ": too many puzzles" end
  for i, p in ipairs(list) do
    local ok, err = validate(p, puzzle.SCHEMA)
    if not ok then
      if type(p) ~= "table" then p = {} list[i] = p end
      p.invalid = err
    end
    p.file, p.index = name, i
  end
  return list
end

-- The first invalid puzzle of list as the message that rejects a file, or nil.
local function first_invalid(list, name)
  for i, p in ipairs(list) do
    if p.invalid then return string.format("%s: %s: %s", name, puzzle_where(i, p), p.invalid) end
  end
end

-- opts.each: a bad puzzle does not reject the file; it stays in the list
-- with p.invalid (the message), and check reports it as a fault.
function puzzle.load_string(text, name, opts)
  name = name or "(puzzle text)"
  S.check(opts or {}, LOAD_OPTIONS, "puzzle.load")
  local data, err = puzzle.run_sandboxed(text, name)
  if data == nil then return nil, err end
  local list, lerr = to_list(data, name)
  if not list then return nil, lerr end
  if not (opts and opts.each) then
    local bad = first_invalid(list, name)
    if bad then return nil, bad end
  end
  return list
end

function puzzle.load(path, opts)
  S.check(opts or {}, LOAD_OPTIONS, "puzzle.load")
  local text, err = require("cheskers.files").read(path, "puzzle")
  if not text then return nil, err end
  return puzzle.load_string(text, path, opts)
end

-- ---- writing puzzle files --------------------------------------------------

local ORDER = { "title", "author", "fen", "goal", "moves", "rules", "solution", "tags", "source", "comment" }

-- The text of a puzzle file holding list (one puzzle or several).
function puzzle.file_rules(rules)
  if type(rules) == "table" and (rules.filter ~= nil or rules.result ~= nil) then
    return nil, "rules with hooks (filter, result) cannot be written into puzzle files"
  end
  return rules
end

function puzzle.serialize(list, header)
  local out = {}
  if header then
    for line in (header .. "\n"):gmatch("(.-)\n") do out[#out + 1] = "-- " .. line end
  end
  out[#out + 1] = "return {"
  for _, p in ipairs(list) do
    local lines = {}
    for _, k in ipairs(ORDER) do
      if p[k] ~= nil then lines[#lines + 1] = "    " .. k .. " = " .. luadata.write(p[k]) .. ",\n" end
    end
    out[#out + 1] = "  {\n" .. table.concat(lines) .. "  },"
  end
  return table.concat(out, "\n") .. "\n}\n"
end

-- ---- the checker -----------------------------------------------------------

local function texts(moves)
  local t = {}
  for i, m in ipairs(moves) do t[i] = tostring(m) end
  return t
end

-- After move (of the side to move on b) has the opponent a reply that holds
-- against "move wins within n"? Returns the refuting reply (false when move
-- itself ends the game without a win), or nil and the move's shortest win.
function puzzle.refute(b, move, n)
  return b:refute(move, within(n))
end

local function fault(r, kind, msg)
  r.faults[#r.faults + 1] = { kind = kind, message = msg }
end

local function note(r, msg)
  r.notes[#r.notes + 1] = msg
end

local function join(list)
  return table.concat(list, ", ")
end

-- ---- promotion kinds ---------------------------------------------------------
-- The kinds of one promotion (h6xf8=K, h6xf8=B, h6xf8=C) are one move for a
-- puzzle: a choice among kinds that win is no cook and no dual, and a
-- solution may write the move without its kind ("h6xf8") when every kind
-- wins.

-- The text of move m without its promotion kind: "h6xf8" for "h6xf8=K".
local function unpromoted(m)
  local t = tostring(m)
  return m.promotion and (t:gsub("=%w+$", "")) or t
end

-- Whether moves a and b are one move but for the promotion kind.
local function same_but_kind(a, b)
  return unpromoted(a) == unpromoted(b)
end

-- How many moves list holds, the kinds of one promotion counted once.
local function distinct_count(list)
  local seen, n = {}, 0
  for _, m in ipairs(list) do
    local u = unpromoted(m)
    n = n + (seen[u] and 0 or 1)
    seen[u] = true
  end
  return n
end

-- Reads text, a solver's move, on board b whose winning moves are wins:
-- b:parse's move; for a promotion written without its kind when every
-- kind is among wins, the first of them. Else nil and b:parse's error.
local function read_solver_move(b, text, wins)
  local m, err = b:parse(text)
  if m or type(text) ~= "string" or not tostring(err):match("^ambiguous") then return m, err end
  local kinds = {}
  for _, c in ipairs(b:moves()) do
    if c.promotion and b:parse(text .. "=" .. c.promotion) == c then kinds[#kinds + 1] = c end
  end
  if #kinds < 2 then return nil, err end
  local winning = {}
  for _, c in ipairs(kinds) do
    if not same_but_kind(c, kinds[1]) then return nil, err end
    for _, w in ipairs(wins) do
      if w == c then winning[#winning + 1] = tostring(c) break end
    end
  end
  if #winning == #kinds then return kinds[1] end
  return nil, string.format("%s (%s)", err, #winning == 0 and "none of them wins"
    or "only " .. join(winning) .. " wins")
end

-- Whether m is among the winning moves of the solver's answer s, and the
-- other winning moves with their lengths (m's other kinds are one move with
-- it when it wins).
local function other_wins(s, m)
  local wins = false
  for _, w in ipairs(s.moves) do wins = wins or w == m end
  local others, lengths = {}, {}
  for i, w in ipairs(s.moves) do
    if w ~= m and not (wins and same_but_kind(w, m)) then
      lengths[#others + 1] = s.lengths[i]
      others[#others + 1] = w
    end
  end
  return wins, others, lengths
end

-- Move texts with their shortest wins: "c3-d4 (2), e1-f2 (3)".
local function with_lengths(moves, lengths)
  local t = {}
  for i, m in ipairs(moves) do t[i] = tostring(m) .. " (" .. lengths[i] .. ")" end
  return join(t)
end

-- Checks a puzzle (a table as a file gives it); opts: max_nodes (per
-- search, default puzzle.MAX_NODES), max_seconds (no search is started
-- after that much CPU time, default puzzle.MAX_SECONDS), defences (false:
-- no notes on weaker defences in the line). The report:
--   ok       true when no fault was found
--   faults   list of { kind = ..., message = ... }; kinds: "bad puzzle",
--            "bad position", "illegal move", "not forced", "cooked",
--            "shorter win", "no win at end", "dual", "too hard" (the solver
--            ran out of its node budget or the check out of its time)
--   notes    remarks that are not faults (a weaker defence in the line ...)
--   title, file, index, fen, moves, side (the side to move)
--   shortest the shortest forced win (nil: none within moves)
--   winning  the texts of every first move that wins within moves
--   refutation  when not forced: { move = key text, defence = text }
--   ending   how the solution line's win ends ("stalemate", ...) when it does
--   time     seconds the check took
-- "White"/"Black" for a side name.
local function Side(side)
  return side == "white" and "White" or "Black"
end

-- Step 1: the puzzle's fields, rules and position. The board, or nil (the
-- faults say why).
local function check_setup(p, r)
  if p.invalid then fault(r, "bad puzzle", p.invalid) return nil end
  local vp, verr = validate(p)
  if not vp then fault(r, "bad puzzle", verr) return nil end
  if p.rules ~= nil then
    local rok, rerr = pcall(cheskers.rules, p.rules)
    if not rok then
      fault(r, "bad puzzle", "rules: " .. tostring(rerr):gsub("^[^:]*:%d+: ", ""))
      return nil
    end
  end
  local ok, b = pcall(cheskers.new, p.fen, p.rules)
  if not ok then
    local msg = tostring(b):gsub("^[^:]*:%d+: ", ""):gsub("^bad position: ", "")
    fault(r, "bad position", msg)
    return nil
  end
  r.side = b:turn()
  local over, why = b:result()
  if over then
    fault(r, "bad position", "the game is already over (" .. over .. " won by " .. tostring(why) .. ")")
    return nil
  end
  return b
end

-- Step 2a: no win at all: "no win in 3 for White: best defence ...".
local function fault_no_win(r, b, key, n)
  local msg = string.format("no win in %d for %s", n, Side(r.side))
  if key then
    local d = puzzle.refute(b, key, n)
    if d and n == 1 then
      msg = msg .. ": " .. tostring(key) .. " does not end the game"
      r.refutation = { move = tostring(key) }
    elseif d then
      msg = msg .. ": best defence against " .. tostring(key) .. ": " .. tostring(d)
      r.refutation = { move = tostring(key), defence = tostring(d) }
    elseif d == false then
      msg = msg .. ": " .. tostring(key) .. " ends the game without winning it"
      r.refutation = { move = tostring(key) }
    end
  else
    local refs = {}
    for _, m in ipairs(b:moves()) do
      local d = puzzle.refute(b, m, n)
      refs[#refs + 1] = tostring(m) .. " " .. (d and tostring(d) or "(loses at once)")
      if #refs >= 12 then refs[#refs + 1] = "..." break end
    end
    msg = msg .. ": best defences: " .. join(refs)
  end
  fault(r, "not forced", msg)
end

-- Step 2b: there is a win: is it the key's, the only one, and no shorter?
local function check_key(r, b, s, key, n)
  if s.shortest < n then
    local short = {}
    for i, m in ipairs(s.moves) do
      if s.lengths[i] == s.shortest then short[#short + 1] = tostring(m) end
    end
    fault(r, "shorter win", string.format("a win in %d (stated: %d): %s", s.shortest, n, join(short)))
  end
  if not key then
    if distinct_count(s.moves) > 1 then
      fault(r, "cooked", "several first moves win within " .. n .. ": " .. with_lengths(s.moves, s.lengths))
    end
    return
  end
  local wins, others, olens = other_wins(s, key)
  if not wins then
    local d = puzzle.refute(b, key, n)
    local msg = "the key " .. tostring(key) .. " does not win within " .. n
    if d and n == 1 then
      msg = msg .. ": it does not end the game"
    elseif d then
      msg = msg .. ": " .. tostring(d) .. " refutes it"
      r.refutation = { move = tostring(key), defence = tostring(d) }
    end
    fault(r, "not forced", msg)
  end
  if #others > 0 then
    fault(r, "cooked", "other first moves " .. (wins and "also " or "") .. "win within " .. n .. ": " ..
      with_lengths(others, olens))
  end
end

-- Step 2: every winning first move, and what it says of the key. Returns
-- whether there is a win at all, the key, and why there is none.
local function check_first_move(r, b, sol, n)
  local s = b:solve(within(n))
  local key, key_err
  if sol[1] then key, key_err = read_solver_move(b, sol[1], s.moves) end
  r.shortest = s.shortest
  r.winning = texts(s.moves)
  r.nodes = s.nodes
  if not s.win then
    fault_no_win(r, b, key, n)
    return false, key, key_err
  end
  check_key(r, b, s, key, n)
  return true, key, key_err
end

-- A solver move of the line (i > 1): the only one that keeps the win?
local function check_solver_move(r, line, m, i, left)
  local found, alts, alens = other_wins(line:solve(within(left)), m)
  if not found then
    local d = puzzle.refute(line, m, left)
    local because = ""
    if d and left == 1 then
      because = ": it does not end the game"
    elseif d then
      because = ": " .. tostring(d) .. " refutes it"
    end
    fault(r, "not forced", string.format("solution move %d %s throws the win away%s", i, tostring(m), because))
  end
  if #alts > 0 then
    fault(r, "dual", string.format("at solution move %d (%s), also %s", i, tostring(m), with_lengths(alts, alens)))
  end
end

-- A defender move of the line: a note when it is not the longest defence.
local function note_defence(r, line, m, i, n)
  local after = n - i // 2          -- attacker moves left after this reply
  local best, blen = line:defend(within(after))
  if not (best and blen) then return end
  local c = line:copy()
  c:play(m)
  local slen = not c:result() and c:solve(within(after, false)).shortest
  if slen and slen < blen then
    note(r, string.format("solution move %d %s: %s holds out longer (a win in %d, not %d)",
      i, tostring(m), tostring(best), blen, slen))
  end
end

-- Step 3: the solution line, move by move (the solver's moves are judged
-- only when there is a win to keep; key, key_err: the first move as step 2
-- read it, or why it could not).
-- Returns the position after it and the number of moves played.
local function check_line(r, b, sol, n, opts, has_win, key, key_err)
  if #sol == 0 then
    fault(r, "bad puzzle", "no solution given")
  elseif #sol > 2 * n - 1 then
    fault(r, "bad puzzle", string.format("the solution has %d moves; a win in %d has at most %d",
      #sol, n, 2 * n - 1))
  end
  local line, played = b:copy(), 0
  for i, text in ipairs(sol) do
    if i > 2 * n - 1 then break end
    local mine = i % 2 == 1
    local m, err = line:parse(text)
    if not m and i == 1 then
      m, err = key, key_err
    elseif not m and mine and has_win and not line:result() then
      m, err = read_solver_move(line, text, line:solve(within(n - (i + 1) // 2 + 1)).moves)
    end
    if not m then
      -- the REPL's wording (cheskers.movetext): "e9 is not a square", "illegal move ...: why; legal moves: ..."
      local why = line:result() and "the game is already over"
        or require("cheskers.movetext").illegal_message(line, text, err)
      fault(r, "illegal move", string.format("solution move %d '%s' (%s): %s", i, luadata.truncate(text, 40),
        mine and "solver" or "defender", why))
      break
    end
    if mine and i > 1 and has_win then
      check_solver_move(r, line, m, i, n - (i + 1) // 2 + 1)
    elseif not mine and opts.defences ~= false and has_win then
      note_defence(r, line, m, i, n)
    end
    line:play(m)
    played = i
  end
  return line, played
end

-- Step 4: does the line end in the solver's win?
local function check_end(r, line, played, sol, attacker)
  if played ~= #sol or #sol == 0 then return end
  local winner, why = line:result()
  r.ending = winner == attacker and why or nil
  if winner ~= attacker then
    fault(r, "no win at end", string.format("after the %s of the solution the game %s",
      cheskers.plural(#sol, "move"),
      winner and ("is over, " .. winner .. " winning") or "goes on"))
  end
  if #sol % 2 == 0 then
    note(r, "the solution ends with a defender's move")
  end
end

-- Why the tables t cannot judge a win of b past the solver's reach, or
-- nil when they may: there are none, or b is not covered and has more
-- pieces than their largest table (a capture can lead into a table, so a
-- position they do not cover is judged when smaller tables are missing).
local function tables_short(b, t)
  local without = string.format("without them the solver goes to %d moves", puzzle.MAX_MOVES)
  if not t or (t:max_pieces(b) or 0) < 2 then return without end
  if b:probe(t) then return nil end
  local largest = 0
  for _, info in ipairs(t:info(b) or {}) do largest = math.max(largest, info.pieces) end
  if puzzle.pieces(b) <= largest then return nil end
  return string.format("the tables in %s go to %s", t:dir(), cheskers.plural(largest, "piece"))
end

-- Checks a puzzle: the steps above, filling r.
local function check_body(p, opts, r)
  if type(p) ~= "table" then fault(r, "bad puzzle", "not a table") return r end
  r.title, r.file, r.index, r.fen, r.moves = p.title, p.file, p.index, p.fen, p.moves
  local b = check_setup(p, r)
  if not b then return r end
  local sol, n = p.solution, p.moves
  if n > puzzle.MAX_MOVES then
    local short = tables_short(b, tables)
    if short then
      fault(r, "bad puzzle", string.format("a win in %d needs tablebases: %s, then check --tb DIR "
        .. "(%s)", n, puzzle.build_hint(b), short))
      return r
    end
  end
  local has_win, key, key_err = check_first_move(r, b, sol, n)
  local line, played = check_line(r, b, sol, n, opts, has_win, key, key_err)
  check_end(r, line, played, sol, b:turn())
  r.ok = #r.faults == 0
  return r
end

function puzzle.check(p, opts)
  opts = opts or {}
  S.check(opts, CHECK_OPTIONS, "puzzle.check")
  local started = cheskers.clock()
  local r = { ok = false, faults = {}, notes = {}, winning = {} }
  local saved, saved_deadline, saved_tables = budget, deadline, tables
  budget = opts.max_nodes or puzzle.MAX_NODES
  tables = opts.tb
  local seconds = opts.max_seconds or puzzle.MAX_SECONDS
  deadline = cpu_clock() + seconds
  local ok, err = pcall(check_body, p, opts, r)
  local used = budget
  budget, deadline, tables = saved, saved_deadline, saved_tables
  if not ok then
    local msg = tostring(err)
    if cheskers.error_code(err) == "interrupted" then error(err, 0) end
    if msg:match("node limit reached") then
      fault(r, "too hard", string.format("the solver gave up (more than %d nodes in one search)", used))
    elseif msg == "check time limit" then
      fault(r, "too hard", string.format("the check gave up after %g s", seconds))
    else
      fault(r, "error", msg)
    end
    r.ok = false
  end
  r.time = cheskers.clock() - started
  return r
end

-- The pieces on board b.
function puzzle.pieces(b)
  return #b:pieces("white") + #b:pieces("black")
end

-- The command that builds the tables b needs: pieces when given, else
-- b's pieces when a table can hold them (up to cheskers.tb.MAX_PIECES),
-- else the usual 4-piece set (a bigger position reaches the tables by
-- captures): "cheskers tb build --pieces 5", with " --rules 'SPEC'" when
-- b's rules are not golomb's for the tables (the draw options and first
-- play no part in them) and " --dir DIR" when dir is given.
function puzzle.build_hint(b, dir, pieces)
  local n = pieces or puzzle.pieces(b)
  if n > cheskers.tb.MAX_PIECES or n < 2 then n = 4 end
  local r, golomb = b:rules(), cheskers.rules()
  r.draw_repetition, r.draw_quiet_plies, r.first = golomb.draw_repetition, golomb.draw_quiet_plies, golomb.first
  local text = require("cheskers.rulespec").format(r)
  return string.format("cheskers tb build --pieces %d%s%s", n,
    text ~= "golomb" and (" --rules '" .. text:gsub("'", "'\\''") .. "'") or "",
    dir and (" --dir " .. (dir:match("^[%w%-_./=:,@]+$") and dir or "'" .. dir:gsub("'", "'\\''") .. "'")) or "")
end

-- Why tables t say nothing of board b (b:probe(t) gave nothing): "no
-- table covers this position (5 pieces)", and when tables of b's pieces
-- could, what the folder holds and the command that builds them ("...: the
-- tables in tb go to 4 pieces; build them with `cheskers tb build --pieces
-- 5 --dir tb`").
function puzzle.not_covered(b, t)
  local n = puzzle.pieces(b)
  local why = string.format("no table covers this position (%s)", cheskers.plural(n, "piece"))
  local most = 0
  for _, info in ipairs(t:info(b) or {}) do most = math.max(most, info.pieces) end
  if n > cheskers.tb.MAX_PIECES or n <= most then return why end
  local holds = most == 0 and string.format("there are none in %s for these rules", t:dir())
    or string.format("the tables in %s go to %s", t:dir(), cheskers.plural(most, "piece"))
  return string.format("%s: %s; build them with `%s`", why, holds, puzzle.build_hint(b, t:dir()))
end

-- The tablebases of a command: dir's, else $CHESKERS_TB's when it is set,
-- else nil.
function puzzle.tables(dir)
  if dir then return cheskers.tb.open(dir) end
  local env = os.getenv("CHESKERS_TB")
  if env and env ~= "" then return cheskers.tb.open(env) end
  return nil
end

-- ---- the goal line ----------------------------------------------------------

-- How the solution line of p ends when it ends in a win ("stalemate",
-- ...), or nil.
local function line_ending(p)
  local ok, b = pcall(cheskers.new, p.fen, p.rules)
  if not ok or type(p.solution) ~= "table" then return nil end
  local attacker = b:turn()
  for _, text in ipairs(p.solution) do
    local m = type(text) == "string" and b:parse(text)
    if not m then return nil end
    b:play(m)
  end
  local winner, why = b:result()
  return winner == attacker and why or nil
end

-- The goal as people read it: "Black to play and win in 2.", or for a
-- win by stalemate "Black to play and stalemate White in 2.".
function puzzle.goal_text(p, report)
  local ok, b = pcall(cheskers.new, p.fen, p.rules)
  if not ok then return "" end
  local side = b:turn()
  local ending = report and report.ending or line_ending(p)
  if ending == "stalemate" then
    return string.format("%s to play and stalemate %s in %d.", Side(side),
                         Side(side == "white" and "black" or "white"), p.moves)
  end
  return string.format("%s to play and win in %d.", Side(side), p.moves)
end

-- ---- building a main line -------------------------------------------------

-- A sound main line for a win in exactly n from b (the side to move wins
-- in n and in no fewer): the key must be the only move that wins within
-- n, each defence is a longest resistance, and each later solver move the
-- only one that wins in the moves left; among equally long defences the
-- first that keeps the line free of duals is taken. tb: tablebases for the
-- solver (needed past puzzle.MAX_MOVES). Returns the list of move texts,
-- or nil and why there is none.
function puzzle.main_line(b, n, tb)
  local s = b:solve(within(n, true, tb))
  if not s.win then return nil, "no win within " .. n end
  if s.shortest ~= n then return nil, "a shorter win (in " .. s.shortest .. ")" end
  if distinct_count(s.moves) > 1 then
    return nil, "more than one move wins within " .. n .. ": " .. join(texts(s.moves))
  end
  local key = s.moves[1]
  local c = b:copy()
  c:play(key)
  if c:result() then return { tostring(key) } end
  local best, cands = -1, {}
  for _, d in ipairs(c:moves()) do
    local cc = c:copy()
    cc:play(d)
    local len = 0
    if not cc:result() then
      len = cc:solve(within(n - 1, false, tb)).shortest
      if not len then return nil, "the key is refuted by " .. tostring(d) end
    end
    if len > best then
      best, cands = len, { d }
    elseif len == best then
      cands[#cands + 1] = d
    end
  end
  if best == 0 then return { tostring(key), tostring(cands[1]) } end
  local why
  for _, d in ipairs(cands) do
    local cc = c:copy()
    cc:play(d)
    local rest, err = puzzle.main_line(cc, best, tb)
    if rest then
      local line = { tostring(key), tostring(d) }
      for _, t in ipairs(rest) do line[#line + 1] = t end
      return line
    end
    why = err
  end
  return nil, "after " .. tostring(key) .. ", every longest defence leads to a dual (" ..
              tostring(why) .. ")"
end

-- A report as text: "name: OK (0.12 s)" or "name: FAIL (...)" and a line
-- per fault. The title and the faults' texts (the file's own words) are
-- escaped for the console: a newline in a title cannot forge an "OK" line.
function puzzle.format_report(r)
  local console = require("cheskers.escape").console
  local name = (r.file or "puzzle") .. (r.index and ("#" .. r.index) or "")
  if r.title then name = name .. " \"" .. console(r.title) .. "\"" end
  local lines = { string.format("%s: %s (%.2f s)", name, r.ok and "OK" or "FAIL", r.time or 0) }
  for _, f in ipairs(r.faults) do lines[#lines + 1] = "  " .. f.kind .. ": " .. console(f.message) end
  for _, x in ipairs(r.notes) do lines[#lines + 1] = "  note: " .. x end
  return table.concat(lines, "\n")
end

return puzzle
