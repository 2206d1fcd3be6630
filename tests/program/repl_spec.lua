-- tests/program/repl_spec.lua - the REPL's Lua side (repl/*.lua, cheskers.movetext) without a
-- terminal: drawing, printing values, lines as commands / moves / Lua,
-- undo and redo, errors with suggestions, completion, user commands.
-- The C terminal module exists only inside the cheskers program; under
-- busted (stock lua5.4) a small stand-in is preloaded. The whole program is
-- driven through a terminal by tests/program/repl_test.sh.
-- Expected values are worked out by hand from docs/reference/rules.md.

package.preload["cheskers.readline"] = package.preload["cheskers.readline"] or function()
  return {
    readline = function() return nil end,
    add_history = function() end,
    read_history = function() return nil, "no history here" end,
    write_history = function() return true end,
    append_history = function() return true end,
    truncate_history = function() return true end,
    set_completer = function() end,
    listdir = function() return nil, "no listing here" end,
    run = function(f, ...)
      local tb
      local res = table.pack(xpcall(f, function(e)
        tb = debug.traceback(type(e) == "string" and e or nil, 2)
        return e
      end, ...))
      if res[1] then return table.unpack(res, 1, res.n) end
      return false, res[2], tb
    end,
  }
end

local cheskers = require "cheskers"
local repl = require "repl.session"
local H = require "helpers"

local START = "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b 0 1"
-- W: Ka1 Pg7; B: ka7. White: a1-b2, and g7 promotes on f8 or h8 to B, C or K.
local PROMO = "8/k5P1/8/8/8/8/8/K7 w 0 1"

-- A file-like sink: write appends to .text
local function sink()
  local t = { text = "" }
  function t:write(...)
    for i = 1, select("#", ...) do self.text = self.text .. tostring((select(i, ...))) end
    return self
  end
  function t.flush() end
  return t
end

-- A batch session writing into sinks.
local function session(fen)
  local out, err = sink(), sink()
  local S = repl.session { rc = false, out = out, errout = err,
                           board = fen and cheskers.new(fen) or nil }
  return S, out, err
end

local function feed(S, ...)
  local results = {}
  for i, line in ipairs({ ... }) do results[i] = S:feed(line) end
  return table.unpack(results)
end

local function history(b)
  local t = {}
  for i, m in ipairs(b:history()) do t[i] = tostring(m) end
  return table.concat(t, " ")
end

local function sorted(t)
  table.sort(t)
  return t
end

