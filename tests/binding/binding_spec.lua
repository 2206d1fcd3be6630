-- tests/binding/binding_spec.lua - the Lua binding's own behaviour (lua/binding/lcheskers.c):
-- argument checking and error messages, move objects, copies, position
-- editing, rule tables read and written back, Lua hooks (errors, re-entrant
-- calls, busy boards), perft/divide with progress and interruption, closed
-- boards. Expected values come from docs/reference/rules.md and docs/reference/lua_api.md.
local cheskers = require "cheskers"

-- docs/reference/rules.md "Board and pieces": the start position, Black to move.
local START = "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b 0 1"

-- Black's moves from the start (docs/reference/rules.md): pawns step diagonally forward
-- (down) to empty squares; the camel b8 leaps (1,3) to a5 or c5 (e7 is its
-- own pawn); the kings d8 f8 and the bishop h8 are boxed in by their pawns.
local START_MOVES = {
  "b6-a5", "b6-c5", "b8-a5", "b8-c5", "d6-c5", "d6-e5", "f6-e5", "f6-g5", "h6-g5",
}

-- Hand-built positions (each rank adds up to 8, pieces on dark squares only).
local POS = {
  -- W: Kg1 Pc3; B: kh8 pd4 pf6. The only move: the chain c3xe5xg7.
  chain = "7k/8/5p2/8/3p4/2P5/8/6K1 w 0 1",
  -- W: Kg1 Pa7; B: kh8. a7-b8 promotes (=K, =B, =C); the king steps to f2, h2.
  promotion = "7k/P7/8/8/8/8/8/6K1 w 0 1",
  -- W: Kg1 Ce1; B: kh8 pd4. No jump; the camel takes e1xd4.
  take = "7k/8/8/8/3p4/8/8/4C1K1 w 0 1",
  -- W: Ka1; B: kh8 pb2 pc3. White has a king but no move: stalemated, Black wins.
  stalemate = "7k/8/8/8/8/2p5/1p6/K7 w 0 1",
  -- W: Ka1; B: (no king). Black has lost all its kings: White has won.
  no_black_king = "8/8/8/8/8/8/8/K7 b 0 1",
}

local function sorted(t)
  local c = {}
  for i, v in ipairs(t) do c[i] = v end
  table.sort(c)
  return c
end

local function texts(moves)
  local t = {}
  for i, m in ipairs(moves) do t[i] = tostring(m) end
  return t
end

-- Runs f(...) and checks that it raised an error whose message contains text.
-- Returns the message and the error value itself.
local function raises(text, f, ...)
  local ok, value = pcall(f, ...)
  assert.is_false(ok, "no error raised (expected '" .. text .. "')")
  local err = tostring(value)
  assert.is_truthy(err:find(text, 1, true), ("error %q does not contain %q"):format(err, text))
  return err, value
end

