-- tests/core/tbuse_spec.lua - the endgame tablebases used by the engine
-- (b:search{tb =}: exact scores, the tables' best move at a covered root),
-- by the solver (b:solve/defend/refute{tb =}: covered positions answered
-- by the tables, wins past 15 moves) and by the puzzle checker
-- (puzzle.check(p, {tb =})), and the search's progress inside an iteration
-- (b:search{info_every =}). Tables up to 3 pieces (and KCvKK) are built
-- here. Expected values come from the rules (a win in d plies is a game
-- won d plies on, which is d / 2 rounded up of the winner's own moves) and
-- from another part of the program answering the same question (the
-- tables' own move values, the solver without tables), never from the
-- output under test.
local cheskers = require "cheskers"
local H = require "helpers"
local puzzle = require "cheskers.puzzle"

local WIN = cheskers.engine.WIN
local DIR = H.tmpdir()
assert(cheskers.tb.build { pieces = 3, dir = DIR })
assert(cheskers.tb.build { pieces = 4, dir = DIR, only = "KCvKK" })
local T = cheskers.tb.open(DIR)

-- A generator of its own, so that the samples do not depend on other specs.
local seed = 14
local function rnd(n)
  seed = (seed * 6364136223846793005 + 1442695040888963407)
  return ((seed >> 33) % n) + 1
end

-- A random legal position, the game going on: a king a side and the other
-- letters given, on random dark squares.
local function random_position(extra)
  while true do
    local b = cheskers.new("8/8/8/8/8/8/8/8 " .. (rnd(2) == 1 and "w" or "b"))
    local free = {}
    for _, sq in ipairs(cheskers.SQUARES) do free[#free + 1] = sq end
    local ok = true
    for _, l in ipairs { "K", "k", table.unpack(extra) } do
      local i = rnd(#free)
      ok = ok and pcall(b.put, b, free[i], l)
      table.remove(free, i)
    end
    local good, fresh = pcall(cheskers.new, b:fen())
    if ok and good and not fresh:result() then return fresh end
  end
end

local LETTERS = { "K", "B", "C", "P", "k", "b", "c", "p" }
local function random_letters(n)
  local t = {}
  for i = 1, n do t[i] = LETTERS[rnd(#LETTERS)] end
  return t
end

-- The search score of a table value for the side to move: a game won (or
-- lost) d plies on (docs/guide/engine.md).
local function score_of(value, d)
  if value == "draw" then return 0 end
  return value == "win" and WIN - d or -(WIN - d)
end

-- The best table value among b's moves (tables' move values, distances
-- counting the move): the best score and the set of moves that reach it.
local function best_by_moves(b)
  local best, set = nil, {}
  for _, e in ipairs(assert(b:tb_moves(T))) do
    assert(e.value, "every move of a covered position is covered")
    local s = score_of(e.value, e.distance)
    if not best or s > best then best, set = s, {} end
    if s == best then set[tostring(e.move)] = true end
  end
  return best, set
end

describe("the engine with tablebases", function()
  it("answers a covered root with a best move of the tables and the exact score", function()
    for _ = 1, 150 do
      local b = random_position(random_letters(1))
      local value, d = b:probe(T)
      assert.is_not_nil(value)
      local r = b:search { depth = 3, tb = T }
      local best, set = best_by_moves(b)
      assert.are.equal(score_of(value, d), r.score, b:fen())
      assert.are.equal(best, r.score, b:fen())
      assert.is_true(set[tostring(r.move)], b:fen() .. " " .. tostring(r.move))
      assert.is_true(r.tb)
      -- the line is legal and starts with the move
      local c = b:copy()
      for _, m in ipairs(r.pv) do c:play(tostring(m)) end
      assert.are.equal(tostring(r.move), tostring(r.pv[1]))
    end
  end)

  it("answers a root whose moves all lead into tables with the tables' best", function()
    local n = 0
    while n < 60 do
      local b = random_position(random_letters(2))
      local all_capture = b:count() > 0
      for _, m in ipairs(b:moves()) do
        if #m.captures == 0 then all_capture = false end
      end
      if all_capture and not b:probe(T) then
        n = n + 1
        local best, set = best_by_moves(b)
        for _, depth in ipairs { 1, 4 } do
          local r = b:search { depth = depth, tb = T }
          assert.are.equal(best, r.score, b:fen() .. " depth " .. depth)
          assert.is_true(set[tostring(r.move)], b:fen())
        end
      end
    end
  end)

  -- King and pawn against two kings, the pawn about to promote: promoting
  -- to a camel leads into KC v KK (built above), the other moves into
  -- tables that are not there. So the root is searched, and only the
  -- tables can give a depth-1 search a forced-win score.
  it("scores covered positions inside the search exactly", function()
    local n, tries = 0, 0
    while n < 20 and tries < 200000 do
      tries = tries + 1
      local files, rank7 = "abcdefgh", {}
      for f = 1, 7, 2 do rank7[#rank7 + 1] = files:sub(f, f) .. "7" end
      local b = cheskers.new("8/8/8/8/8/8/8/8 w")
      local sq = rank7[rnd(#rank7)]
      b:put(sq, "P")
      local free = {}
      for _, q in ipairs(cheskers.SQUARES) do if q ~= sq then free[#free + 1] = q end end
      for _, l in ipairs { "K", "k", "k" } do
        local i = rnd(#free)
        b:put(free[i], l)
        table.remove(free, i)
      end
      local ok, c = pcall(cheskers.new, b:fen())
      if ok and not c:result() and not c:probe(T) then
        local camel, quiet = nil, true
        for _, e in ipairs(c:tb_moves(T)) do
          if #e.move.captures > 0 then quiet = false end
          if tostring(e.move):match("=C$") then camel = e end
        end
        local plain = quiet and camel and camel.value == "win" and c:search { depth = 1 }
        if plain and math.abs(plain.score) < cheskers.engine.MATE_MIN then
          n = n + 1
          local r = c:search { depth = 1, tb = T }
          assert.is_nil(r.tb, c:fen())
          assert.is_true(r.score >= WIN - camel.distance, c:fen())
          assert.is_true(r.score >= cheskers.engine.MATE_MIN, c:fen())
        end
      end
    end
    assert.are.equal(20, n)
  end)

  it("searches as before without tables, and without them under draw_quiet_plies", function()
    local b = cheskers.new("8/8/8/8/3K4/8/8/2k5 w")
    assert.is_nil(b:search { depth = 3 }.tb)
    local q = cheskers.new("8/8/8/8/3K4/8/8/2k5 w", { draw_quiet_plies = 10 })
    assert.is_nil(q:search { depth = 3, tb = T }.tb)
    assert.is_true(b:search { depth = 3, tb = T }.tb)
  end)

  it("refuses a tb option that is not a tables object", function()
    local b = cheskers.new()
    assert.has_error(function() b:search { depth = 1, tb = "tb" } end)
  end)
end)

describe("search progress inside an iteration (info_every)", function()
  it("reports the iteration in progress with a legal best line so far", function()
    local b = cheskers.new()
    local fen = b:fen()
    local done, partials = 0, 0
    b:search { depth = 9, info_every = 0.001, info = function(t)
      if t.partial then
        partials = partials + 1
        assert.are.equal(done + 1, t.depth)
        assert.is_true(#t.pv >= 1)
        local c = cheskers.new(fen)     -- (b itself is mid-search meanwhile)
        for _, m in ipairs(t.pv) do c:play(tostring(m)) end
      else
        assert.are.equal(done + 1, t.depth)
        done = t.depth
      end
    end }
    assert.are.equal(9, done)
    assert.is_true(partials > 0)
    assert.are.equal(fen, b:fen())
  end)

  it("makes no partial report without info_every", function()
    local partial = false
    cheskers.new():search { depth = 7, info = function(t) partial = partial or t.partial == true end }
    assert.is_false(partial)
  end)

  it("stops with the info function's error from inside an iteration, the board restored", function()
    local b = cheskers.new()
    local fen = b:fen()
    local ok, err = pcall(b.search, b, { depth = 12, info_every = 0.001, info = function(t)
      if t.partial then error("enough") end
    end })
    assert.is_false(ok)
    assert.matches("enough", tostring(err))
    assert.are.equal(fen, b:fen())
  end)

  it("checks info_every", function()
    local b = cheskers.new()
    assert.has_error(function() b:search { depth = 1, info_every = 0 } end)
    assert.has_error(function() b:search { depth = 1, info_every = "x" } end)
  end)
end)

describe("the solver with tablebases", function()
  it("wins within n exactly when the tables win in at most 2n - 1 plies", function()
    for _ = 1, 200 do
      local b = random_position(random_letters(1))
      local value, d = b:probe(T)
      local s = b:solve { moves = 17, tb = T }
      local want = value == "win" and (d + 1) // 2 <= 17
      assert.are.equal(want, s.win, b:fen())
      if want then assert.are.equal((d + 1) // 2, s.shortest, b:fen()) end
    end
  end)

  it("agrees with the solver alone where the root is not covered", function()
    for _ = 1, 40 do
      local b = random_position(random_letters(2))
      local with, alone = b:solve { moves = 3, tb = T }, b:solve(3)
      assert.are.equal(alone.win, with.win, b:fen())
      assert.are.equal(alone.shortest, with.shortest, b:fen())
      assert.are.equal(#alone.moves, #with.moves, b:fen())
      for i, m in ipairs(alone.moves) do
        assert.are.equal(tostring(m), tostring(with.moves[i]))
        assert.are.equal(alone.lengths[i], with.lengths[i])
      end
      local _, l1 = b:defend(3)
      local _, l2 = b:defend { moves = 3, tb = T }
      assert.are.equal(l1, l2, b:fen())
    end
  end)

  it("asks for tables past 15 moves", function()
    local b = cheskers.new("1K1K4/8/8/8/8/8/8/2k5 w")
    local ok, err = pcall(b.solve, b, 17)
    assert.is_false(ok)
    assert.matches("need tablebases", tostring(err))
    ok, err = pcall(b.solve, b, { moves = 17 })
    assert.is_false(ok)
    assert.matches("need tablebases", tostring(err))
    assert.has_error(function() b:solve { moves = 65, tb = T } end)
  end)
end)

-- The tables' main line from b: best moves until the game ends.
local function table_line(b)
  local c, line = b:copy(), {}
  while not c:result() do
    local m = assert(T:best(c))
    line[#line + 1] = tostring(m)
    c:play(m)
  end
  return line
end

describe("check with tablebases", function()
  -- K+C against two kings: White wins in 59 plies (30 moves), b4-c5 the
  -- only winning move (the tables' move values say so: checked below).
  local STUDY = "8/k3k3/8/8/1K6/2C5/8/8 w"

  it("judges a win in 30 exactly with tables", function()
    local b = cheskers.new(STUDY)
    local wins = {}
    for _, e in ipairs(b:tb_moves(T)) do
      if e.value == "win" then wins[#wins + 1] = tostring(e.move) end
    end
    assert.are.same({ "b4-c5" }, wins)
    local p = { fen = STUDY, moves = 30, solution = table_line(b) }
    assert.are.equal(59, #p.solution)
    local r = puzzle.check(p, { tb = T })
    assert.are.equal(30, r.shortest)
    assert.are.same({ "b4-c5" }, r.winning)
    assert.is_not_nil(r.ending)
    for _, f in ipairs(r.faults) do assert.are.equal("dual", f.kind, f.message) end
    -- a win in 30 is not a win in 29
    p.moves = 29
    r = puzzle.check(p, { tb = T })
    assert.is_false(r.ok)
    assert.are.equal("not forced", r.faults[1].kind)
  end)

  it("refuses a win past 15 moves without tables, with what to do", function()
    local r = puzzle.check { fen = STUDY, moves = 30, solution = { "b4-c5" } }
    assert.is_false(r.ok)
    assert.are.equal("bad puzzle", r.faults[1].kind)
    assert.matches("needs tablebases: cheskers tb build %-%-pieces 4", r.faults[1].message)
  end)

  it("gives the same report with and without tables within 15 moves", function()
    local n = 0
    while n < 15 do
      local b = random_position(random_letters(1))
      local value, d = b:probe(T)
      if value == "win" and d <= 9 then
        n = n + 1
        local p = { fen = b:fen(), moves = (d + 1) // 2, solution = table_line(b) }
        local a, t = puzzle.check(p), puzzle.check(p, { tb = T })
        assert.are.equal(a.shortest, t.shortest)
        assert.are.same(a.winning, t.winning)
        assert.are.equal(#a.faults, #t.faults, b:fen())
      end
    end
  end)
end)