describe("repl.draw", function()
  it("draws the start in ASCII: light squares blank, Black to move", function()
    assert.equal(table.concat({
      "    a b c d e f g h",
      "  +-----------------+",
      "8 |   c   k   k   b | 8",
      "7 | p   p   p   p   | 7",
      "6 |   p   p   p   p | 6",
      "5 | .   .   .   .   | 5",
      "4 |   .   .   .   . | 4",
      "3 | P   P   P   P   | 3",
      "2 |   P   P   P   P | 2",
      "1 | B   K   K   C   | 1",
      "  +-----------------+",
      "    a b c d e f g h",
      "Black to move, move 1",
    }, "\n"), (repl.draw(cheskers.new()):gsub(" +\n", "\n")))
  end)

  it("marks the last move and shows it", function()
    local b = cheskers.new()
    b:play("d6-e5")
    local text = repl.draw(b)
    assert.truthy(text:find("6 |   p  [.]  p   p | 6", 1, true), text)
    assert.truthy(text:find("5 | .   .  [p]  .   | 5", 1, true), text)
    assert.truthy(text:find("White to move, move 1; last move d6-e5", 1, true), text)
  end)

  it("turns the board with flip", function()
    local lines = {}
    for l in repl.draw(cheskers.new(), { flip = true }):gmatch("[^\n]+") do lines[#lines + 1] = l end
    assert.equal("    h g f e d c b a", lines[1]:gsub(" +$", ""))
    assert.equal("1 |   C   K   K   B | 1", lines[3])
    assert.equal("8 | b   k   k   c   | 8", lines[10])
  end)

  it("draws Unicode pieces and colours when asked", function()
    local text = repl.draw(cheskers.new(), { unicode = true, color = true })
    assert.truthy(text:find("♚", 1, true))   -- black king
    -- the camel: its letters by default (its own glyphs are in few fonts),
    -- never the chess knight
    assert.truthy(text:find(" C \27[0m", 1, true), text)
    assert.truthy(text:find(" c \27[0m", 1, true), text)
    assert.falsy(text:find("\u{1FA0D}", 1, true) or text:find("\u{1FA13}", 1, true))
    assert.falsy(text:find("♘", 1, true) or text:find("♞", 1, true))
    assert.truthy(text:find("\27[", 1, true))
  end)

  it("draws the camel's fairy-chess glyphs when asked (setting camel_glyph)", function()
    -- a knight turned ninety degrees: U+1FA0D white, U+1FA13 black
    local text = repl.draw(cheskers.new(), { unicode = true, color = true, camel_glyph = true })
    assert.truthy(text:find("\u{1FA0D}", 1, true))
    assert.truthy(text:find("\u{1FA13}", 1, true))
    local S = session()
    assert.is_false(S:draw_options().camel_glyph)
    require("repl.registry").settings.camel_glyph = true
    assert.is_true(S:draw_options().camel_glyph)
    require("repl.registry").settings.camel_glyph = false
  end)

  it("tells the result of a finished game", function()
    -- W: Ka1 Pc3; B: kd4 alone. c3xe5 takes Black's last king.
    local b = cheskers.new("8/8/8/8/3k4/2P5/8/K7 w 0 1")
    b:play("c3xe5")
    assert.truthy(repl.draw(b):find("Game over. White wins: Black has no king left", 1, true))
  end)
end)

describe("repl.pretty", function()
  it("prints tables as constructors, sorted, strings quoted", function()
    assert.equal('{1, 2, "x", a = true, b = {c = 1}}', repl.pretty({ 1, 2, "x", b = { c = 1 }, a = true }))
    assert.equal('{["a b"] = 1}', repl.pretty({ ["a b"] = 1 }))
    assert.equal("{}", repl.pretty({}))
  end)

  it("survives cycles and deep nesting", function()
    local t = {}
    t.self = t
    assert.equal("{self = <cycle>}", repl.pretty(t))
    assert.equal("{{{{...}}}}", repl.pretty({ { { { { 1 } } } } }))
  end)

  it("breaks long tables over lines", function()
    local t = {}
    for i = 1, 40 do t[i] = i * 1000 end
    assert.truthy(repl.pretty(t):find("\n", 1, true))
  end)

  it("shows moves by their text", function()
    local m = cheskers.new():parse("d6-e5")
    assert.equal("{d6-e5}", repl.pretty({ m }))
  end)
end)

describe("a session", function()
  it("plays bare moves, several on a line, with move numbers", function()
    local S = session()
    assert.is_true(feed(S, "d6-e5"))
    assert.is_true(feed(S, "1... c3-d4 2. e5xc3"))
    assert.equal("d6-e5 c3-d4 e5xc3", history(S.board))
  end)

  it("plays all or nothing, and says which move failed", function()
    local S, _, err = session()
    assert.is_false(feed(S, "play d6-e5 c3-d4 c3-d4"))
    assert.equal("", history(S.board))
    assert.truthy(err.text:find("move 3 of 3", 1, true), err.text)
  end)

  it("suggests the legal moves from the square of an illegal move", function()
    local S, _, err = session()
    assert.is_false(feed(S, "d6-d5"))
    assert.truthy(err.text:find("d6-c5 d6-e5", 1, true), err.text)
  end)

  it("reads every word shaped like a move as a move, and says what is wrong", function()
    -- one line each: the core's wording, never Lua's or "unknown command"
    local cases = {
      { "i1-a1", "i1 is not a square" },
      { "k3-h4", "k3 is not a square" },
      { "b6a5", "b6a5 is not move text: write b6-a5" },
      { "e5 c3", "'e5 c3' is not a move: write e5-c3" },
      { "Nb8-c7", "N is not a piece letter (P, K, B or C)" },
      { "d6-e5 b6a5", "move 2 of 2: b6a5 is not move text: write b6-a5" },
      { "d6-e5 c3", "'c3' is not a move (a line of moves holds only moves and move numbers)" },
    }
    for _, case in ipairs(cases) do
      local S, _, err = session()
      assert.is_false(feed(S, case[1]), case[1])
      assert.equal("cheskers: " .. case[2] .. "\n", err.text, case[1])
      assert.equal(START, S.board:fen(), case[1])
    end
  end)

  it("plays the moves of a custom kind by its letter", function()
    -- W: Ka1 Nb8 (a new kind leaping (1,3): b8 to a5, c5, e7); B: kh8
    local b = cheskers.new("1N5k/8/8/8/8/8/8/K7 w 0 1", { pieces = { N = { leaps = { { 1, 3 } } } } })
    local S, _, err = session()
    S:set_board(b)
    assert.is_false(feed(S, "Nb8-c7"))
    assert.equal("cheskers: illegal move Nb8-c7: not a legal path for the piece on b8; "
      .. "legal moves from b8: b8-a5 b8-c5 b8-e7\n", err.text)
    assert.is_true(feed(S, "Nb8-c5"))
    assert.equal("b8-c5", history(S.board))
  end)

  it("leaves Lua that merely contains squares to Lua", function()
    local S, out, err = session()
    assert.is_true(feed(S, "a1 = 3"))
    assert.is_true(feed(S, "a1"))         -- a square, but a global that is set
    assert.is_true(feed(S, "q = 5"))
    assert.is_true(feed(S, "e5=q"))       -- an assignment, not a promotion
    assert.is_true(feed(S, "n1 = 7"))
    assert.is_true(feed(S, "n1-1"))
    assert.is_true(feed(S, "x = board:moves()"))
    assert.is_true(feed(S, "e5, #x"))
    assert.equal("3\n6\n5\n9\n", out.text)
    assert.equal("", err.text)
    assert.equal(START, S.board:fen())
    for _, name in ipairs { "a1", "q", "e5", "n1", "x" } do rawset(_G, name, nil) end
  end)

  it("reads a typed move once, on the board itself", function()
    local S = session()
    local methods = getmetatable(S.board).__index
    local parse, copy, parses, copies = methods.parse, methods.copy, 0, 0
    methods.parse = function(...) parses = parses + 1 return parse(...) end
    methods.copy = function(...) copies = copies + 1 return copy(...) end
    local ok, result = pcall(feed, S, "d6-e5")
    methods.parse, methods.copy = parse, copy
    assert.is_true(ok and result, tostring(result))
    assert.same({ 1, 0 }, { parses, copies })
    assert.equal("d6-e5", history(S.board))
  end)

  it("suggests the closest command for a typo, as one line", function()
    local S, _, err = session()
    assert.is_false(feed(S, "perf 3"))
    assert.truthy(err.text:find("did you mean 'perft'", 1, true), err.text)
    assert.equal(1, select(2, err.text:gsub("\n", "")))
  end)

  -- one wording for every suggestion (cheskers.did_you_mean): "... 'x'
  -- (did you mean 'y'?)"; without one, what to do instead
  local UNKNOWN = {
    { "perf 3", "unknown command 'perf' (did you mean 'perft'?)" },
    { "help perf", "unknown command 'perf' (did you mean 'perft'?)" },
    { "help zzqqxx", "unknown command 'zzqqxx' (help lists the commands; other lines are Lua)" },
  }
  for _, row in ipairs(UNKNOWN) do
    it("says of '" .. row[1] .. "': " .. row[2], function()
      local S, _, err = session()
      assert.is_false(feed(S, row[1]))
      assert.truthy(err.text:find(row[2], 1, true), err.text)
      assert.is_nil(err.text:find("; did you mean", 1, true), err.text)
    end)
  end

  it("takes moves back and replays them", function()
    local S, out = session()
    feed(S, "d6-e5", "c3-d4", "undo 2")
    assert.equal(START, S.board:fen())
    feed(S, "redo", "history")
    assert.equal("d6-e5", history(S.board))
    feed(S, "redo")
    assert.equal("d6-e5 c3-d4", history(S.board))
    assert.truthy(out.text:find("1. d6-e5\n", 1, true), out.text)
  end)

  it("keeps the redo list when the next move is replayed by hand, drops it otherwise", function()
    local S = session()
    feed(S, "d6-e5", "c3-d4", "undo 2", "d6-e5")
    assert.is_true(feed(S, "redo"))
    assert.equal("d6-e5 c3-d4", history(S.board))
    feed(S, "undo 2", "d6-c5")
    assert.is_false(feed(S, "redo"))
  end)

  it("runs Lua in the global state: board is the board, values print", function()
    local S, out = session()
    assert.is_true(feed(S, "board:play('d6-e5')"))
    assert.equal("d6-e5", history(S.board))
    out.text = ""
    assert.is_true(feed(S, "#board:moves(), board:turn()"))
    -- White after d6-e5: pawns a3-b4, c3-b4, c3-d4, e3-d4, e3-f4, g3-f4, g3-h4 and
    -- the camel g1-f4, g1-h4: 9 moves
    assert.equal("9\nwhite\n", out.text)
  end)

  it("picks up a new board assigned from Lua and drops the redo list", function()
    local S = session()
    feed(S, "d6-e5", "undo")
    assert.is_true(feed(S, "board = cheskers.new('" .. PROMO .. "')"))
    assert.equal(PROMO, S.board:fen())
    assert.is_false(feed(S, "redo"))
  end)

  it("keeps its board when board is set to something else", function()
    local S, _, err = session()
    assert.is_false(feed(S, "board = 7"))
    assert.equal(START, S.board:fen())
    assert.truthy(err.text:find("board", 1, true))
  end)

  it("continues unfinished Lua on the next line", function()
    local S, out = session()
    assert.is_true(feed(S, "t = {}"))
    assert.equal("more", feed(S, "for i = 1, 2 do"))
    assert.equal("more", feed(S, "t[#t + 1] = i * 10"))
    assert.is_true(feed(S, "end"))
    assert.is_true(feed(S, "t"))
    assert.equal("{10, 20}\n", out.text)
  end)

  it("reports a Lua error with a traceback and goes on", function()
    local S, out, err = session()
    assert.is_false(feed(S, "error('oops')"))
    assert.truthy(err.text:find("oops", 1, true))
    assert.truthy(err.text:find("stack traceback", 1, true))
    assert.is_true(feed(S, "'next'"))
    assert.equal("next\n", out.text)
  end)

  it("counts perft and divide from the board without changing it", function()
    local S, out = session()
    assert.is_true(feed(S, "perft 3"))
    assert.truthy(out.text:find("perft 3: 652 nodes in", 1, true), out.text)
    assert.is_true(feed(S, "divide 2"))
    assert.truthy(out.text:find("9 moves\ndivide 2: 81 nodes in", 1, true), out.text)
    assert.equal(START, S.board:fen())
  end)

  it("refuses bad arguments in one line", function()
    local S, _, err = session()
    assert.is_false(feed(S, "perft x"))
    assert.is_false(feed(S, "undo -1"))
    assert.is_false(feed(S, "fen 9/9 w"))
    assert.equal(3, select(2, err.text:gsub("\n", "")))
  end)

  it("says a binding's argument error in the command's words, not Lua's", function()
    -- perft's depth goes to 64 (docs/reference/lua_api.md); the binding's message is
    -- "bad argument #2 to '?' (...)": neither the argument nor the function
    -- as the user typed them
    for _, line in ipairs({ "perft 99", "divide 99" }) do
      local S, _, err = session()
      assert.is_false(feed(S, line))
      local name = line:match("^%a+")
      assert.truthy(err.text:find("^cheskers: " .. name .. ": [^\n]*64[^\n]*\n$"), err.text)
      assert.falsy(err.text:find("bad argument", 1, true), err.text)
    end
  end)

  it("keeps the game under changed rules; new starts over", function()
    local S = session()
    feed(S, "d6-e5")
    assert.is_true(feed(S, "rules majority=false capture=jumps"))
    local r = S.board:rules()
    assert.is_false(r.majority)
    assert.equal("jumps", r.capture)
    -- d6-e5 (a quiet pawn step) is legal under these rules too: it stays
    assert.equal("1c1k1k1b/p1p1p1p1/1p3p1p/4p3/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 w 0 1", S.board:fen())
    assert.equal(1, #S.board:history())
    assert.is_true(feed(S, "new"))
    assert.equal(START, S.board:fen())
    assert.is_false(S.board:rules().majority)
    assert.is_true(feed(S, "rules golomb"))
    assert.is_true(S.board:rules().majority)
  end)

  it("accepts commands defined from Lua", function()
    local S, out = session()
    repl.command { name = "turn", aliases = { "side" }, help = "Prints the side to move.",
                   run = function(T) T:print(T.board:turn()) end }
    assert.is_true(feed(S, "turn"))
    assert.is_true(feed(S, "side"))
    assert.equal("black\nblack\n", out.text)
    out.text = ""
    feed(S, "help turn")
    assert.truthy(out.text:find("Prints the side to move.", 1, true))
  end)

  it("treats a command name followed by an operator as Lua", function()
    local S, out = session()
    assert.is_true(feed(S, "moves = 3"))
    assert.is_true(feed(S, "moves + 1"))
    assert.equal("4\n", out.text)
    rawset(_G, "moves", nil)
  end)
end)

describe("go in a session", function()
  -- the nodes of the last "best move" line of the output
  local function nodes(text)
    local n
    for m in text:gmatch("best move %S+ %(score [^,]+, depth %d+, (%d+) nodes") do n = tonumber(m) end
    return n
  end

  it("keeps its search table from one go to the next; other weights start afresh", function()
    local S, out = session()
    feed(S, "go depth 8")
    local first = assert(nodes(out.text), out.text)
    out.text = ""
    feed(S, "go depth 8")
    local again = assert(nodes(out.text), out.text)
    assert.is_true(again < first / 2, ("again %d, first %d"):format(again, first))
    -- the same as a search with no context, the first time
    assert.equal(cheskers.new():search({ depth = 8 }).nodes, first)
    -- other weights: the table's scores are another evaluation's
    local path = H.write_file(H.tmpname(".lua"), "return { weights = { mobility = 40 } }")
    feed(S, "weights " .. path)
    out.text = ""
    feed(S, "go depth 8")
    local w = cheskers.engine.weights()
    feed(S, "weights reset")
    local fresh = cheskers.new():search({ depth = 8, weights = w }).nodes
    assert.equal(fresh, nodes(out.text))
  end)
end)

describe("completion", function()
  -- complete(S, line, word): the candidates readline would get for the word
  -- ending the line (words start after a space, '=' or '(' as in readline)
  local function complete(S, line)
    local start = 0
    for i = #line, 1, -1 do
      if line:sub(i, i):match("[%s=(\"']") then start = i break end
    end
    local c, kind = S:complete(line, start, #line)
    return sorted(c), kind
  end

  it("offers commands and legal moves for the first word", function()
    local S = session()
    assert.same({ "d6-c5", "d6-e5" }, (complete(S, "d6-")))
    assert.same({ "undo" }, (complete(S, "und")))
    assert.same({ "undo" }, (complete(S, "help und")))
  end)

  it("offers jump chains whole", function()
    -- W: Ka1 Pc3; B: kh8 pd4 pf6: White must jump c3xe5xg7
    local S = session("7k/8/5p2/8/3p4/2P5/8/K7 w 0 1")
    assert.same({ "c3xe5xg7" }, (complete(S, "c3")))
  end)

  it("offers the promotions, also after the '='", function()
    local S = session(PROMO)
    assert.same({ "g7-h8=B", "g7-h8=C", "g7-h8=K" }, (complete(S, "g7-h")))
    assert.same({ "B", "C", "K" }, (complete(S, "g7-h8=")))
  end)

  it("offers the next moves after moves on the same line", function()
    local S = session()
    -- after d6-e5, White's pawn c3 can step to b4 or d4
    assert.same({ "c3-b4", "c3-d4" }, (complete(S, "play d6-e5 c3")))
  end)

  it("offers squares with a move for `moves`", function()
    local S = session()
    -- at the start Black moves pawns b6 d6 f6 h6 and the camel b8
    assert.same({ "b6", "b8" }, (complete(S, "moves b")))
  end)

  it("offers one square only for `moves`", function()
    local S = session()
    assert.same({}, (complete(S, "moves b6 ")))
    assert.same({}, (complete(S, "moves b6 b")))
  end)

  it("offers bot names after `bot`, then the sides", function()
    local S = session()
    -- scripts/bots/ holds random, greedy, alphabeta, mcts and engine; the
    -- built-ins are builtin-random and builtin-greedy
    assert.same({ "greedy" }, (complete(S, "bot gr")))
    assert.same({ "builtin-greedy", "builtin-random" }, (complete(S, "bot bu")))
    assert.same({ "off" }, (complete(S, "bot of")))
    local all = complete(S, "bot ")
    for _, name in ipairs { "alphabeta", "engine", "greedy", "mcts", "random", "off" } do
      assert.truthy(H.set_of(all)[name], name .. " missing from " .. table.concat(all, " "))
    end
    assert.falsy(H.set_of(all).cheskers, "Lua globals offered after bot")
    assert.same({ "black", "white" }, (complete(S, "bot greedy ")))
    assert.same({}, (complete(S, "bot off ")))
  end)

  it("lets readline complete file names for save and load", function()
    local S = session()
    local _, kind = complete(S, "load gam")
    assert.equal("files", kind)
  end)

  it("offers rule options and their values", function()
    local S = session()
    assert.same({ "majority=" }, (complete(S, "rules maj")))
    assert.same({ "false" }, (complete(S, "rules majority=f")))
  end)

  it("offers Lua globals, fields after a dot and methods after a colon", function()
    local S = session()
    assert.same({ "cheskers.new" }, (complete(S, "x = cheskers.ne")))
    assert.same({ "board:perft" }, (complete(S, "board:pe")))
    local c, kind = complete(S, "string.forma")
    assert.same({ "string.format" }, c)
    assert.equal("nospace", kind)
  end)

  it("offers squares and moves inside a string", function()
    local S = session()
    assert.same({ "h2", "h4", "h6", "h6-g5", "h8" }, (complete(S, 'board:play("h')))
  end)
end)

describe("cheskers.movetext", function()
  local movetext = require "cheskers.movetext"
  local CAMEL = "7k/8/8/8/3p1P2/2P5/8/K5C1 w 0 1"

  -- word typed -> what the core's one grammar makes of it under the
  -- default rules (docs/reference/rules.md "Move text": squares a1..h8 on dark squares,
  -- the separators - x X :, promotion to K, B or C): its kind and written
  -- form, or the one message of a malformed word, or nothing (Lua)
  local SHAPES = {
    { "d6-e5", "move", "d6-e5" },
    { "D6-E5", "move", "d6-e5" },
    { "Pd6xE5", "move", "Pd6xe5" },
    { "g7-h8=c", "move", "g7-h8=C" },
    { "g7-h8C", "move", "g7-h8=C" },
    { "b6:a5", "move", "b6xa5" },
    { "c3xe5xg7", "move", "c3xe5xg7" },
    { "b6", "square", "b6" },
    { "B6", "square", "b6" },
    { "d6-e9", "bad", "e9 is not a square", "square" },
    { "d6-e10", "bad", "e10 is not a square", "square" },
    { "e9-e5", "bad", "e9 is not a square", "square" },
    { "i1-a1", "bad", "i1 is not a square", "square" },
    { "k3-h4", "bad", "k3 is not a square", "square" },
    { "b6-b5", "bad", "b5 is a light square", "light" },
    { "d6--e5", "bad", "d6--e5 is not move text: write d6-e5", "spelling" },
    { "c3xxe5", "bad", "c3xxe5 is not move text: write c3xe5", "spelling" },
    { "b6a5", "bad", "b6a5 is not move text: write b6-a5", "spelling" },
    { "c7-d8=Q", "bad", "promotion is to K, B or C, not Q", "promotion" },
    { "e5=Q", "bad", "promotion is to K, B or C, not Q", "promotion" },
    { "e5=K", "bad", "e5=K is not move text: a move needs a start and an end square", "end" },
    { "d6-", "bad", "d6- is not move text: a move needs a start and an end square", "end" },
    { "Nb8-c7", "bad", "N is not a piece letter (P, K, B or C)", "piece" },
    { "d6-e5!", "bad", "d6-e5! is not move text: '!' after the move", "after" },
  }
  it("reads the shape of a word with the rules only, one message each", function()
    for _, row in ipairs(SHAPES) do
      local kind, text, fault = cheskers.move_shape(row[1])
      assert.same({ row[2], row[3], row[4] }, { kind, text, fault }, row[1])
      assert.same({ kind, text, fault }, { cheskers.new():move_shape(row[1]) }, row[1])
    end
  end)

  it("leaves what cannot be a move to Lua", function()
    for _, w in ipairs { "x=3", "a1=5", "c1=c2", "e5=q", "print(1)", "print(e5)", "board:moves()",
                         "n1-1", "e9", "i1", "x1", "Kb8", "", "1." } do
      assert.is_nil(cheskers.move_shape(w), w)
    end
  end)

  it("reads piece and promotion letters from the rules", function()
    -- a new kind N (docs/reference/rules.md, pieces) that pawns may become, besides K
    local rules = { promote = "KN", pieces = { N = { leaps = { { 1, 3 } } } } }
    assert.same({ "move", "Nb8-c7" }, { cheskers.move_shape("Nb8-c7", rules) })
    assert.same({ "move", "g7-h8=N" }, { cheskers.move_shape("g7-h8=n", rules) })
    assert.same({ "bad", "promotion is to K or N, not B", "promotion" },
      { cheskers.move_shape("g7-h8=B", rules) })
    assert.same({ "bad", "X is not a piece letter (P, K, B, C or N)", "piece" },
      { cheskers.move_shape("Xb8-c7", rules) })
    assert.same({ "bad", "promotion is to K, not C", "promotion" },
      { cheskers.move_shape("g7-h8=C", { promote = "K" }) })
    local b = cheskers.new(nil, rules)
    assert.same({ "move", "Nb8-c7" }, { b:move_shape("Nb8-c7") })
  end)

  it("sorts the words of a line by the board's rules", function()
    local b = cheskers.new()
    assert.same({ "d6-e5", "c3-d4" }, movetext.moves_of_line(b, "1. d6-e5 c3-d4"))
    assert.is_nil(movetext.moves_of_line(b, "d6-e5 x"))
    assert.is_nil(movetext.moves_of_line(b, "a1 = 3"))
    assert.equal("number", movetext.word_kind(b, "12..."))
    assert.equal("bad", movetext.word_kind(b, "b6a5"))
  end)

  -- position, move, the whole message (legal moves worked out by hand)
  local REFUSED = {
    -- W: Ka1 Pa3 Bf2; B: kh8 pb4 pc5 pd4: a3 blocked, the bishop's take optional
    { "7k/8/8/2p5/1p1p4/P7/5B2/K7 w 0 1", "a3-b4",
      "illegal move a3-b4: the piece on a3 is blocked; legal moves: a1-b2 f2-e1 f2-e3 f2-g1 f2-g3 f2-h4 f2xd4" },
    -- W: Ka1 Pa3 Pc3; B: kh8 pb4 pc5 pd4: c3 must jump
    { "7k/8/8/2p5/1p1p4/P1P5/8/K7 w 0 1", "a1-b2",
      "illegal move a1-b2: a capture elsewhere is compulsory; legal moves: c3xa5 c3xe5" },
    { "7k/8/8/8/8/2p5/1P6/K7 w 0 1", "b2-a3",
      "illegal move b2-a3: a capture is compulsory; legal moves from b2: b2xd4" },
    { START, "D4-E5",
      "illegal move d4-e5: d4 is empty; legal moves: b6-a5 b6-c5 b8-a5 b8-c5 d6-c5 d6-e5 f6-e5 f6-g5 h6-g5" },
    { START, "b8-c6", "illegal move b8-c6: c6 is a light square; legal moves from b8: b8-a5 b8-c5" },
    { "8/8/8/8/3k4/8/8/K7 b 0 1", "a1-b2",
      "illegal move a1-b2: the piece on a1 is White's and Black is to move; legal moves: d4-c3 d4-c5 d4-e3 d4-e5" },
    -- W: Ka1 Cg1 Pc3 Pf4; B: kh8 pd4. c3 must jump d4 (c3xe5, the only legal
    -- move); the camel leaps (1,3) from g1 to d2, f4 (its own pawn) and h4
    { CAMEL, "g1-f4", "illegal move g1-f4: f4 holds your own piece; legal moves: c3xe5" },
    { CAMEL, "g1-h4", "illegal move g1-h4: a capture elsewhere is compulsory; legal moves: c3xe5" },
    { CAMEL, "g1-e3", "illegal move g1-e3: not a legal path for the piece on g1; legal moves: c3xe5" },
    -- a step written as a capture: docs/reference/rules.md's wording, as b:parse says it
    { START, "b6xa5", "b6xa5 is not a capture: write b6-a5" },
    { START, "b6:a5", "b6:a5 is not a capture: write b6-a5" },
  }
  it("gives the true reason and the legal moves once", function()
    for _, row in ipairs(REFUSED) do
      local b = cheskers.new(row[1])
      local _, err = b:parse(row[2])
      assert.equal(row[3], movetext.illegal_message(b, row[2], err))
    end
  end)

  it("refuses a step written as a capture in the REPL as docs/reference/rules.md says", function()
    local S, _, err = session()
    assert.is_false(feed(S, "b6xa5"))
    assert.equal("cheskers: b6xa5 is not a capture: write b6-a5\n", err.text)
    assert.equal(START, S.board:fen())
  end)

  it("says a finished game is over in one wording", function()
    -- W: Ka1 Pc3; B: kd4 alone. c3xe5 takes Black's last king.
    local b = cheskers.new("8/8/8/8/3k4/2P5/8/K7 w 0 1")
    b:play("c3xe5")
    assert.equal("Game over. White wins: Black has no king left", movetext.game_over(b))
    assert.equal("Game over. White wins: Black has no king left; no more moves (undo or new)",
      movetext.illegal_message(b, "a1-b2"))
  end)
end)

describe("cheskers.cli under stock lua5.4", function()
  it("lists the subcommands and reads --help without the program's terminal module", function()
    local saved_preload, saved_loaded = package.preload["cheskers.readline"], package.loaded["cheskers.readline"]
    local saved_cli = package.loaded["cheskers.cli"]
    package.preload["cheskers.readline"], package.loaded["cheskers.readline"] = nil, nil
    package.loaded["cheskers.cli"] = nil
    local ok, err = pcall(function()
      local cli = require "cheskers.cli"
      local names = table.concat(cli.subcommands(), " ")
      -- repl/cheskers/cmd/ holds help.lua and match.lua (among others)
      assert.truthy((" " .. names .. " "):find(" help ", 1, true), names)
      assert.truthy((" " .. names .. " "):find(" match ", 1, true), names)
      assert.is_true(cli.wants_help { "x", "--help" })
      assert.is_false(cli.wants_help { "--", "-h" })
      assert.is_nil(package.loaded["cheskers.readline"])
    end)
    package.preload["cheskers.readline"], package.loaded["cheskers.readline"] = saved_preload, saved_loaded
    package.loaded["cheskers.cli"] = saved_cli
    assert(ok, err)
  end)

  it("a cheskers/cmd/WORD.lua in a folder of LUA_PATH is one more subcommand of the program", function()
    local dir = H.tmpdir()
    os.execute("mkdir -p " .. H.shell_quote(dir .. "/cheskers/cmd"))
    H.write_file(dir .. "/cheskers/cmd/zzhello.lua",
      'return { summary = "says hello", run = function(args) print("hello " .. args[1]) return 3 end }\n')
    local function run(args)
      local p = io.popen("LUA_PATH=" .. H.shell_quote(dir .. "/?.lua;;") .. " ./cheskers " .. args .. " 2>&1")
      local out = p:read("a")
      local _, _, code = p:close()
      return out, code
    end
    local out, code = run("zzhello there")
    assert.equal("hello there\n", out)
    assert.equal(3, code)
    out = run("help")
    assert.truthy(out:find("\n  zzhello +says hello\n"), out)
  end)

  it("says an unknown subcommand in the one wording, with the nearest name", function()
    local cli = require "cheskers.cli"
    local known = { "match", "tb", "tournament" }
    assert.equal("no subcommand 'tuornament' (did you mean 'tournament'?). Subcommands: match, tb, tournament.",
                 cli.no_subcommand("tuornament", nil, known))
    assert.equal("no file or subcommand 'zzzzz'. Subcommands: match, tb, tournament.",
                 cli.no_subcommand("zzzzz", "file or subcommand", known))
    assert.equal("no subcommand 'x'. Subcommands: none.", cli.no_subcommand("x", nil, {}))
  end)

  it("every subcommand answers -h and --help with its usage before reading the rest", function()
    local cli = require "cheskers.cli"
    local q = H.shell_quote
    for _, name in ipairs(cli.subcommands()) do
      for _, flag in ipairs({ "-h", "--help" }) do
        local p = io.popen("cd " .. q(require("helpers").ROOT) .. " && ./cheskers " .. name .. " --no-such-option " .. flag .. " 2>&1")
        local out = p:read("a")
        local _, _, code = p:close()
        assert.equal(0, code, name .. " " .. flag .. ": " .. out)
        assert.truthy(out:lower():find("^usage: cheskers " .. name), name .. " " .. flag .. ": " .. out)
      end
    end
  end)

  it("a subcommand's failure is one line naming it, with its exit status", function()
    local cli = require "cheskers.cli"
    local saved = io.stderr
    local lines = {}
    io.stderr = { write = function(_, ...) lines[#lines + 1] = table.concat({ ... }) end, flush = function() end }
    local ok, a, b = pcall(function() return cli.failure("rules", 2)("bad spec"), cli.failure("match")("no") end)
    io.stderr = saved
    assert(ok, a)
    assert.same({ 2, 1 }, { a, b })
    assert.same({ cli.progname .. " rules: bad spec\n", cli.progname .. " match: no\n" }, lines)
  end)

  it("reads a negative number after an option as its value, written apart or with '='", function()
    local cli = require "cheskers.cli"
    local function parser()
      local p = cli.parser("t")
      p:option("--sprt")
      p:option("-m --min"):convert(tonumber)
      p:flag("--quiet")
      p:argument("rest"):args("*")
      return p
    end
    local o = cli.parse_args(parser(), { "--sprt", "-25,0", "-m", "-1.5", "--quiet", "a" })
    assert.same({ "-25,0", -1.5, true, { "a" } }, { o.sprt, o.min, o.quiet, o.rest })
    assert.equal("-25,0", cli.parse_args(parser(), { "--sprt=-25,0" }).sprt)
    assert.equal(-0.5, cli.parse_args(parser(), { "--min", "-.5" }).min)
    -- a word after "--" stays a positional argument; an option word stays an option
    assert.same({ "--sprt", "-3" }, cli.parse_args(parser(), { "--", "--sprt", "-3" }).rest)
    local ok, err = pcall(cli.parse_args, parser(), { "--sprt", "--quiet" })
    assert.is_false(ok)
    assert.truthy(tostring(err):find("--sprt", 1, true), err)
    ok, err = pcall(cli.parse_args, parser(), { "-x5" })
    assert.is_false(ok)
    assert.truthy(tostring(err):find("unknown option", 1, true), err)
  end)

  it("cheskers help WORD says an unknown subcommand with the nearest name", function()
    local help = require "cheskers.cmd.help"
    local ok, err = pcall(help.run, { "matc" }, require "cheskers.cli")
    assert.is_false(ok)
    assert.truthy(err:find("^no subcommand 'matc' %(did you mean 'match'%?%)%. Subcommands: .*match"), err)
  end)
end)

describe("tb DIR", function()
  it("echoes the folder's name escaped: an escape sequence in it never reaches the terminal", function()
    local registry = require "repl.registry"
    local d = H.tmpdir()
    local dir = d .. "/x\27[2J\27]0;t\7y"
    assert.is_true(os.execute("mkdir '" .. dir .. "'"))
    local S, out, err = session()
    feed(S, "tb " .. dir, "tb " .. d .. "/none\27[31m")
    registry.settings.tb = nil
    H.rmdir(d)
    local text = out.text .. err.text
    assert.is_nil(text:find("\27", 1, true), text)
    assert.is_nil(text:find("\7", 1, true), text)
    assert.truthy(text:find("x\\x1b[2J\\x1b]0;t\\x07y", 1, true), text)
    assert.truthy(text:find("none\\x1b[31m", 1, true), text)
    -- the command it suggests works in sh for any folder name
    local hint = require("cheskers.puzzle").build_hint(cheskers.new(), "a b'c")
    assert.truthy(hint:find(" --dir 'a b'\\''c'$"), hint)
  end)
end)
