-- tests/core/edges_spec.lua - the edges the mutation run (make mutate) showed
-- untested: position and move text at their limits, parsers that accept only
-- what they write, perft right after a last king is taken, custom kinds,
-- the rules fingerprint of the solver's table, the solver on finished and
-- drawn games, and search facts (seldepth, stopping on a forced win).
-- Every expected value is worked out by hand from docs/reference/rules.md (the
-- reasoning is in the comments); none is copied from the program's output.
local cheskers = require "cheskers"
local record = require "cheskers.record"
local rulespec = require "cheskers.rulespec"

-- The message of a call that must fail, or nil when it did not.
local function message(f, ...)
  local ok, e = pcall(f, ...)
  if ok then return nil end
  return type(e) == "table" and tostring(e.message) or tostring(e)
end

local function refused(pattern, f, ...)
  local msg = message(f, ...)
  assert(msg, "expected an error matching '" .. pattern .. "', it succeeded")
  assert(msg:find(pattern, 1, true), "expected '" .. pattern .. "' in: " .. msg)
end

-- The moves listed (", " between them) after head in msg, sorted; fails
-- when msg does not start with head.
local function listed(msg, head)
  assert(msg:sub(1, #head) == head, msg)
  local got = {}
  for t in msg:sub(#head + 1):gmatch("[^, ]+") do got[#got + 1] = t end
  table.sort(got)
  return got
end

local function move_texts(b)
  local t = {}
  for i, m in ipairs(b:moves()) do t[i] = tostring(m) end
  table.sort(t)
  return t
end

-- Two bare kings: White a1 (file 0 + rank 0 even: dark), Black b8 (1 + 7).
local KINGS = "1k6/8/8/8/8/8/8/K7"

describe("position text at its edges", function()
  it("reads back the largest counts it accepts, both ways", function()
    -- docs/reference/rules.md: quiet plies 0 to 65535, move number 1 to 100000000
    local fen = KINGS .. " w 65535 100000000"
    assert.equal(fen, cheskers.new(fen):fen())
    refused("0 to 65535", cheskers.new, KINGS .. " w 65536 1")
    refused("from 1 to 100000000", cheskers.new, KINGS .. " w 0 100000001")
    refused("from 1 to 100000000", cheskers.new, KINGS .. " w 0 0")
  end)

  it("stops both counts at their largest value, so its own text reads back", function()
    -- White to move under the default rules (Black moves first): a White
    -- move ends the round, so the move number would go up; the king's step
    -- a1-b2 is quiet, so the quiet count would too. Both are at their
    -- largest value and stay there: the text written is the text read.
    local b = cheskers.new(KINGS .. " w 65535 100000000")
    b:play("a1-b2")
    local fen = "1k6/8/8/8/8/8/1K6/8 b 65535 100000000"
    assert.equal(fen, b:fen())
    assert.equal(fen, cheskers.new(b:fen()):fen())
    assert.equal(100000000, b:moveno())
    b:undo()
    assert.equal(KINGS .. " w 65535 100000000", b:fen())
  end)

  it("keeps the move number at its largest value after captures and promotions", function()
    -- each kind of move a different way through the board: a promotion
    -- (g7-h8=K), one jump (c3xe5 over d4), a chain of two (c3xe5xg7 over
    -- d4 and f6). Each is a White move (the round ends) that starts the
    -- quiet count again (a pawn moved, or a capture).
    local cases = {
      { "1k6/6P1/8/8/8/8/8/K7 w 7 100000000", "g7-h8=K", "1k5K/8/8/8/8/8/8/K7 b 0 100000000" },
      { "1k6/8/8/8/3k4/2P5/8/K7 w 5 100000000", "c3xe5", "1k6/8/8/4P3/8/8/8/K7 b 0 100000000" },
      { "1k6/8/5p2/8/3p4/2P5/8/K7 w 0 100000000", "c3xe5xg7", "1k6/6P1/8/8/8/8/8/K7 b 0 100000000" },
    }
    for _, c in ipairs(cases) do
      local b = cheskers.new(c[1])
      b:play(c[2])
      assert.equal(c[3], b:fen())
      assert.equal(c[3], cheskers.new(b:fen()):fen())
    end
  end)

  it("counts one below the largest value up to it", function()
    local b = cheskers.new(KINGS .. " w 65534 99999999")
    b:play("a1-b2")
    assert.equal("1k6/8/8/8/8/8/1K6/8 b 65535 100000000", b:fen())
  end)

  it("takes tabs between the fields and one line end after the last", function()
    local want = KINGS .. " w 3 7"
    assert.equal(want, cheskers.new(KINGS .. " w\t3\t7"):fen())
    assert.equal(want, cheskers.new(KINGS .. "\tw \t3 7"):fen())
    assert.equal(want, cheskers.new(KINGS .. " w 3 7\n"):fen())
    assert.equal(want, cheskers.new(KINGS .. " w 3 7\r\n"):fen())
    assert.equal(want, cheskers.new(KINGS .. " w 3 7 \t\r\n"):fen())
    -- the optional fields left out: counts 0 and 1
    assert.equal(KINGS .. " w 0 1", cheskers.new(KINGS .. " w\r\n"):fen())
    assert.equal(KINGS .. " b 0 1", cheskers.new(KINGS .. " b\n"):fen())
    assert.equal(KINGS .. " w 5 1", cheskers.new(KINGS .. " w 5\r\n"):fen())
  end)

  it("refuses what is not one line of its fields", function()
    refused("unexpected text after the position", cheskers.new, KINGS .. " w 3 7\n\n")
    refused("unexpected text after the position", cheskers.new, KINGS .. " w 3 7 x")
    refused("unexpected text after the position", cheskers.new, KINGS .. " w 3 7\nw")
    refused("side to move must be w or b", cheskers.new, KINGS .. " wb 3 7")
    refused("side to move must be w or b", cheskers.new, KINGS .. " x")
    refused("0 to 65535", cheskers.new, KINGS .. " w 3x 7")
    refused("0 to 65535", cheskers.new, KINGS .. " w -1 7")
    refused("from 1 to 100000000", cheskers.new, KINGS .. " w 3 7x")
    refused("missing side to move", cheskers.new, KINGS)
    -- a character that cannot be printed is shown as '?': DEL (127) and
    -- a control character (31)
    refused("unknown piece letter '?' on rank 8", cheskers.new, "\127" .. KINGS:sub(2) .. " w")
    refused("unknown piece letter '?' on rank 8", cheskers.new, "\31" .. KINGS:sub(2) .. " w")
    refused("unknown piece letter '~' on rank 8", cheskers.new, "~" .. KINGS:sub(2) .. " w")
  end)
end)

describe("move text at its edges", function()
  it("reads a move followed by a line end", function()
    -- the start position, Black to move: the pawn b6 steps to a5
    for _, text in ipairs { "b6-a5\n", "b6-a5\r\n", " b6-a5 \n" } do
      local b = cheskers.new()
      assert.equal("b6-a5", tostring(b:play(text)))
    end
  end)

  it("says what is missing from a move of one square", function()
    local b = cheskers.new()
    refused("a move needs a start and an end square", b.play, b, "b6")
    refused("a move needs a start and an end square", b.play, b, "b6\n")
  end)

  it("lists the legal moves of the piece named, and only those", function()
    -- the start: the pawn b6 steps to a5 or c5 (both empty); d4 is dark but
    -- out of its reach
    local b = cheskers.new()
    assert.same({ "b6-a5", "b6-c5" }, listed(message(b.play, b, "b6-d4"), "illegal move b6-d4: legal moves from b6 are "))
  end)

  it("says when a piece cannot move because a capture is compulsory", function()
    -- d6-e5 c3-d4: Black must jump e5xc3, so the pawn b6 has no legal move
    local b = cheskers.new()
    b:play("d6-e5")
    b:play("c3-d4")
    refused("illegal move b6-a5: the piece on b6 has no legal move (a capture is compulsory)",
      b.play, b, "b6-a5")
    -- without a compulsory capture, no such words: the start, White's
    -- bishop a1 is shut in by its pawn b2 (White to move first here)
    b = cheskers.new("1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 w 0 1")
    local msg = message(b.play, b, "a1-c3")
    assert.equal("illegal move a1-c3: the piece on a1 has no legal move", msg)
  end)

  it("says why text is no move, in the words of the REPL", function()
    -- docs/reference/rules.md "Move text": squares a1..h8 (dark ones), one separator
    -- between them, promotion to K, B or C; b:parse gives the message alone
    local b = cheskers.new()
    for _, row in ipairs {
      { "e9-e5", "e9 is not a square" },
      { "i1-a1", "i1 is not a square" },
      { "b6a5", "b6a5 is not move text: write b6-a5" },
      { "d6--e5", "d6--e5 is not move text: write d6-e5" },
      { "g7-h8=Q", "promotion is to K, B or C, not Q" },
      { "Nb8-c5", "N is not a piece letter (P, K, B or C)" },
      { "zz", "zz is not move text" },
    } do
      assert.same({ nil, row[2] }, { b:parse(row[1]) }, row[1])
      refused(row[2], b.play, b, row[1])
    end
    assert.equal(0, #b:history())
  end)

  it("names a move in its written form, whatever the case typed", function()
    -- the start: d6 steps to c5 or e5 only
    local b = cheskers.new()
    local m, msg = b:parse(" D6-D4\n")
    assert.is_nil(m)
    assert.same({ "d6-c5", "d6-e5" }, listed(msg, "illegal move d6-d4: legal moves from d6 are "))
  end)

  it("names the light square of a move", function()
    -- b5: file 1 + rank 4 = 5, odd: light (docs/reference/rules.md, squares)
    refused("b5 is a light square", cheskers.new().play, cheskers.new(), "b6-b5")
    local b = cheskers.new()
    refused("a2 is a light square", b.play, b, "a2-b3")
  end)

  it("refuses a capture sign on a quiet move, with the text to write", function()
    -- docs/reference/rules.md, move text: '-' may stand for 'x', never the other way
    for _, text in ipairs { "b6xa5", "b6:a5", "b6Xa5" } do
      local b = cheskers.new()
      refused(text .. " is not a capture: write b6-a5", b.play, b, text)
      assert.equal(0, #b:history())
    end
  end)

  it("still reads '-' for a capture where only one capture fits", function()
    -- from the start: d6-e5 c3-d4, then Black must jump e5xc3 over d4
    local b = cheskers.new()
    b:play("d6-e5")
    b:play("c3-d4")
    assert.equal("e5xc3", tostring(b:play("e5-c3")))
  end)

  it("reads a promotion letter written without '=', in either case", function()
    -- docs/reference/rules.md, move text: a promotion letter without '=' (g7-h8C) or
    -- in lower case is read. White pawn g7 (6 + 6: dark) steps to h8 (7 + 7)
    -- and promotes; the kings stand on a1 and g1, out of the way.
    local fen = "8/6P1/8/8/8/8/8/K5k1 w 0 1"
    for _, t in ipairs { { "g7-h8c", "g7-h8=C" }, { "g7-h8=k", "g7-h8=K" }, { "g7-h8b", "g7-h8=B" } } do
      assert.equal(t[2], tostring(cheskers.new(fen):play(t[1])))
    end
    -- an added kind whose letter is A, the first letter of the alphabet:
    -- the pawn may become it (promote = "KA"), with or without '='
    local rules = { pieces = { A = { leaps = { { 1, 1 } } } }, promote = "KA" }
    for _, text in ipairs { "g7-h8A", "g7-h8=A", "g7-h8a" } do
      local b = cheskers.new(fen, rules)
      assert.equal("g7-h8=A", tostring(b:play(text)))
      assert.equal("7A/8/8/8/8/8/8/K5k1 b 0 2", b:fen())
    end
  end)
end)

describe("rule options read only as written", function()
  it("refuses a promotion letter given twice", function()
    refused("promote lists K twice", cheskers.new, nil, { promote = "KKK" })
    refused("promote lists B twice", cheskers.new, nil, { promote = "KBB" })
    local r, err = rulespec.parse_text("promote=KBK")
    assert.is_nil(r)
    assert.truthy(err:find("promote lists K twice", 1, true), err)
    -- each letter once, in any order: accepted, and written back in the
    -- order of the kinds (K, B, C)
    assert.equal("KB", cheskers.new(nil, { promote = "BK" }):rules().promote)
  end)
end)

describe("game records", function()
  it("refuses a comment still open at the end of the text", function()
    local text = '[Rules "golomb"]\n\n1. d6-e5 {an open\ncomment c3-d4 *\n'
    local games, err = record.read(text)
    assert.is_nil(games)
    assert.equal("line 3: comment not closed", err)
  end)

  it("reads a comment closed on a later line", function()
    -- the moves after the comment are played: d6-e5, then c3-d4
    local b = assert(record.read("1. d6-e5 {a comment\nover two lines} c3-d4 *\n"))
    assert.equal(2, #b:history())
  end)
end)

describe("perft just after a last king is taken", function()
  -- White: king a1, pawn c3; Black: king d4 (its only one), pawn h6. White's
  -- one legal move is the compulsory jump c3xe5; Black then has no king and
  -- the game is over (docs/reference/rules.md: a finished game has no moves), though
  -- the pawn h6 could step. So perft(1) = 1 and perft(2) = perft(3) = 0.
  it("counts no move for the side that lost its last king", function()
    local b = cheskers.new("8/8/7p/8/3k4/2P5/8/K7 w 0 1")
    assert.same({ 1, 0, 0 }, { b:perft(1), b:perft(2), b:perft(3) })
    -- The same for Black: d6xf4 over White's last king e5; White's pawn a3
    -- could step, but the game is over.
    b = cheskers.new("7k/8/3p4/4K3/8/P7/8/8 b 0 1")
    assert.same({ 1, 0, 0 }, { b:perft(1), b:perft(2), b:perft(3) })
  end)
end)

describe("custom kinds", function()
  it("keeps the slides of a kind whose ride repeats one of its leaps", function()
    -- N leaps (1,1) and rides (1,1): it slides like a bishop. From a1 on
    -- an empty diagonal: b2 c3 d4 e5 f6 g7 h8, 7 moves; the king c1 steps
    -- to b2 or d2.
    local b = cheskers.new("1k6/8/8/8/8/8/8/N1K5 w 0 1",
      { pieces = { N = { leaps = { { 1, 1 } }, rides = { { 1, 1 } } } } })
    assert.same({ "a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6", "a1-g7", "a1-h8", "c1-b2", "c1-d2" },
      move_texts(b))
  end)

  it("names a quiet move and a capture with the same squares each by its text", function()
    -- N leaps (1,1) and (2,2) and captures by jumping (not compulsory). From
    -- a1 it leaps quietly to c3, and jumps over the black pawn b2 to c3:
    -- two moves, a1-c3 and a1xc3. The white king g1 steps to f2 or h2.
    local rules = { pieces = { N = { leaps = { { 1, 1 }, { 2, 2 } }, capture = "jump", compulsory = false } } }
    local fen = "7k/8/8/8/8/8/1p6/N5K1 w 0 1"
    assert.same({ "a1-c3", "a1xc3", "g1-f2", "g1-h2" }, move_texts(cheskers.new(fen, rules)))
    local b = cheskers.new(fen, rules)
    assert.equal("a1-c3", tostring(b:play("a1-c3")))
    assert.equal("7k/8/8/8/8/2N5/1p6/6K1 b 1 2", b:fen())   -- b2 still there
    b = cheskers.new(fen, rules)
    assert.equal("a1xc3", tostring(b:play("a1xc3")))
    assert.equal("7k/8/8/8/8/2N5/8/6K1 b 0 2", b:fen())     -- b2 taken
  end)

  it("names the bad vector of a kind in its refusal", function()
    -- docs/reference/rules.md: only vectors with a + b even (dark squares kept) that
    -- fit on the board are accepted; {0, 0} goes nowhere
    refused("vector {1,2} leaves the dark squares", cheskers.new, nil,
      { pieces = { A = { leaps = { { 1, 1 }, { 1, 2 } } } } })
    refused("vector {-3,0} leaves the dark squares", cheskers.new, nil,
      { pieces = { A = { rides = { { -3, 0 } } } } })
    refused("vector {0,0} is outside the board", cheskers.new, nil,
      { pieces = { A = { leaps = { { 0, 0 } } } } })
  end)

  it("slides a kind given by a ride vector alone, with eight directions", function()
    -- N rides (1,3) only (no leap), so all eight of (+-1, +-3), (+-3, +-1)
    -- are distinct directions. From a1 (file 0, rank 0) only (1,3) and (3,1)
    -- stay on the board: b4 then c7 (then off), d2 then g3 (then off), all
    -- empty. The king c1 steps to b2 or d2.
    local b = cheskers.new("1k6/8/8/8/8/8/8/N1K5 w 0 1", { pieces = { N = { rides = { { 1, 3 } } } } })
    assert.same({ "a1-b4", "a1-c7", "a1-d2", "a1-g3", "c1-b2", "c1-d2" }, move_texts(b))
  end)

  it("reads the lower-case letter of an added kind A as a Black piece", function()
    -- position text: upper case White, lower case Black, for added kinds
    -- too; 'a' is the first lower-case letter. b8 (1 + 7) and d8 are dark.
    local fen = "1a1k4/8/8/8/8/8/8/K1A5 w 0 1"
    local b = cheskers.new(fen, { pieces = { A = { leaps = { { 1, 1 } } } } })
    assert.same({ "b8" }, b:pieces("black", "A"))
    assert.same({ "c1" }, b:pieces("white", "A"))
    assert.equal(fen, b:fen())
  end)

  it("forces a compulsory take when no jump is possible", function()
    -- A takes (the default style) and its captures are compulsory. White:
    -- A a1, king g1; Black: pawn b2, king h8. No jump: the king g1 has
    -- only empty squares beside it. A's take a1xb2 is compulsory, so under
    -- capture = mixed only captures are legal: the king's steps g1-f2 and
    -- g1-h2 are not.
    local rules = { pieces = { A = { leaps = { { 1, 1 } }, compulsory = true } } }
    local b = cheskers.new("7k/8/8/8/8/8/1p6/A5K1 w 0 1", rules)
    assert.same({ "a1xb2" }, move_texts(b))
    -- the same take by a kind whose captures are not compulsory forces
    -- nothing (docs/reference/rules.md: a take alone never forces anything)
    rules.pieces.A.compulsory = false
    b = cheskers.new("7k/8/8/8/8/8/1p6/A5K1 w 0 1", rules)
    assert.same({ "a1xb2", "g1-f2", "g1-h2" }, move_texts(b))
  end)

  it("keeps a compulsory take beside a longer jump under the majority rule", function()
    -- docs/reference/rules.md: majority counts the pieces of one chain and never
    -- filters takes. White pawn c3 jumps d4 and f6: c3xe5xg7 (two pieces;
    -- g7 is not the last rank, and nothing lies beyond). A (compulsory
    -- takes) on a1 takes the pawn b2: one piece, still legal. The king g1
    -- cannot move: a capture is forced.
    local rules = { pieces = { A = { leaps = { { 1, 1 } }, compulsory = true } } }
    local b = cheskers.new("7k/8/5p2/8/3p4/2P5/1p6/A5K1 w 0 1", rules)
    assert.same({ "a1xb2", "c3xe5xg7" }, move_texts(b))
    -- and a jump of one piece by a kind whose jumps are not compulsory: N
    -- on a1 jumps b2 to c3 (an optional capture, legal under mixed) beside
    -- the pawn's two-piece chain e3xg5xe7 over f4 and f6
    rules = { pieces = { N = { leaps = { { 1, 1 } }, capture = "jump", compulsory = false } } }
    b = cheskers.new("7k/8/5p2/8/5p2/4P3/1p6/N5K1 w 0 1", rules)
    assert.same({ "a1xc3", "e3xg5xe7" }, move_texts(b))
  end)
end)

describe("the solver's table and the rules", function()
  -- White: king d2, bishop c1, pawns c5 e3; Black: kings d8 f8, pawns b6 f6.
  -- solve(5) visits a few hundred positions (no win for White).
  local FEN = "3k1k2/8/1p3p2/2P5/8/4P3/3K4/2B5 w 3 20"
  local N = 5

  it("reuses the table for a repeated solve", function()
    local first = cheskers.new(FEN):solve(N)
    local again = cheskers.new(FEN):solve(N)
    assert.truthy(first.nodes > 100, "first solve visited " .. first.nodes)
    -- every position of the first solve is in the table: the root's entry
    -- answers at once, so a handful of nodes at most
    assert.truthy(again.nodes <= 10, "second solve visited " .. again.nodes)
    assert.equal(first.win, again.win)
  end)

  it("drops the table when any rule option changes", function()
    -- each rule set differs from the defaults in one option; its text (the
    -- solver's fingerprint) must differ, so the solve after the defaults
    -- starts from an empty table: as many nodes as a first solve
    local others = {
      { promote = "BC" }, { promote = "KB" }, { promote = "KC" }, { promote = "K" },
      { majority = false }, { capture = "jumps" }, { capture = "all" }, { capture = "optional" },
      { first = "white" }, { flying_kings = true }, { pawns_capture_backward = true },
      { draw_quiet_plies = 200 },
      { pieces = { C = { leaps = { { 1, 3 }, { 1, 5 } } } } },
      { pieces = { B = { rides = { { 1, 1 } }, capture = "jump" } } },
    }
    for _, rules in ipairs(others) do
      cheskers.new(FEN):solve(N)
      local s = cheskers.new(FEN, rules):solve(N)
      local what = rulespec.format(rules)
      assert.truthy(s.nodes > 20, what .. ": the solve visited only " .. s.nodes .. " nodes")
      -- and back: the defaults do not reuse that table either
      local back = cheskers.new(FEN):solve(N)
      assert.truthy(back.nodes > 20, what .. ", then golomb: only " .. back.nodes .. " nodes")
    end
  end)
end)

describe("the solver on finished and drawn games", function()
  -- White to move, Black has no king: White has already won.
  local WHITE_WON = "8/8/8/8/8/8/8/K7 w 0 1"
  -- White to move with no king: Black has already won.
  local BLACK_WON = "1k6/8/8/8/8/8/8/8 w 0 1"
  -- draw_quiet_plies = 10 and 10 quiet plies: a draw.
  local DRAWN = KINGS .. " w 10 1"

  local function check_no_win(b)
    for _, opts in ipairs { 3, { moves = 3, all = false }, { moves = 3, all = true } } do
      local s = b:solve(opts)
      assert.is_false(s.win)
      assert.same({}, s.moves)
      assert.is_nil(s.shortest)
    end
  end

  it("finds no win where the game is over", function()
    -- the game is over whoever won it: no move, so no win to find
    check_no_win(cheskers.new(WHITE_WON))
    check_no_win(cheskers.new(BLACK_WON))
    check_no_win(cheskers.new(DRAWN, { draw_quiet_plies = 10 }))
  end)

  it("finds no win, and no error, where a filter leaves no move", function()
    -- the start, Black to move, every move forbidden: Black is stalemated
    -- (docs/reference/rules.md: the stalemated side loses), so the game is over
    local b = cheskers.new(nil, { filter = function() return false end })
    assert.equal(0, #b:moves())
    check_no_win(b)
    -- Black defends: White, the attacker, has already won
    local m, len = b:defend(2)
    assert.is_nil(m)
    assert.equal(0, len)
  end)

  it("defends: 0 when the attacker has won, no length when not", function()
    -- docs/reference/lua_api.md, b:defend: length 0 when the game is already won,
    -- move nil when the game is over; length nil when no win
    local m, len = cheskers.new(BLACK_WON):defend(3)
    assert.is_nil(m)
    assert.equal(0, len)
    m, len = cheskers.new(WHITE_WON):defend(3)
    assert.is_nil(m)
    assert.is_nil(len)
    m, len = cheskers.new(DRAWN, { draw_quiet_plies = 10 }):defend(3)
    assert.is_nil(m)
    assert.is_nil(len)
  end)

  it("refutes: no move is legal in a finished game", function()
    local b = cheskers.new(DRAWN, { draw_quiet_plies = 10 })
    refused("the game is over", b.refute, b, "a1-b2", 3)
    b = cheskers.new(WHITE_WON)
    refused("the game is over", b.refute, b, "a1-b2", 3)
  end)

  it("refutes: false for a move that ends the game in a draw", function()
    -- 9 quiet plies: the king's step makes 10, a draw at once
    local b = cheskers.new(KINGS .. " w 9 1", { draw_quiet_plies = 10 })
    assert.is_false(b:refute("a1-b2", 3))
    assert.equal(KINGS .. " w 9 1", b:fen())
  end)

  it("finds the win in one that takes the last king", function()
    -- the position of the perft test above: c3xe5 takes Black's last king
    local fen = "8/8/7p/8/3k4/2P5/8/K7 w 0 1"
    local b = cheskers.new(fen)
    local s = b:solve(2)
    assert.is_true(s.win)
    assert.equal(1, s.shortest)
    assert.equal("c3xe5", tostring(s.moves[1]))
    s = b:solve { moves = 2, all = false }
    assert.is_true(s.win)
    assert.equal(1, s.shortest)
    assert.equal("c3xe5", tostring(s.moves[1]))
    -- with one move allowed: the same win
    for _, all in ipairs { false, true } do
      s = b:solve { moves = 1, all = all }
      assert.is_true(s.win)
      assert.equal(1, s.shortest)
      assert.equal("c3xe5", tostring(s.moves[1]))
    end
    local defence, len = b:refute("c3xe5", 2)
    assert.is_nil(defence)
    assert.equal(1, len)
    -- Black to move after it has no move: defend says already won
    b:play("c3xe5")
    local m, l = b:defend(2)
    assert.is_nil(m)
    assert.equal(0, l)
  end)
end)

describe("search", function()
  it("counts the quiescence plies in seldepth", function()
    -- White: king a1, pawn c3; Black: king h8, pawns c5 e5. White's moves:
    -- a1-b2, c3-b4, c3-d4 (no capture). A depth 1 search looks one ply
    -- deep; after c3-d4 Black has two jumps (c5xe3, e5xc3), and after
    -- c3-b4 one (c5xa3): captures, which only quiescence searches, one ply
    -- further. So seldepth is at least 2.
    local s = cheskers.new("7k/8/8/2p1p3/8/2P5/8/K7 w 0 1"):search { depth = 1 }
    assert.equal(1, s.depth)
    assert.truthy(s.seldepth >= 2, "seldepth " .. s.seldepth)
  end)

  it("reports seldepth also when no iteration finished", function()
    -- the start, Black to move: depth 1 visits the root and its 9 children
    -- (docs/reference/rules.md: perft(1) = 9), so a budget of 5 nodes stops it before
    -- depth 1 finishes; it has been one ply deep by then
    local s = cheskers.new():search { nodes = 5 }
    assert.equal(0, s.depth)
    assert.truthy(s.move, "a move all the same")
    assert.truthy(s.seldepth >= 1, "seldepth " .. tostring(s.seldepth))
  end)

  it("stops deepening once a forced win is found", function()
    -- c3xe5 takes Black's last king: a win in one ply. A search allowed 30
    -- plies stops long before (docs/guide/engine.md: wins are scored with their
    -- distance; deeper iterations cannot find a shorter one).
    local s = cheskers.new("8/8/7p/8/3k4/2P5/8/K7 w 0 1"):search { depth = 30 }
    assert.equal("c3xe5", tostring(s.move))
    assert.truthy(s.depth < 30, "went on to depth " .. s.depth)
    assert.truthy(s.nodes < 1000, "visited " .. s.nodes .. " nodes")
    assert.truthy(s.score > 10000, "score " .. s.score)
  end)

  it("reports inside an iteration the last finished line, then the best so far", function()
    -- docs/guide/engine.md, info_every: a partial report at depth k shows the
    -- iteration's best line so far, else (before its first root move is
    -- scored) the last finished one. The root is searched with a full
    -- window, each root move once, and the best so far changes only when a
    -- move scores higher; so every partial report at depth k is either the
    -- finished depth k - 1 report (line and score) or a best so far: scores
    -- that never fall, none above the depth k result, and the one that
    -- starts with the depth k best move is that result. info_every = 1e-9
    -- reports at every limits poll (every 1024 nodes), so the 9000-odd
    -- nodes of depth 6 from the start give several reports of both kinds.
    local function line(t)
      local s = {}
      for i, m in ipairs(t.pv) do s[i] = tostring(m) end
      return table.concat(s, " ")
    end
    local done, partial = {}, {}
    cheskers.new():search { depth = 6, info_every = 1e-9, info = function(t)
      local r = { depth = t.depth, score = t.score, line = line(t), first = t.pv[1] and tostring(t.pv[1]) }
      assert.truthy(#t.pv >= 1, "a report with no line")
      if t.partial then partial[#partial + 1] = r else done[t.depth] = r end
    end }
    assert.equal(6, #done)
    local repeats, best = 0, 0
    local last = {}
    for _, r in ipairs(partial) do
      local prev, fin = done[r.depth - 1], done[r.depth]
      if prev and r.line == prev.line and r.score == prev.score then
        repeats = repeats + 1
      else
        best = best + 1
        assert.truthy(r.score <= fin.score, "best so far " .. r.score .. " above the result " .. fin.score)
        assert.truthy(r.score >= (last[r.depth] or r.score), "best so far fell")
        last[r.depth] = r.score
        if r.first == fin.first then
          assert.equal(fin.score, r.score)
          assert.equal(fin.line, r.line)
        end
      end
    end
    assert.truthy(repeats > 0 and best > 0, repeats .. " repeats, " .. best .. " best so far")
  end)

  it("sees a stalemate one ply deep, in quiescence, with pawns and a bishop stuck", function()
    -- White: kings c1 f8, pawns a3 c7 d4 f6 h6; Black: king h8, pawns b2
    -- g7, bishop a1. White has no jump (h6 over g7 lands on f8, f6 over g7
    -- on h8, c1 over b2 on a3: all taken). Black's only move now is g7xe5
    -- (over f6): b2 is stuck (a1 own, c1 White, no landing past c1), the
    -- bishop a1 behind b2, the king h8 behind g7. d4-e5 fills e5: then
    -- Black has no move and loses (docs/reference/rules.md, stalemate), a win one ply
    -- deep. No other move does it: c1-d2 frees c1 (b2-c1 promotes), f6-e7
    -- frees f6, the rest leave e5 empty. The c7 promotions are searched
    -- first; d4-e5 comes later with a narrow window, where a Black that
    -- wrongly seemed to have a quiet move would stand pat instead of losing.
    local s = cheskers.new("5K1k/2P3p1/5P1P/8/3P4/P7/1p6/b1K5 w 0 1"):search { depth = 1 }
    assert.equal("d4-e5", tostring(s.move))
    assert.truthy(s.score > 10000, "score " .. s.score)
  end)
end)

describe("evaluation features", function()
  -- docs/guide/engine.md: king_attacked counts a side's kings the other side could
  -- capture if it were to move, attacked its other pieces; features are the
  -- side to move's count minus the other side's. No bishops or camels here,
  -- so only jumps attack.
  local function attacks(fen, rules)
    local f = cheskers.engine.features(cheskers.new(fen, rules))
    return { f.king_attacked, f.attacked }
  end

  it("counts a pawn's forward jump and a king's jump as attacks", function()
    -- White to move: the pawn c3 could jump the king d4 (landing e5 empty):
    -- Black has one king attacked; the king d4 could jump the pawn c3
    -- (landing b2 empty): White has one other piece attacked. The kings a1,
    -- h8 touch nothing. king_attacked 0 - 1, attacked 1 - 0.
    assert.same({ -1, 1 }, attacks("7k/8/8/8/3k4/2P5/8/K7 w 0 1"))
    -- Black to move, the mirror: the pawn d6 could jump the king e5 (to f4),
    -- the king e5 the pawn d6 (to c7).
    assert.same({ -1, 1 }, attacks("7k/8/3p4/4K3/8/8/8/K7 b 0 1"))
  end)

  it("counts a pawn's backward jump only under pawns_capture_backward", function()
    -- White to move: the king d4 could jump the pawn e5 (to f6): attacked 1.
    -- The pawn e5 is in front of the king d4: it attacks it only jumping
    -- backward (to c3), which pawns_capture_backward allows.
    assert.same({ 0, 1 }, attacks("7k/8/8/4P3/3k4/8/8/K7 w 0 1"))
    assert.same({ -1, 1 }, attacks("7k/8/8/4P3/3k4/8/8/K7 w 0 1", { pawns_capture_backward = true }))
  end)
end)

describe("evaluation features of added kinds", function()
  it("counts the pieces of added kinds as extra, and nothing else there", function()
    -- two added kinds, N and M: White has N c1 and M g1, Black n h8, so
    -- extra is 2 - 1 = 1 for White to move and -1 for Black; no bishops or
    -- camels on the board
    local rules = { pieces = { N = { leaps = { { 2, 2 } } }, M = { leaps = { { 1, 1 } } } } }
    local f = cheskers.engine.features(cheskers.new("1k5n/8/8/8/8/8/8/K1N3M1 w 0 1", rules))
    assert.same({ 1, 0, 0 }, { f.extra, f.bishop, f.camel })
    f = cheskers.engine.features(cheskers.new("1k5n/8/8/8/8/8/8/K1N3M1 b 0 1", rules))
    assert.equal(-1, f.extra)
    -- no added kind: extra is 0
    assert.equal(0, cheskers.engine.features(cheskers.new(KINGS .. " w")).extra)
  end)
end)