local function snapshot(b)
  return { fen = b:fen(), hash = b:hash(), nhist = #b:history() }
end

describe("module", function()
  it("has START, VERSION and the 32 dark squares in index order", function()
    assert.equal(START, cheskers.START)
    assert.is_string(cheskers.VERSION)
    local sq = cheskers.SQUARES
    assert.equal(32, #sq)
    -- sq = rank * 4 + file / 2: a1 c1 e1 g1, b2 d2 f2 h2, ...
    assert.same({ "a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2", "a3" }, { table.unpack(sq, 1, 9) })
    assert.equal("h8", sq[32])
    for _, name in ipairs(sq) do
      local f, r = name:byte(1) - 97, name:byte(2) - 49
      assert.equal(0, (f + r) % 2, name .. " is not dark")
    end
  end)

  it("new() gives the start position, Black to move", function()
    local b = cheskers.new()
    assert.equal(START, b:fen())
    assert.equal("black", b:turn())
    assert.same(START_MOVES, texts(b:moves()))
  end)

  it("new() checks its arguments", function()
    raises("bad argument #1", cheskers.new, 12)
    raises("bad argument #1", cheskers.new, {})
    raises("bad argument #2", cheskers.new, nil, 5)
    raises("bad argument #2", cheskers.new, nil, true)
  end)

  it("refuses bad positions with 'bad position: ...' naming the fault", function()
    raises("bad position:", cheskers.new, "xx")
    -- a8 is a light square
    local err = raises("bad position:", cheskers.new, "p7/8/8/8/8/8/8/K7 b")
    assert.is_truthy(err:find("a8", 1, true))
    -- a white pawn on rank 8
    raises("bad position:", cheskers.new, "1P6/8/8/8/8/8/8/K7 b")
    -- hostile text: very long, embedded zero byte
    raises("bad position:", cheskers.new, string.rep("8/", 100000))
    raises("bad position:", cheskers.new, START .. "\0 junk")
  end)
end)

describe("rule tables", function()
  local DEFAULT = {
    majority = true, capture = "mixed", promote = "KBC", first = "black",
    flying_kings = false, pawns_capture_backward = false,
    draw_repetition = 0, draw_quiet_plies = 0,
  }

  it("cheskers.rules() lists every option with the docs/reference/rules.md defaults", function()
    assert.same(DEFAULT, cheskers.rules())
    assert.same(DEFAULT, cheskers.rules("golomb"))
    assert.same(DEFAULT, cheskers.rules({}))
    assert.same(DEFAULT, cheskers.new():rules())
  end)

  it("keeps defaults for missing options", function()
    local r = cheskers.rules { majority = false }
    assert.is_false(r.majority)
    assert.equal("mixed", r.capture)
    assert.equal("KBC", r.promote)
  end)

  it("names unknown options and wrong types", function()
    raises("unknown rules option 'colour'", cheskers.rules, { colour = "red" })
    raises("unknown rules preset", cheskers.rules, "chess")
    -- the core's words (the same as for rules text): the value echoed, what is allowed
    raises("majority must be true or false, not 'yes'", cheskers.rules, { majority = "yes" })
    raises("majority must be true or false, not a table", cheskers.rules, { majority = {} })
    raises("capture must be one of 'mixed', 'jumps', 'all', 'optional', not 1", cheskers.rules, { capture = 1 })
    raises("draw_repetition must be 0 (off) or a whole number from 2 to 65535, not 2.5", cheskers.rules,
           { draw_repetition = 2.5 })
    raises("draw_repetition must be 0 (off) or a whole number from 2 to 65535, not ", cheskers.rules,
           { draw_repetition = 0 / 0 })
    raises("draw_quiet_plies must be a whole number from 0 to 65535, not 1e+20", cheskers.rules,
           { draw_quiet_plies = 1e20 })
    raises("unknown rules preset 'golmob' (did you mean 'golomb'?)", cheskers.rules, "golmob")
    raises("draw_repetition", cheskers.rules, { draw_repetition = math.maxinteger })
    raises("draw_repetition", cheskers.rules, { draw_repetition = 1 })  -- 0 or >= 2
    raises("capture", cheskers.rules, { capture = "some" })
    raises("promote", cheskers.rules, { promote = "" })
    raises("promote", cheskers.rules, { promote = "KQ" })
    raises("first", cheskers.rules, { first = "red" })
    raises("must be strings", cheskers.rules, { [1] = true })
    raises("'filter' must be a function", cheskers.rules, { filter = true })
    raises("'start' must be a string", cheskers.rules, { start = 1 })
    raises("bad position", cheskers.rules, { start = "xx" })
  end)

  it("reads piece kinds and refuses bad ones", function()
    raises("pieces", cheskers.rules, { pieces = 1 })
    raises("upper-case letter", cheskers.rules, { pieces = { n = { leaps = { { 2, 2 } } } } })
    raises("pieces.N", cheskers.rules, { pieces = { N = 1 } })
    raises("pieces.N.leaps", cheskers.rules, { pieces = { N = { leaps = { { 2 } } } } })
    raises("pieces.N.leaps", cheskers.rules, { pieces = { N = { leaps = { { 1e300, 1 } } } } })
    raises("unknown pieces.N field 'jumps'", cheskers.rules, { pieces = { N = { jumps = {} } } })
    raises("pieces.N.capture", cheskers.rules, { pieces = { N = { leaps = { { 2, 2 } }, capture = "eat" } } })
    raises("pieces.N.compulsory", cheskers.rules, { pieces = { N = { leaps = { { 2, 2 } }, compulsory = 1 } } })
    -- RULES/issue 6: only colour-bound vectors (a + b even); P and K are fixed
    raises("pieces.N", cheskers.rules, { pieces = { N = { leaps = { { 1, 2 } } } } })
    raises("pieces.K", cheskers.rules, { pieces = { K = { leaps = { { 1, 1 } } } } })
  end)

  it("b:rules() recreates the rule set", function()
    local spec = {
      majority = false, capture = "jumps", promote = "KC", first = "white",
      flying_kings = true, pawns_capture_backward = true,
      draw_repetition = 3, draw_quiet_plies = 40,
      start = "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1N1 b 0 1",
      pieces = {
        C = { leaps = { { 1, 3 }, { 3, 3 } } },
        N = { leaps = { { 2, 2 } }, capture = "jump" },
      },
      filter = function() return true end,
    }
    local b = cheskers.new(nil, spec)
    local r = b:rules()
    assert.same(cheskers.rules(r), r)
    for k, v in pairs(DEFAULT) do
      if spec[k] ~= nil then assert.equal(spec[k], r[k], k) else assert.equal(v, r[k], k) end
    end
    assert.equal(spec.start, r.start)
    assert.equal(spec.filter, r.filter)
    assert.is_nil(r.result)
    -- pieces: only the kinds that differ from the default (B is unchanged)
    assert.is_nil(r.pieces.B)
    assert.same({ { 1, 3 }, { 3, 3 } }, r.pieces.C.leaps)
    assert.equal("take", r.pieces.C.capture)
    assert.is_false(r.pieces.C.compulsory)      -- take: not compulsory by default
    assert.same({ { 2, 2 } }, r.pieces.N.leaps)
    assert.equal("jump", r.pieces.N.capture)
    assert.is_true(r.pieces.N.compulsory)       -- jump: compulsory by default
    -- the start option gives new()'s position; the N stands on g1
    assert.equal(spec.start, b:fen())
    assert.equal("N", b:get("g1"))
    local again = cheskers.new(nil, r)
    assert.equal(b:fen(), again:fen())
    assert.equal(b:perft(3), again:perft(3))
  end)

  it("gives perft counts of docs/reference/rules.md for recreated rule sets", function()
    local r = cheskers.new(nil, { majority = false }):rules()
    assert.equal(209816, cheskers.new(nil, r):perft(6))
    assert.equal(209035, cheskers.new(nil, cheskers.rules()):perft(6))
  end)

  it("first = white gives White the first move", function()
    assert.equal("white", cheskers.new(nil, { first = "white" }):turn())
  end)
end)

describe("move objects", function()
  it("describe a jump chain", function()
    local b = cheskers.new(POS.chain)
    local ms = b:moves()
    assert.equal(1, #ms)
    local m = ms[1]
    assert.equal("c3xe5xg7", tostring(m))
    assert.equal("c3", m.from)
    assert.equal("g7", m.to)
    assert.same({ "e5", "g7" }, m.path)
    assert.same({ "d4", "f6" }, sorted(m.captures))
    assert.equal("P", m.piece)
    assert.is_true(m.jump)
    assert.is_false(m.take)
    assert.is_nil(m.promotion)
    assert.is_nil(m.nonsense)
    assert.is_nil(m[1])
  end)

  it("describe a take", function()
    local ms = cheskers.new(POS.take):moves()
    local take
    for _, m in ipairs(ms) do if m.take then take = m end end
    -- a take exists but is not compulsory: steps and leaps stay legal
    assert.is_truthy(#ms > 1)
    assert.equal("e1xd4", tostring(take))
    assert.equal("C", take.piece)
    assert.same({ "d4" }, take.captures)
    assert.is_false(take.jump)
  end)

  it("describe promotions: three moves, one per piece", function()
    local b = cheskers.new(POS.promotion)
    local promos = {}
    for _, m in ipairs(b:moves()) do
      if m.from == "a7" then promos[#promos + 1] = m.promotion .. ":" .. tostring(m) end
    end
    assert.same({ "B:a7-b8=B", "C:a7-b8=C", "K:a7-b8=K" }, sorted(promos))
  end)

  it("are listed sorted by their text", function()
    local t = texts(cheskers.new(POS.promotion):moves())
    assert.same(sorted(t), t)
    assert.same({ "a7-b8=B", "a7-b8=C", "a7-b8=K", "g1-f2", "g1-h2" }, t)
  end)

  it("compare equal by start, end, captures and promotion", function()
    local a, b = cheskers.new(), cheskers.new()
    local ma, mb = a:moves(), b:moves()
    assert.is_false(rawequal(ma[1], mb[1]))
    assert.equal(ma[1], mb[1])
    assert.not_equal(ma[1], ma[2])
    assert.is_false(ma[1] == a)     -- a board is no move, and no error
    local p = cheskers.new(POS.promotion):moves()
    assert.not_equal(p[1], p[2])    -- a7-b8=B and a7-b8=C
  end)

  it("are read-only", function()
    local m = cheskers.new():moves()[1]
    assert.has_error(function() m.from = "a1" end)
    assert.equal("b6", m.from)
  end)
end)

describe("playing", function()
  it("plays text and move objects and returns the move", function()
    local b = cheskers.new()
    local m = b:play("b6-a5")
    assert.equal("b6-a5", tostring(m))
    assert.equal("white", b:turn())
    local w = b:moves()[1]
    assert.equal(w, b:play(w))
    assert.equal("black", b:turn())
    assert.equal(2, #b:history())
  end)

  it("refuses illegal, ambiguous or malformed moves with a clear error", function()
    local b = cheskers.new()
    raises("illegal move", b.play, b, "c3-d4")      -- White's pawn, Black to move
    raises("illegal move", b.play, b, "b6-b5")      -- light square
    raises("illegal move", b.play, b, "zz")
    raises("illegal move", b.play, b, string.rep("b6-a5", 1000))
    raises("illegal move", b.play, b, "b6-a5\0")
    raises("bad argument #1 to 'play'", function() return b:play({}) end)
    raises("bad argument #1 to 'play'", function() return b:play() end)
    raises("bad argument #1 to 'play'", function() return b:play(12.5) end)
    assert.equal(START, b:fen())
  end)

  it("parse returns the move or nil and a message", function()
    local b = cheskers.new()
    assert.equal("b8-c5", tostring(b:parse("Cb8-c5")))
    local m, msg = b:parse("c3-d4")
    assert.is_nil(m)
    assert.is_string(msg)
    m, msg = b:parse(string.rep("x", 10000))
    assert.is_nil(m)
    assert.is_string(msg)
    raises("bad argument #1 to 'parse'", function() return b:parse(nil) end)
  end)

  it("refuses a move from another position, takes an equal one", function()
    local b = cheskers.new()
    local other = cheskers.new()
    other:play("b6-a5")
    raises("illegal move", b.play, b, other:moves()[1])   -- a White move
    local m = cheskers.new():moves()[1]                     -- same move, other board
    assert.equal(m, b:play(m))
  end)

  it("refuses a stale move after undo and after another move", function()
    local b = cheskers.new()
    local black = b:moves()
    b:play("b6-a5")
    local white = b:moves()
    b:undo()
    raises("illegal move", b.play, b, white[1])   -- it is Black's turn again
    b:play(black[1])
    raises("illegal move", b.play, b, black[1])   -- Black moved already
  end)

  it("undo takes back the last move and returns it; nil when there is none", function()
    local b = cheskers.new()
    assert.is_nil(b:undo())
    local h0 = b:hash()
    local m = b:play("d6-e5")
    assert.not_equal(h0, b:hash())
    assert.equal(m, b:undo())
    assert.equal(START, b:fen())
    assert.equal(h0, b:hash())
    assert.equal(0, #b:history())
    assert.is_nil(b:undo())
  end)

  it("history lists the moves played", function()
    local b = cheskers.new()
    -- d6-e5, c3-d4 (c3 is left empty), e5xc3 over d4
    for _, t in ipairs { "d6-e5", "c3-d4", "e5xc3" } do b:play(t) end
    assert.same({ "d6-e5", "c3-d4", "e5xc3" }, texts(b:history()))
    assert.same({ "d4" }, b:history()[3].captures)
  end)

  it("hash is an integer, equal for the same pieces and side to move", function()
    local x, y = cheskers.new(), cheskers.new()
    for _, t in ipairs { "h6-g5", "a3-b4", "f6-e5" } do x:play(t) end
    for _, t in ipairs { "f6-e5", "a3-b4", "h6-g5" } do y:play(t) end
    assert.equal("integer", math.type(x:hash()))
    assert.equal(x:hash(), y:hash())
    assert.equal(x:fen(), y:fen())
  end)

  it("a finished game has no moves, refuses play, gives its result", function()
    local b = cheskers.new(POS.no_black_king)
    local w, why = b:result()
    assert.equal("white", w)
    assert.equal("kings", why)
    assert.same({}, b:moves())
    assert.equal(0, b:count())
    assert.equal(0, b:perft(3))
    assert.same({}, b:divide(2))
    raises("illegal move", b.play, b, "a1-b2")
    local s = cheskers.new(POS.stalemate)
    w, why = s:result()
    assert.equal("black", w)
    assert.equal("stalemate", why)
    assert.is_nil(cheskers.new():result())
  end)
end)

describe("copies", function()
  it("are independent, with the same position, rules and history", function()
    local b = cheskers.new(nil, { majority = false })
    b:play("b6-a5")
    local c = b:copy()
    assert.equal(b:fen(), c:fen())
    assert.same(b:rules(), c:rules())
    assert.same(texts(b:history()), texts(c:history()))
    c:play(c:moves()[1])
    assert.equal(1, #b:history())
    assert.equal("white", b:turn())
    b:undo()
    assert.equal(2, #c:history())
    assert.equal(START, b:fen())
    -- the copy's moves are refused by the original where illegal there
    raises("illegal move", b.play, b, c:moves()[1])
  end)
end)

describe("editing", function()
  it("get reads letters, upper case for White", function()
    local b = cheskers.new()
    assert.equal("c", b:get("b8"))
    assert.equal("K", b:get("c1"))
    assert.equal("B", b:get("a1"))
    assert.is_nil(b:get("a5"))
  end)

  it("get and put name bad squares", function()
    local b = cheskers.new()
    local err = raises("bad argument #1 to 'get'", function() return b:get("b1") end)
    assert.is_truthy(err:find("b1", 1, true))
    raises("bad square", b.get, b, "z9")
    raises("bad square", b.get, b, "a10")
    raises("bad square", b.get, b, string.rep("a", 10000))
    raises("bad argument #1 to 'get'", function() return b:get(nil) end)
    raises("bad square", b.put, b, "h1", "K")
  end)

  it("put sets and clears squares and clears the history", function()
    local b = cheskers.new()
    b:play("b6-a5")
    b:put("e5", "k")
    assert.equal("k", b:get("e5"))
    assert.equal(0, #b:history())
    assert.is_nil(b:undo())
    b:put("e5", nil)
    assert.is_nil(b:get("e5"))
    b:put("e5")
    assert.is_nil(b:get("e5"))
  end)

  it("put refuses unknown letters and pawns on their promotion rank", function()
    local b = cheskers.new()
    raises("bad argument #2 to 'put'", function() return b:put("e5", "Q") end)
    raises("bad argument #2 to 'put'", function() return b:put("e5", "KK") end)
    raises("bad argument #2 to 'put'", function() return b:put("e5", "") end)
    raises("bad argument #2 to 'put'", function() return b:put("e5", 1) end)
    raises("bad argument #2 to 'put'", function() return b:put("d8", "P") end)   -- White promotes on rank 8
    raises("bad argument #2 to 'put'", function() return b:put("c1", "p") end)   -- Black promotes on rank 1
    b:put("c1", "P")                                  -- White's own first rank
    assert.equal("P", b:get("c1"))
    assert.equal(START:gsub("B1K1K1C1", "B1P1K1C1"), b:fen())
  end)

  it("put knows the letters of new kinds", function()
    local b = cheskers.new(nil, { pieces = { N = { leaps = { { 2, 2 } } } } })
    b:put("e5", "N")
    b:put("g5", "n")
    assert.equal("N", b:get("e5"))
    assert.equal("n", b:get("g5"))
  end)
end)

describe("text diagram", function()
  it("shows eight ranks, the files, the side to move and the FEN", function()
    local lines = {}
    for l in tostring(cheskers.new()):gmatch("[^\n]+") do lines[#lines + 1] = l end
    assert.equal(10, #lines)
    -- rank 8 (docs/reference/rules.md): camel b8, kings d8 f8, bishop h8
    assert.equal("8", lines[1]:sub(1, 1))
    assert.equal("ckkb", lines[1]:sub(2):gsub("[%s|]", ""))
    assert.equal("....", lines[4]:sub(2):gsub("[%s|]", ""))   -- rank 5: empty dark squares
    assert.equal("BKKC", lines[8]:sub(2):gsub("[%s|]", ""))
    assert.equal("abcdefgh", lines[9]:gsub("%s", ""))
    assert.is_truthy(lines[10]:find("black", 1, true))
    assert.is_truthy(lines[10]:find(START, 1, true))
  end)
end)

describe("perft and divide", function()
  it("check the depth", function()
    local b = cheskers.new()
    assert.equal(1, b:perft(0))
    raises("bad argument #1 to 'perft'", function() return b:perft(-1) end)
    raises("bad argument #1 to 'perft'", function() return b:perft(65) end)
    raises("bad argument #1 to 'perft'", function() return b:perft(1.5) end)
    raises("bad argument #1 to 'perft'", function() return b:perft(0 / 0) end)
    raises("bad argument #1 to 'perft'", function() return b:perft(math.huge) end)
    raises("bad argument #1 to 'perft'", function() return b:perft("deep") end)
    raises("bad argument #1 to 'divide'", function() return b:divide(0) end)
    raises("bad argument #2 to 'perft'", function() return b:perft(2, 5) end)
  end)

  it("count as docs/reference/rules.md says; divide sums to perft", function()
    local b = cheskers.new()
    assert.equal(9, b:count())
    assert.equal(652, b:perft(3))
    local d = b:divide(3)
    local sum, n = 0, 0
    for text, count in pairs(d) do sum = sum + count; n = n + 1; assert.is_truthy(b:parse(text)) end
    assert.equal(652, sum)
    assert.equal(9, n)
  end)

  it("call progress after each root move", function()
    local b = cheskers.new()
    local calls = {}
    local total = b:perft(3, function(i, n, nodes) calls[#calls + 1] = { i, n, nodes } end)
    assert.equal(652, total)
    assert.equal(9, #calls)
    for k, c in ipairs(calls) do
      assert.equal(k, c[1])
      assert.equal(9, c[2])
      if k > 1 then assert.is_truthy(c[3] > calls[k - 1][3]) end
    end
    assert.equal(652, calls[9][3])
    local d = b:divide(3, function() end)
    assert.same(b:divide(3), d)
  end)

  it("keep the board busy during progress and free after an error", function()
    local b = cheskers.new()
    raises("board is busy", b.perft, b, 2, function() b:play("b6-a5") end)
    raises("stop here", b.perft, b, 2, function() error("stop here") end)
    assert.equal(START, b:fen())
    b:play("b6-a5")   -- not busy any more
    assert.equal(81, cheskers.new():perft(2))
  end)

  it("stop with 'interrupted' and leave the board as it was", function()
    local b = cheskers.new()
    local _, err = raises("interrupted", b.perft, b, 3, function() cheskers.interrupt() end)
    assert.equal("interrupted", cheskers.error_code(err))
    raises("interrupted", b.divide, b, 3, function() cheskers.interrupt() end)
    assert.equal(START, b:fen())
    assert.equal(0, #b:history())
    -- a later call starts afresh
    cheskers.interrupt()
    assert.equal(81, b:perft(2))
  end)
end)

describe("hooks", function()
  it("filter forbids moves everywhere: moves, count, play, perft", function()
    -- no camel moves: Black's start moves without b8-a5 and b8-c5
    local b = cheskers.new(nil, { filter = function(_, m) return m.piece ~= "C" end })
    local expect = {}
    for _, t in ipairs(START_MOVES) do if t:sub(1, 2) ~= "b8" then expect[#expect + 1] = t end end
    assert.same(expect, texts(b:moves()))
    assert.equal(#expect, b:count())
    assert.equal(#expect, b:perft(1))
    raises("illegal move", b.play, b, "b8-c5")
    local plain = cheskers.new()
    assert.is_truthy(b:perft(3) < plain:perft(3))
  end)

  it("filter gets a board copy and a move it may play on it", function()
    local seen = 0
    local b = cheskers.new(nil, { filter = function(board, m)
      seen = seen + 1
      assert.equal(START, board:fen())
      board:play(m)                  -- changes the copy only
      assert.equal("white", board:turn())
      return true
    end })
    assert.equal(9, #b:moves())
    assert.equal(9, seen)
    assert.equal(START, b:fen())
  end)

  it("an error in a hook surfaces and leaves the board unchanged", function()
    local b = cheskers.new(nil, { filter = function(_, m)
      if m.from == "h6" then error("no h-pawn today") end
      return true
    end })
    local before = snapshot(b)
    raises("no h-pawn today", b.moves, b)
    raises("no h-pawn today", b.count, b)
    raises("no h-pawn today", b.play, b, "b6-a5")
    raises("no h-pawn today", b.parse, b, "b6-a5")
    raises("no h-pawn today", b.result, b)
    raises("no h-pawn today", b.perft, b, 3)
    raises("no h-pawn today", b.divide, b, 3)
    raises("no h-pawn today", b.perft, b, 3, function() end)
    assert.same(before, snapshot(b))
    -- error values that are not strings come through as they are
    local t = cheskers.new(nil, { filter = function() error({ code = 7 }) end })
    local ok, err = pcall(t.moves, t)
    assert.is_false(ok)
    assert.equal(7, err.code)
  end)

  it("a filter must return a boolean", function()
    local b = cheskers.new(nil, { filter = function() end })
    raises("filter hook must return a boolean", b.moves, b)
  end)

  it("result decides the game with a winner and a reason", function()
    local function after_two(board)
      if #board:history() >= 2 then return "white", "tired" end
    end
    local b = cheskers.new(nil, { result = after_two })
    assert.is_nil(b:result())
    b:play("b6-a5")
    b:play("a3-b4")
    local w, why = b:result()
    assert.equal("white", w)
    assert.equal("tired", why)
    assert.same({}, b:moves())       -- the game is over
    assert.equal(0, b:count())
    local d = cheskers.new(nil, { result = function() return "draw" end })
    w, why = d:result()
    assert.equal("draw", w)
    assert.equal("hook", why)
    local bad = cheskers.new(nil, { result = function() return "red" end })
    raises("red", bad.result, bad)
    assert.equal(START, bad:fen())
  end)

  it("a hook cannot change the board it was called for (busy)", function()
    local b
    b = cheskers.new(nil, { filter = function() b:play("b6-a5"); return true end })
    raises("board is busy", b.moves, b)
    assert.equal(START, b:fen())
    local c
    c = cheskers.new(nil, { filter = function() c:undo(); return true end })
    c:put("a5", nil)   -- not busy outside the hook
    raises("board is busy", c.count, c)
    local g
    g = cheskers.new(nil, { filter = function() getmetatable(g).__close(g); return true end })
    raises("board is busy", g.moves, g)
    assert.equal(START, g:fen())
    -- reading it is allowed
    local r
    r = cheskers.new(nil, { filter = function() return r:fen() == START end })
    assert.equal(9, #r:moves())
  end)

  it("hooks calling hooks without end give an error, not a crash", function()
    local b = cheskers.new(nil, { filter = function(board) return #board:moves() > 0 end })
    raises("nested too deeply", b.moves, b)
    assert.equal(START, b:fen())
    local r = cheskers.new(nil, { result = function(board) return board:result() end })
    raises("nested too deeply", r.result, r)
  end)

  it("a hook cannot yield", function()
    local b = cheskers.new(nil, { filter = function() coroutine.yield(); return true end })
    local ok, err = coroutine.wrap(function() return pcall(b.moves, b) end)()
    assert.is_false(ok)
    assert.is_string(err)
    assert.equal(START, b:fen())
  end)

  it("cheskers.interrupt() from a hook stops perft", function()
    local b = cheskers.new(nil, { filter = function() cheskers.interrupt(); return true end })
    raises("interrupted", b.perft, b, 3)
    assert.equal(START, b:fen())
  end)
end)

describe("closed boards", function()
  it("refuse every call after __close", function()
    local kept
    do
      local b <close> = cheskers.new()
      kept = b
    end
    raises("closed board", kept.fen, kept)
    raises("closed board", kept.moves, kept)
    raises("closed board", kept.copy, kept)
    assert.is_string(tostring(kept))
    getmetatable(kept).__gc(kept)   -- closing twice is harmless
  end)

  it("methods refuse other values as self", function()
    local b = cheskers.new()
    local m = b:moves()[1]
    raises("cheskers.board expected", b.fen, m)
    raises("cheskers.board expected", b.fen, {})
    raises("cheskers.board expected", b.play, nil, "b6-a5")
    raises("cheskers.move expected", getmetatable(m).__tostring, b)
  end)
end)

describe("the Lua library's errors: one maker, codes of the binding's table", function()
  it("cheskers.raise raises an error value with a code; errorf a plain line", function()
    local ok, e = pcall(cheskers.raise, "locked", "%s is in use", "runs/x")
    assert.is_false(ok)
    assert.equal("locked", cheskers.error_code(e))
    assert.equal("runs/x is in use", tostring(e))
    local ok2, e2 = pcall(cheskers.errorf, "bad %d", 3)
    assert.is_false(ok2)
    assert.equal("bad 3", e2)
    assert.is_nil(cheskers.error_code(e2))
  end)

  it("error_value refuses a code the table does not have", function()
    assert.equal("bad_option", cheskers.error_code(cheskers.error_value("bad_option", "m")))
    local ok, e = pcall(cheskers.error_value, "lockd", "m")
    assert.is_false(ok)
    assert.matches("no error code 'lockd'", tostring(e), 1, true)
  end)
end)
