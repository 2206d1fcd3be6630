-- tests/binding/misuse_spec.lua - the Lua API under misuse (issue 7): every function
-- called with wrong types, nil, huge numbers, NaN, overlong strings; boards
-- of finished games; moves from another board or from before an undo;
-- re-entrant calls from hooks and callbacks; closed boards; coroutines.
-- Each must give a Lua error or a documented result, never a crash or a
-- corrupted board: after every call the board is checked against a board
-- read afresh from its own FEN (same FEN, same hash, same moves), and after a
-- raised error its FEN must be the one it had before.
--
-- Most checks are table-driven: a row per call, or a matrix of every method
-- against a list of hostile values. The sanitizer and valgrind runs (make
-- sanitize, make valgrind) run this file too; that is where a memory error
-- here would show.
local cheskers = require "cheskers"

local START = cheskers.START
-- A small position (kings and a few men) so that calls with default limits
-- (a search without options) stay fast.
local SMALL = "7k/2p5/8/4p3/3P4/8/5P2/K7 w 0 1"

-- ---- helpers -------------------------------------------------------------------

-- Whether b is consistent: a board read afresh from b's FEN under b's rules
-- has the same FEN, hash and legal moves. Returns true or false, reason.
local function consistent(b)
  local ok, fresh = pcall(cheskers.new, b:fen(), b:rules())
  if not ok then return false, "own FEN refused: " .. tostring(fresh) end
  if fresh:fen() ~= b:fen() then return false, "FEN " .. b:fen() .. " reads as " .. fresh:fen() end
  if fresh:hash() ~= b:hash() then return false, "hash differs from a fresh board's: " .. b:fen() end
  local a, f = {}, {}
  for _, m in ipairs(b:moves()) do a[#a + 1] = tostring(m) end
  for _, m in ipairs(fresh:moves()) do f[#f + 1] = tostring(m) end
  if table.concat(a, " ") ~= table.concat(f, " ") then
    return false, "moves differ from a fresh board's: " .. b:fen()
  end
  if b:count() ~= #a then return false, "count() disagrees with moves()" end
  return true
end

local function assert_consistent(b, what)
  local ok, why = consistent(b)
  assert(ok, (what and (what .. ": ") or "") .. tostring(why))
end

-- Calls f(...) protected; checks that the board survived: unchanged when the
-- call raised, consistent either way. Returns pcall's results.
local function guarded(b, what, f, ...)
  local before = b:fen()
  local r = table.pack(pcall(f, ...))
  if not r[1] then
    assert(type(r[2]) == "string" or cheskers.error_code(r[2]), what .. ": error value is not a string or an error value: " .. tostring(r[2]))
    assert(b:fen() == before, what .. ": raised (" .. r[2] .. ") but changed the board from " ..
           before .. " to " .. b:fen())
  end
  assert_consistent(b, what)
  return table.unpack(r, 1, r.n)
end

local function describe_value(v)
  if type(v) == "string" then
    if #v > 40 then return ("string of %d bytes"):format(#v) end
    return ("%q"):format(v)
  end
  if type(v) == "number" and v ~= v then return "NaN" end
  return tostring(v)
end

-- ---- hostile values ------------------------------------------------------------

local HUGE_TEXT = ("a1-"):rep(400000)
local function hostile_values(board, move)
  return {
    { "nil", nil }, { "true", true }, { "0", 0 }, { "-1", -1 }, { "2.5", 2.5 },
    { "2^53", 2 ^ 53 }, { "maxinteger", math.maxinteger }, { "mininteger", math.mininteger },
    { "1e308", 1e308 }, { "inf", math.huge }, { "-inf", -math.huge }, { "NaN", 0 / 0 },
    { "empty string", "" }, { "overlong string", HUGE_TEXT }, { "zero byte", "b6-a5\0x" },
    { "a square", "a1" }, { "a light square", "a2" }, { "empty table", {} },
    { "table of NaN", { depth = 0 / 0, moves = 0 / 0, nodes = 0 / 0, time = 0 / 0 } },
    { "table of huge", { depth = math.maxinteger, moves = 2 ^ 60, nodes = -1, time = 1e308 } },
    { "function", function() return 1 end }, { "coroutine", coroutine.create(function() end) },
    { "file handle", io.stdout }, { "a move", move }, { "another board", board },
  }
end

local BOARD_METHODS = {
  "bitboards", "copy", "count", "defend", "divide", "eval", "fen", "get", "hash", "history",
  "is_capture", "material", "mirror", "move_shape", "moveno", "moves", "ordered_moves", "parse", "perft",
  "piece_map", "pieces", "play", "probe", "put", "quiet", "refute", "result", "rules", "rules_id", "search",
  "solve", "squares", "svg", "tb_moves", "turn", "undo",
}

describe("misuse of the API", function()

  it("has every board method this suite knows (and knows every one)", function()
    local b = cheskers.new()
    local have = {}
    for name in pairs(getmetatable(b).__index) do have[#have + 1] = name end
    table.sort(have)
    assert.same(BOARD_METHODS, have)
  end)

  -- ---- wrong self ------------------------------------------------------------------

  it("raises for every method called on something that is not a board", function()
    local b = cheskers.new()
    local m = b:moves()[1]
    for _, name in ipairs(BOARD_METHODS) do
      local f = b[name]
      for _, v in ipairs({ nil, 1, "x", {}, m, io.stdout, f }) do
        local ok, err = pcall(f, v)
        assert(not ok, name .. " accepted self " .. tostring(v))
        assert.is_string(err)
      end
    end
    assert_consistent(b)
  end)

  -- ---- every method against every hostile value ------------------------------------

  it("survives every method called with every hostile value (start and small positions)", function()
    for _, fen in ipairs({ START, SMALL }) do
      local other = cheskers.new(SMALL)
      local move = other:moves()[1]
      for _, name in ipairs(BOARD_METHODS) do
        for _, hv in ipairs(hostile_values(other, move)) do
          -- two arguments too, so that second arguments are covered
          for _, second in ipairs({ false, true }) do
            local b = cheskers.new(fen)
            local what = ("b:%s(%s%s) at %s"):format(name, describe_value(hv[2]),
                                                      second and ", same" or "", fen)
            if second then
              guarded(b, what, b[name], b, "a1", hv[2])
            else
              guarded(b, what, b[name], b, hv[2])
            end
          end
        end
      end
      assert_consistent(other, "the other board")
    end
  end)

  it("survives the module functions called with every hostile value", function()
    local b = cheskers.new(SMALL)
    local move = b:moves()[1]
    local engine = cheskers.engine
    local defaults = engine.defaults()
    local fns = {
      { "cheskers.new", cheskers.new }, { "cheskers.rules", cheskers.rules },
      { "engine.weights", engine.weights }, { "engine.get", engine.get },
      { "engine.set", engine.set }, { "engine.features", engine.features },
    }
    for _, f in ipairs(fns) do
      for _, hv in ipairs(hostile_values(b, move)) do
        for _, second in ipairs({ false, true }) do
          local ok, err
          if second then
            ok, err = pcall(f[2], f[1] == "engine.set" and "pawn" or nil, hv[2])
          else
            ok, err = pcall(f[2], hv[2])
          end
          if not ok then
            assert(type(err) == "string" or cheskers.error_code(err), f[1] .. "(" .. hv[1] .. "): error is not a string or an error value")
            assert.same(defaults, engine.weights(), f[1] .. "(" .. hv[1] .. ") raised but changed the weights")
          end
          engine.reset()
        end
      end
    end
    assert_consistent(b)
  end)

  -- ---- documented errors, one row each ----------------------------------------------

  -- {description, function(b) ... end, error pattern or nil when it must not raise}
  local ROWS = {
    { "new: a number for the FEN", function() return cheskers.new(1) end, "string or nil" },
    { "new: an unknown preset", function() return cheskers.new(nil, "nope") end, "unknown rules preset" },
    { "new: an unknown option", function() return cheskers.new(nil, { nope = 1 }) end, "nope" },
    { "new: a non-string option name", function() return cheskers.new(nil, { [1] = true }) end, "names must be strings" },
    { "new: majority NaN", function() return cheskers.new(nil, { majority = 0 / 0 }) end, "majority" },
    { "new: draw_repetition NaN", function() return cheskers.new(nil, { draw_repetition = 0 / 0 }) end, "draw_repetition" },
    { "new: draw_repetition 1e300", function() return cheskers.new(nil, { draw_repetition = 1e300 }) end, "draw_repetition" },
    { "new: draw_repetition maxinteger", function() return cheskers.new(nil, { draw_repetition = math.maxinteger }) end, "draw_repetition" },
    { "new: draw_repetition 1", function() return cheskers.new(nil, { draw_repetition = 1 }) end, "draw_repetition" },
    { "new: draw_quiet_plies -1", function() return cheskers.new(nil, { draw_quiet_plies = -1 }) end, "draw_quiet_plies" },
    { "new: draw_quiet_plies 2.5", function() return cheskers.new(nil, { draw_quiet_plies = 2.5 }) end, "draw_quiet_plies" },
    { "new: capture wrong", function() return cheskers.new(nil, { capture = "sometimes" }) end, "capture" },
    { "new: first wrong", function() return cheskers.new(nil, { first = "red" }) end, "first" },
    { "new: promote empty", function() return cheskers.new(nil, { promote = "" }) end, "promote" },
    { "new: promote P", function() return cheskers.new(nil, { promote = "P" }) end, "promote" },
    { "new: promote overlong", function() return cheskers.new(nil, { promote = ("K"):rep(1e6) }) end, "promote" },
    { "new: pieces not a table", function() return cheskers.new(nil, { pieces = 5 }) end, "pieces" },
    { "new: pieces redefine P", function() return cheskers.new(nil, { pieces = { P = { leaps = { { 1, 1 } } } } }) end, "P" },
    { "new: pieces redefine K", function() return cheskers.new(nil, { pieces = { K = { leaps = { { 1, 1 } } } } }) end, "K" },
    { "new: pieces lower-case", function() return cheskers.new(nil, { pieces = { z = { leaps = { { 1, 1 } } } } }) end, "upper%-case" },
    { "new: pieces light vector", function() return cheskers.new(nil, { pieces = { Z = { leaps = { { 1, 2 } } } } }) end, "dark squares" },
    { "new: pieces huge vector", function() return cheskers.new(nil, { pieces = { Z = { leaps = { { 1e300, 1 } } } } }) end, "integers" },
    { "new: pieces NaN vector", function() return cheskers.new(nil, { pieces = { Z = { leaps = { { 0 / 0, 1 } } } } }) end, "integers" },
    { "new: pieces off-board vector", function() return cheskers.new(nil, { pieces = { Z = { rides = { { 9, 1 } } } } }) end, "board" },
    { "new: pieces no vector", function() return cheskers.new(nil, { pieces = { Z = { leaps = {} } } }) end, "vector" },
    { "new: pieces nine vectors", function()
        local v = {}
        for i = 1, 9 do v[i] = { 1, 1 } end
        return cheskers.new(nil, { pieces = { Z = { leaps = v } } })
      end, "8" },
    { "new: five new kinds", function()
        local p = {}
        for _, l in ipairs({ "A", "D", "E", "F", "G" }) do p[l] = { leaps = { { 1, 1 } } } end
        return cheskers.new(nil, { pieces = p })
      end, "too many" },
    { "new: pieces capture wrong", function() return cheskers.new(nil, { pieces = { Z = { leaps = { { 1, 1 } }, capture = "eat" } } }) end, "capture" },
    { "new: start not a string", function() return cheskers.new(nil, { start = 1 }) end, "start" },
    { "new: start a bad FEN", function() return cheskers.new(nil, { start = "8/8 w" }) end, "start" },
    { "new: filter not a function", function() return cheskers.new(nil, { filter = 1 }) end, "filter" },
    { "new: result not a function", function() return cheskers.new(nil, { result = "x" }) end, "result" },
    { "new: overlong FEN", function() return cheskers.new(("8/"):rep(1e5)) end, "too long" },
    { "new: FEN with a zero byte", function() return cheskers.new("8/8/8/8/8/8/8/8 w\0") end, "zero byte" },
    { "new: piece on a light square", function() return cheskers.new("K7/8/8/8/8/8/8/8 w") end, "light square" },
    { "new: pawn on its promotion rank", function() return cheskers.new("1P6/8/8/8/8/8/8/k7 w") end, "pawn" },
    { "new: letter of no kind", function() return cheskers.new("1q6/8/8/8/8/8/8/K7 w") end, "letter" },
    { "new: nine ranks", function() return cheskers.new("8/8/8/8/8/8/8/8/8 w") end, "rank" },
    { "new: move number 0", function() return cheskers.new("8/8/8/8/8/8/8/K7 w 0 0") end, "move number" },
    { "new: plies 70000", function() return cheskers.new("8/8/8/8/8/8/8/K7 w 70000 1") end, "plies" },
    { "play: empty text", function(b) return b:play("") end, "illegal move" },
    { "play: overlong text", function(b) return b:play(HUGE_TEXT) end, "too long" },
    { "play: zero byte", function(b) return b:play("b6-a5\0x") end, "zero byte" },
    { "play: light square", function(b) return b:play("b6-a6") end, "light square" },
    { "play: wrong side", function(b) return b:play("c3-d4") end, "illegal move" },
    { "play: no piece", function(b) return b:play("d4-e5") end, "illegal move" },
    { "play: a number", function(b) return b:play(1) end, "move or string" },
    { "play: a table", function(b) return b:play({ from = "b6", to = "a5" }) end, "move or string" },
    { "parse: overlong text returns nil, message", function(b)
        local m, err = b:parse(HUGE_TEXT)
        assert(m == nil and err:match("too long"), "parse: " .. tostring(err))
      end },
    { "parse: 33 squares returns nil, message", function(b)
        local m, err = b:parse(("b6x"):rep(33) .. "b6")
        assert(m == nil and type(err) == "string")
      end },
    { "perft: -1", function(b) return b:perft(-1) end, "depth" },
    { "perft: 65", function(b) return b:perft(65) end, "depth" },
    { "perft: NaN", function(b) return b:perft(0 / 0) end, "integer" },
    { "perft: 1e300", function(b) return b:perft(1e300) end, "integer" },
    { "perft: 2.5", function(b) return b:perft(2.5) end, "integer" },
    { "perft: progress not a function", function(b) return b:perft(1, 5) end, "function" },
    { "perft: 0 is 1", function(b) assert.equal(1, b:perft(0)) end },
    { "divide: 0", function(b) return b:divide(0) end, "depth" },
    { "get: light square", function(b) return b:get("a2") end, "light square" },
    { "get: off the board", function(b) return b:get("z9") end, "square" },
    { "get: overlong", function(b) return b:get(HUGE_TEXT) end, "square" },
    { "put: unknown piece", function(b) return b:put("a1", "Q") end, "unknown piece" },
    { "put: two letters", function(b) return b:put("a1", "PP") end, "unknown piece" },
    { "put: a number", function(b) return b:put("a1", 5) end, "piece letter" },
    { "put: white pawn on rank 8", function(b) return b:put("b8", "P") end, "pawn" },
    { "put: black pawn on rank 1", function(b) return b:put("a1", "p") end, "pawn" },
    { "search: NaN depth", function(b) return b:search({ depth = 0 / 0 }) end, "depth" },
    { "search: depth 0", function(b) return b:search({ depth = 0 }) end, "depth" },
    { "search: huge depth", function(b) return b:search({ depth = 1e9, nodes = 100 }) end, "depth" },
    { "search: negative nodes", function(b) return b:search({ nodes = -5 }) end, "nodes" },
    { "search: NaN time", function(b) return b:search({ time = 0 / 0 }) end, "time" },
    { "search: unknown option", function(b) return b:search({ bogus = 1 }) end, "unknown option" },
    { "search: eval not a function", function(b) return b:search({ eval = 5 }) end, "eval" },
    { "search: eval returns NaN", function(b) return b:search({ depth = 2, eval = function() return 0 / 0 end }) end, "eval" },
    { "search: eval returns a string", function(b) return b:search({ depth = 2, eval = function() return "x" end }) end, "eval" },
    { "search: eval raises", function(b) return b:search({ depth = 2, eval = function() error("boom") end }) end, "boom" },
    { "search: eval returns 1e300 (clamped)", function(b)
        local r = b:search({ depth = 2, eval = function() return 1e300 end })
        assert(r.move and math.abs(r.score) < cheskers.engine.WIN)
      end },
    { "search: weight NaN", function(b) return b:search({ depth = 2, weights = { pawn = 0 / 0 } }) end, "pawn" },
    { "search: weight huge", function(b) return b:search({ depth = 2, weights = { pawn = math.maxinteger } }) end, "pawn" },
    { "search: unknown weight", function(b) return b:search({ depth = 2, weights = { queen = 1 } }) end, "queen" },
    { "search: info raises", function(b) return b:search({ depth = 2, info = function() error("boom") end }) end, "boom" },
    { "solve: NaN", function(b) return b:solve(0 / 0) end, "integer" },
    { "solve: 0", function(b) return b:solve(0) end, "moves" },
    { "solve: 16", function(b) return b:solve(16) end, "moves" },
    { "solve: moves not a number", function(b) return b:solve({ moves = "x" }) end, "moves" },
    { "defend: 0", function(b) return b:defend(0) end, "moves" },
    { "defend: nil", function(b) return b:defend(nil) end, "number" },
    { "refute: no move", function(b) return b:refute(nil, 2) end, "move" },
    { "refute: illegal move", function(b) return b:refute("a1-b2", 2) end, "illegal" },
    { "refute: 0", function(b) return b:refute("b6-a5", 0) end, "moves" },
    { "engine.set: NaN", function() return cheskers.engine.set("pawn", 0 / 0) end, "integer" },
    { "engine.set: huge", function() return cheskers.engine.set("pawn", math.maxinteger) end, "range" },
    { "engine.set: unknown", function() return cheskers.engine.set("queen", 1) end, "queen" },
    { "engine.weights: one bad value changes nothing", function()
        local before = cheskers.engine.weights()
        assert(not pcall(cheskers.engine.weights, { pawn = 1, king = 0 / 0 }))
        assert.same(before, cheskers.engine.weights())
      end },
  }

  for _, row in ipairs(ROWS) do
    local name, f, pattern = row[1], row[2], row[3]
    it(name .. (pattern and (" raises (" .. pattern .. ")") or ""), function()
      local b = cheskers.new()
      local ok, err = guarded(b, name, f, b)
      if pattern then
        assert(not ok, name .. ": did not raise")
        assert(err:match(pattern), name .. ": message '" .. err .. "' does not say " .. pattern)
        assert(#err < 1000, name .. ": message of " .. #err .. " bytes")
      else
        assert(ok, name .. ": " .. tostring(err))
      end
      cheskers.engine.reset()
    end)
  end

  -- ---- finished games ------------------------------------------------------------------

  it("gives documented results on boards of finished games", function()
    local finished = {
      { "kings captured", "7k/8/8/8/8/8/8/6K1 w 0 1", function(b) b:put("h8", nil) end, "kings" },
      -- Ka1 cannot step to b2 nor jump it (c3 is taken): stalemated
      { "stalemate", "7k/8/8/8/8/2p5/1p6/K7 w 0 1", nil, "stalemate" },
      { "draw by quiet plies", "7k/8/8/8/8/8/8/K7 w 5 1", nil, "quiet", { draw_quiet_plies = 5 } },
      { "a result hook", START, nil, "purple", { result = function() return "draw", "purple" end } },
    }
    for _, row in ipairs(finished) do
      local b = cheskers.new(row[2], row[5])
      if row[3] then row[3](b) end
      local winner, reason = b:result()
      assert(winner, row[1] .. ": the game is not over")
      do
        assert.equal(row[4], reason, row[1])
        local fen = b:fen()
        assert.same({}, b:moves(), row[1])
        assert.equal(0, b:count(), row[1])
        assert.equal(0, b:perft(1), row[1])
        assert.equal(0, b:perft(3), row[1])
        assert.same({}, b:divide(2), row[1])
        assert.has_error(function() b:play("a1-b2") end)
        local m, err = b:parse("a1-b2")
        assert(m == nil and type(err) == "string", row[1] .. ": parse")
        if row[5] and row[5].result then
          -- rules with Lua hooks are searched (docs/guide/engine.md), not solved
          local r = b:search({ depth = 3 })
          assert(r.move == nil and #r.pv == 0, row[1] .. ": search under a hook found a move")
        else
          local r = b:search({ depth = 3 })
          assert(r.move == nil and #r.pv == 0, row[1] .. ": search found a move")
          assert.is_false(b:solve(2).win, row[1] .. ": solve")
          assert.is_nil((b:defend(2)), row[1] .. ": defend")
        end
        assert.is_nil(b:undo(), row[1] .. ": undo with no history")
        assert.equal(fen, b:fen(), row[1])
        assert_consistent(b, row[1])
      end
    end
  end)

  it("finishes a game by play and then refuses every move, and undo reopens it", function()
    local b = cheskers.new("8/8/8/8/8/8/1k6/K7 w 0 1")    -- a1xc3 takes Black's only king
    local m = assert(b:parse("a1xc3"))
    b:play(m)
    assert.equal("white", (b:result()))
    for _, mv in ipairs({ "h8-g7", "c3-d4", m }) do
      local ok = guarded(b, "play after the end", b.play, b, mv)
      assert.is_false(ok)
    end
    assert.equal(m, b:undo())
    assert.is_nil(b:result())
    assert_consistent(b)
  end)

  -- ---- stale and foreign moves -----------------------------------------------------------

  it("checks moves from another board, from before an undo, and after put", function()
    local a, b = cheskers.new(), cheskers.new()
    local ma = a:moves()
    -- a move object of another board in the same position is played as that move
    b:play(ma[1])
    assert.equal(tostring(ma[1]), tostring(b:history()[1]))
    assert_consistent(b)
    -- ... and refused in a position where it is illegal (the board unchanged)
    local ok = guarded(b, "foreign move", b.play, b, ma[2])
    assert.is_false(ok)

    -- the same move (==) is among the legal moves (a text may name a capture
    -- where the object was a step: b8-a5 for b8xa5)
    local function listed(board, m)
      for _, x in ipairs(board:moves()) do if x == m then return true end end
      return false
    end

    -- moves listed before an undo, played after a different move was made
    local c = cheskers.new()
    c:play("b6-a5")
    local after = c:moves()                 -- White's moves after b6-a5
    c:undo()
    c:play("d6-c5")
    for _, m in ipairs(after) do
      local legal = listed(c, m)
      local fen = c:fen()
      local okp = pcall(c.play, c, m)
      assert.equal(legal, okp, "stale move " .. tostring(m))
      if okp then
        assert_consistent(c)
        c:undo()
      end
      assert.equal(fen, c:fen())
    end
    -- a move from before an undo, replayed in the very same position
    local d = cheskers.new()
    local first = d:moves()
    d:play(first[3])
    d:undo()
    for _, m in ipairs(first) do
      d:play(m)
      assert_consistent(d)
      d:undo()
    end

    -- moves listed before b:put are checked again
    local e = cheskers.new()
    local before = e:moves()
    e:put("b6", nil)
    e:put("a5", "P")
    for _, m in ipairs(before) do
      local legal = listed(e, m)
      local oke = guarded(e, "move from before put " .. tostring(m), e.play, e, m)
      assert.equal(legal, oke, "move from before put " .. tostring(m))
      if oke then e:undo() end
    end

    -- a copy and its original diverge: each one's moves are checked on the other
    local f = cheskers.new()
    local g = f:copy()
    f:play("b6-a5")
    g:play("h6-g5")
    for _, m in ipairs(f:moves()) do
      local legal = listed(g, m)
      local okg = guarded(g, "move of the original on the copy", g.play, g, m)
      assert.equal(legal, okg)
      if okg then g:undo() end
    end
  end)

  it("keeps move objects usable after their board is collected", function()
    local moves
    do
      local b = cheskers.new()
      moves = b:moves()
      b:play(moves[1])
    end
    collectgarbage()
    collectgarbage()
    local b = cheskers.new()
    for _, m in ipairs(moves) do
      assert.is_string(tostring(m))
      assert.is_string(m.from)
      assert.is_nil(m.no_such_field)
      b:play(m)
      b:undo()
    end
    assert_consistent(b)
  end)

  -- ---- hooks and callbacks -----------------------------------------------------------------

  it("survives a filter hook that plays, undoes or edits the board it is given", function()
    for _, action in ipairs({ "play", "undo", "put", "moves", "copy-play" }) do
      local calls = 0
      local rules = { filter = function(board, move)
        calls = calls + 1
        if calls == 1 then
          if action == "play" then board:play(move)
          elseif action == "undo" then board:undo()
          elseif action == "put" then board:put(move.from, nil)
          elseif action == "moves" then board:moves()
          else local c = board:copy(); c:play(move)
          end
        end
        return true
      end }
      local b = cheskers.new(nil, rules)
      b:play("b6-a5")
      local fen = b:fen()
      calls = 0
      local ok = pcall(b.moves, b)
      assert.equal(fen, b:fen(), action .. ": the hook's action changed the board")
      calls = 0
      pcall(b.play, b, "c3-b4")
      calls = 0
      pcall(b.perft, b, 2)
      calls = 0
      pcall(b.result, b)
      -- the board is whatever the legal calls made it, and consistent
      local rules2 = b:rules()
      assert.is_function(rules2.filter)
      local hist = b:history()
      local replay = cheskers.new(nil, { })
      for _, m in ipairs(hist) do replay:play(tostring(m)) end
      assert.equal(replay:fen(), b:fen(), action .. ": history does not replay to the board")
      assert(ok ~= nil)
    end
  end)

  it("raises, board unchanged, when hooks recurse without end", function()
    local rr
    rr = { filter = function() return #cheskers.new(nil, rr):moves() >= 0 end }
    local b = cheskers.new(nil, rr)
    local ok, err = guarded(cheskers.new(), "recursion", b.moves, b)
    assert.is_false(ok)
    assert.matches("nested too deeply", err)

    local own = cheskers.new(nil, { filter = function(board) return #board:moves() >= 0 end })
    ok, err = pcall(own.moves, own)
    assert.is_false(ok)
    assert.matches("nested too deeply", err)
    assert.equal(START, own:fen())

    local res = cheskers.new(nil, { result = function(board) board:play("b6-a5") end })
    ok = pcall(res.result, res)
    assert.is_false(ok)
    assert.equal(START, res:fen())
  end)

  it("raises for hooks that fail or return junk, board unchanged", function()
    local hooks = {
      { filter = function() error("boom") end },
      { filter = function() error({}) end },
      { filter = function() return 1 end },
      { filter = function() return nil end },
      { filter = function() coroutine.yield() end },
      { result = function() error("boom") end },
      { result = function() return "purple" end },
      { result = function() return "white", 5 end },
      { result = function() return "white", {} end },
    }
    for i, rules in ipairs(hooks) do
      local b = cheskers.new(nil, rules)
      for _, call in ipairs({ "moves", "count", "result", "perft", "divide" }) do
        local ok, err = pcall(b[call], b, 2)
        assert(not ok, ("hook %d: b:%s did not raise"):format(i, call))
        assert(err ~= nil)
        assert.equal(START, b:fen())
      end
      assert.has_error(function() b:play("b6-a5") end)
      assert.equal(START, b:fen())
      assert.same({}, b:history())
    end
  end)

  it("raises 'board is busy' when a perft progress callback changes the board", function()
    local b = cheskers.new()
    for _, action in ipairs({ "play", "undo", "put" }) do
      for _, method in ipairs({ "perft", "divide" }) do
        local ok, err = guarded(b, method .. " progress " .. action, b[method], b, 2, function()
          if action == "play" then b:play("b6-a5")
          elseif action == "undo" then b:undo()
          else b:put("b6", nil) end
        end)
        assert.is_false(ok)
        assert.matches("busy", err)
        assert.equal(START, b:fen())
      end
    end
    assert.equal(81, b:perft(2))
  end)

  it("stops perft when interrupted from its progress callback, board restored", function()
    local b = cheskers.new()
    b:play("b6-a5")
    local fen = b:fen()
    local ok, err = pcall(b.perft, b, 4, function() cheskers.interrupt() end)
    assert.is_false(ok)
    assert.equal("interrupted", cheskers.error_code(err))
    assert.equal(fen, b:fen())
    -- the flag is cleared when the next call starts
    cheskers.interrupt()
    assert.equal(b:perft(2), cheskers.new(fen):perft(2))
    assert_consistent(b)
  end)

  it("survives callbacks that yield", function()
    local b = cheskers.new()
    local co = coroutine.wrap(function()
      return b:perft(2, function() coroutine.yield("yielded") end)
    end)
    local ok = pcall(co)
    assert.equal(START, b:fen())
    assert_consistent(b)
    assert(ok ~= nil)
    -- a board used from inside a coroutine, then the coroutine dropped
    local c = cheskers.new()
    local co2 = coroutine.create(function()
      c:play("b6-a5")
      coroutine.yield()
      c:play("c3-d4")
    end)
    coroutine.resume(co2)
    co2 = nil -- luacheck: ignore (dropped so that the collector frees its board)
    collectgarbage()
    assert_consistent(c)
  end)

  it("keeps the board consistent when search callbacks change it", function()
    for _, action in ipairs({ "play", "undo", "put", "search" }) do
      local b = cheskers.new()
      b:play("b6-a5")
      b:play("c3-b4")
      local done = false
      local ok, r = pcall(b.search, b, { depth = 4, info = function()
        if done then return end
        done = true
        if action == "play" then b:play(b:moves()[1])
        elseif action == "undo" then b:undo()
        elseif action == "put" then b:put("d6", nil)
        else b:search({ depth = 2 }) end
      end })
      assert_consistent(b, "info " .. action)
      if ok and r.move then
        -- a move the search answers is one of the board as it is now
        assert(b:parse(tostring(r.move)), "info " .. action .. ": search answered " ..
               tostring(r.move) .. ", illegal in " .. b:fen())
      end
    end
    -- eval gets a copy: whatever it does to it, the searched board is kept
    local b = cheskers.new()
    local r = b:search({ depth = 2, eval = function(copy)
      copy:play(copy:moves()[1])
      copy:search({ depth = 1 })
      copy:solve(1)
      return 0
    end })
    assert.equal(START, b:fen())
    assert(r.move and b:parse(tostring(r.move)))
  end)

  -- ---- closed boards -----------------------------------------------------------------------

  it("raises for a closed board, also when closed twice", function()
    local b = cheskers.new()
    local moves = b:moves()
    local mt = getmetatable(b)
    mt.__close(b)
    mt.__gc(b)
    mt.__gc(b)
    for _, name in ipairs(BOARD_METHODS) do
      local ok, err = pcall(b[name], b)
      assert(not ok, name .. " works on a closed board")
      assert.matches("closed", err)
    end
    local other = cheskers.new()
    other:play(moves[1])      -- its moves still work elsewhere
    assert_consistent(other)
    do
      local c <close> = cheskers.new()
      c:play("b6-a5")
    end
    collectgarbage()
  end)

  -- ---- volume -------------------------------------------------------------------------------

  it("survives long histories and many boards", function()
    local b = cheskers.new("7k/8/8/8/8/8/8/K7 w 0 1")
    local shuffle = { "a1-b2", "h8-g7", "b2-a1", "g7-h8" }
    for i = 1, 20000 do
      b:play(shuffle[(i - 1) % 4 + 1])
    end
    assert.equal(20000, #b:history())
    while b:undo() do end
    assert.equal("7k/8/8/8/8/8/8/K7 w 0 1", b:fen())
    for _ = 1, 2000 do cheskers.new() end   -- garbage boards, freed by the collector
    collectgarbage()
  end)
end)
