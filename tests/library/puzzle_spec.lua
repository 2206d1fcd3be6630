-- tests/library/puzzle_spec.lua - puzzles (issue 5): the solver (b:solve,
-- b:defend), the checker (cheskers.puzzle.check), the collection in
-- scripts/puzzles/ (every puzzle sound), faulty puzzles reported as such,
-- hostile puzzle files rejected without effect, the miner, SVG diagrams,
-- the HTML book, and the `cheskers check` exit status.
local cheskers = require "cheskers"
local puzzle = require "cheskers.puzzle"
local svg = require "cheskers.svg"
local H = require "helpers"

local EXE = os.getenv("CHESKERS") or "./cheskers"
-- time bounds are multiplied by CHESKERS_TIME_SCALE (the sanitizer and
-- valgrind runs set it: everything runs many times slower there)
local SCALE = tonumber(os.getenv("CHESKERS_TIME_SCALE") or "") or 1
local CHECK = { max_seconds = puzzle.MAX_SECONDS * SCALE }
local MARKER = "/tmp/cheskers-hostile-puzzle-marker"   -- named in tests/puzzles/hostile/

local exists = H.exists

-- The .lua files of a folder, sorted.
local function lua_files(dir)
  local p = io.popen('ls "' .. dir .. '"/*.lua 2>/dev/null')
  local list = {}
  for line in p:lines() do list[#list + 1] = line end
  p:close()
  table.sort(list)
  return list
end

local function kinds_of(report)
  local k = {}
  for _, f in ipairs(report.faults) do k[f.kind] = (k[f.kind] or 0) + 1 end
  return k
end

local run_program = H.run_program

-- ---- the solver --------------------------------------------------------------

-- {fen, n, shortest (nil: no win within n), winning first moves within n}
local SOLVE = {
  { "8/8/8/8/8/8/1k6/K7 w", 3, 1, { "a1xc3" } },                 -- the jump takes the last king
  { "8/8/8/8/3k4/2K1K3/8/8 w", 1, 1, { "c3xe5", "e3xc5" } },      -- two ways
  { "7k/8/8/8/8/8/8/K7 w", 4, nil, {} },                          -- lone kings: no win
  { "8/8/8/8/3k4/8/1p6/K7 b", 1, 1, { "d4-c3" } },                -- stalemate: a1 has no move
  { "8/b7/1k5p/2p5/7P/4K3/8/8 b", 2, 2, { "c5-d4" } },            -- a decoy, then the jump
  { "8/8/3P1k2/8/1P6/8/8/2K1B3 w", 2, nil, {} },                  -- f6-g5 escapes
}

describe("the solver", function()
  for _, row in ipairs(SOLVE) do
    it(("%s within %d: %s"):format(row[1], row[2], row[3] and ("win in " .. row[3]) or "no win"), function()
      local b = cheskers.new(row[1])
      local fen, hash = b:fen(), b:hash()
      local s = b:solve(row[2])
      assert.are.equal(row[3] ~= nil, s.win)
      assert.are.equal(row[3], s.shortest)
      local got = {}
      for i, m in ipairs(s.moves) do got[i] = tostring(m) end
      table.sort(got)
      assert.are.same(row[4], got)
      assert.are.equal(#s.moves, #s.lengths)
      assert.are.equal(fen, b:fen())           -- the board is restored
      assert.are.equal(hash, b:hash())
      assert.is_number(s.time)
      -- all = false: only a first move of a shortest win
      local q = b:solve { moves = row[2], all = false }
      assert.are.equal(row[3], q.shortest)
      if row[3] then
        assert.are.equal(1, #q.moves)
        local c = b:copy()
        c:play(q.moves[1])
      end
    end)
  end

  it("finds the same shortest wins as a plain minimax on game positions", function()
    -- a naive forced-win search written here in Lua, over positions of
    -- random games; small n to keep it quick
    local function wins(b, n)             -- side to move wins within n?
      local me = b:turn()
      for _, m in ipairs(b:moves()) do
        local c = b:copy()
        c:play(m)
        local w = c:result()
        if w == me then return true end
        if not w and n > 1 then
          local all = true
          for _, d in ipairs(c:moves()) do
            local e = c:copy()
            e:play(d)
            local w2 = e:result()
            if w2 ~= me and (w2 or not wins(e, n - 1)) then all = false break end
          end
          if all then return true end
        end
      end
      return false
    end
    local seed, checked, won = 12345, 0, 0
    local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648 return seed % n + 1 end
    for _ = 1, 6 do
      local b = cheskers.new()
      for ply = 1, 80 do
        if b:result() then break end
        local ms = b:moves()
        if ply > 8 and ply % 3 == 0 then
          local s = b:solve(2)
          local naive = wins(b, 1) and 1 or (wins(b, 2) and 2 or nil)
          assert.are.equal(naive, s.shortest, b:fen())
          checked = checked + 1
          if naive then won = won + 1 end
        end
        local m = ms[rnd(#ms)]
        for _, x in ipairs(ms) do if #x.captures > 0 and rnd(2) == 1 then m = x break end end
        b:play(m)
      end
    end
    assert.is_true(checked > 20)
  end)

  it("defends: the refutation, or the longest resistance", function()
    -- after the unsound key e1-c3, Black's king escapes by f6-g5
    local b = cheskers.new("8/8/3P1k2/8/1P6/8/8/2K1B3 w")
    b:play("e1-c3")
    local d, len = b:defend(1)
    assert.are.equal("f6-g5", tostring(d))
    assert.is_nil(len)
    -- a sound win in 2: every defence loses; the best one takes 1 more move
    local w = cheskers.new("8/b7/1k5p/2p5/7P/4K3/8/8 b")
    w:play("c5-d4")
    d, len = w:defend(1)
    assert.are.equal("e3xc5", tostring(d))
    assert.are.equal(1, len)
    -- b:refute: the refuting reply, false, or nil and the length
    local u = cheskers.new("8/8/3P1k2/8/1P6/8/8/2K1B3 w")
    assert.are.equal("f6-g5", tostring(u:refute("e1-c3", 2)))
    assert.are.equal(0, #u:history())
    local nr, nl = cheskers.new("8/b7/1k5p/2p5/7P/4K3/8/8 b"):refute("c5-d4", 3)
    assert.is_nil(nr)
    assert.are.equal(2, nl)
    assert.has_error(function() u:refute("a1-b2", 2) end)
    -- puzzle.refute: nil and the length for a winning move
    local r, l = puzzle.refute(cheskers.new("8/b7/1k5p/2p5/7P/4K3/8/8 b"), "c5-d4", 2)
    assert.is_nil(r)
    assert.are.equal(2, l)
  end)

  it("solves under rules with Lua hooks, and refuses a solve inside a solve", function()
    -- a filter that forbids every move to the h-file changes nothing here
    local b = cheskers.new("8/b7/1k5p/2p5/7P/4K3/8/8 b",
                           { filter = function(_, m) return m.to:sub(1, 1) ~= "h" end })
    local s = b:solve(2)
    assert.are.equal(2, s.shortest)
    assert.are.equal("c5-d4", tostring(s.moves[1]))
    local inner = cheskers.new("8/b7/1k5p/2p5/7P/4K3/8/8 b",
                               { filter = function(c) c:solve(1) return true end })
    local ok, err = pcall(inner.solve, inner, 2)
    assert.is_false(ok)
    assert.matches("busy", err)
    local bad = cheskers.new("8/b7/1k5p/2p5/7P/4K3/8/8 b", { filter = function() error("boom") end })
    ok, err = pcall(bad.solve, bad, 2)
    assert.is_false(ok)
    assert.matches("boom", err)
    assert.are.equal("8/b7/1k5p/2p5/7P/4K3/8/8 b 0 1", bad:fen())
    assert.is_true(b:solve(2).win)            -- the solver works again
  end)

  it("refuses bad arguments and honours a node budget", function()
    local b = cheskers.new()
    assert.has_error(function() b:solve(0) end)
    assert.has_error(function() b:solve(16) end)
    assert.has_error(function() b:solve { moves = "x" } end)
    assert.has_error(function() b.solve({}, 2) end)
    local fen = b:fen()
    local ok, err = pcall(b.solve, b, { moves = 12, nodes = 20000 })
    assert.is_false(ok)
    assert.matches("node limit", err)
    assert.are.equal(fen, b:fen())
    assert.are.equal(0, #b:history())
  end)

  it("finds that a defence which stalemates the attacker holds", function()
    -- Black must jump (e5xd4 to c3 is its only jump; the pawn b2 has none, and
    -- a jump is compulsory). Then White's Ka1 has no move (b2 is taken and c3
    -- behind it too): White, the attacker, is stalemated and has lost.
    local b = cheskers.new("8/8/8/4k3/3P4/8/1p6/K7 b")
    for _, n in ipairs { 1, 3 } do
      local m, len = b:defend(n)
      assert.are.equal("e5xc3", tostring(m))
      assert.is_nil(len)
    end
    assert.are.equal(1, #b:moves())
  end)

  it("answers for a side to move that is stalemated: no win, and already lost", function()
    -- White's Ka1 has no move: b2 is taken and c3 behind it too. A side
    -- without a move loses, so it wins nothing, and as the defender the
    -- game is already won against it (length 0, no move).
    local b = cheskers.new("8/8/8/8/8/2k5/1p6/K7 w")
    assert.are.equal(0, #b:moves())
    local all = b:solve(2)
    assert.is_false(all.win)
    assert.are.equal(0, #all.moves)
    assert.is_false(b:solve({ moves = 2, all = false }).win)
    local m, len = b:defend(2)
    assert.is_nil(m)
    assert.are.equal(0, len)
  end)

  it("spends its whole node budget: a search of N nodes fits in N, not in N - 1", function()
    -- the solver's table starts afresh whenever the rules change, so a solve
    -- under other rules first makes each run below the same search
    local fen = "8/b7/1k5p/2p5/7P/4K3/8/8 b"
    local other = cheskers.new(fen, { capture = "optional" })
    local function fresh(opts)
      other:solve(1)
      return cheskers.new(fen):solve(opts)
    end
    local full = fresh { moves = 2, all = false }
    assert.are.equal(2, full.shortest)
    assert.is_true(full.nodes >= 2)
    local exact = fresh { moves = 2, all = false, nodes = full.nodes }
    assert.are.equal(2, exact.shortest)
    assert.are.equal(full.nodes, exact.nodes)
    local ok, err = pcall(fresh, { moves = 2, all = false, nodes = full.nodes - 1 })
    assert.is_false(ok)
    assert.matches("node limit", err)
  end)
end)

-- ---- the collection --------------------------------------------------------

describe("the collection in scripts/puzzles", function()
  local files = lua_files("scripts/puzzles")
  local total, long, seconds = 0, 0, 0
  local fens = {}
  for _, path in ipairs(files) do
    local list, err = puzzle.load(path)
    it(path .. " loads", function() assert(list, err) end)
    for i, p in ipairs(list or {}) do
      total = total + 1
      if p.moves >= 3 then long = long + 1 end
      it(("%s #%d (%s, win in %d) is sound"):format(path, i, p.title or "?", p.moves), function()
        local r = puzzle.check(p, CHECK)
        seconds = seconds + r.time
        assert(r.ok, puzzle.format_report(r))
        assert.are.equal(p.moves, r.shortest)
        assert.are.equal(1, #r.winning)
        local key = p.fen:match("^%S+ %S")
        assert(not fens[key], "the same position twice: " .. p.fen .. " (also " .. tostring(fens[key]) .. ")")
        fens[key] = path .. "#" .. i
      end)
    end
  end

  it("has at least 60 puzzles, 20 of them of 3 moves or more", function()
    assert(total >= 60, total .. " puzzles")
    assert(long >= 20, long .. " puzzles of 3 moves or more")
    io.stderr:write(("# collection: %d puzzles (%d of 3+ moves), checked in %.2f s\n"):format(total, long, seconds))
  end)
end)

-- ---- faulty puzzles --------------------------------------------------------

-- file in tests/puzzles/faulty -> the fault kinds its report must contain
local FAULTY = {
  ["badpos.lua"] = { "bad position" },
  ["cooked.lua"] = { "cooked" },
  ["unsound.lua"] = { "not forced" },
  ["illegal.lua"] = { "illegal move" },
  ["dual.lua"] = { "dual" },
  ["shorter.lua"] = { "shorter win" },
  ["nowin.lua"] = { "no win at end" },
}

describe("faulty puzzles", function()
  for name, want in pairs(FAULTY) do
    it(name .. " is reported as " .. table.concat(want, ", "), function()
      local list = assert(puzzle.load("tests/puzzles/faulty/" .. name))
      local r = puzzle.check(list[1])
      assert.is_false(r.ok)
      local got = kinds_of(r)
      for _, k in ipairs(want) do
        assert(got[k], name .. ": no '" .. k .. "' fault in\n" .. puzzle.format_report(r))
      end
      assert.is_number(r.time)
    end)
  end

  it("names the refuting defence of an unsound key", function()
    local r = puzzle.check(assert(puzzle.load("tests/puzzles/faulty/unsound.lua"))[1])
    assert.are.same({ move = "e1-c3", defence = "f6-g5" }, r.refutation)
    -- no first move wins at all: said so, with the best defence to the key
    -- (and no "throws the win away" for the later solver moves)
    assert.are.same({ { kind = "not forced", message = "no win in 2 for White: best defence against e1-c3: f6-g5" } },
                    r.faults)
  end)

  it("counts a line of one move in the singular (cheskers.plural)", function()
    -- nowin.lua's position, its solution cut to Black's first move: the game goes on
    local r = puzzle.check { fen = "8/b7/1k5p/2p5/7P/4K3/8/8 b", goal = "win", moves = 2, solution = { "c5-d4" } }
    assert.are.same({ { kind = "no win at end", message = "after the 1 move of the solution the game goes on" } },
                    r.faults)
    local plural = require("cheskers").plural
    assert.are.same({ "1 ply", "2 plies", "0 puzzles", "1 puzzle", "1.5 virtual draws", "3 mice" },
                    { plural(1, "ply"), plural(2, "ply"), plural(0, "puzzle"), plural(1, "puzzle"),
                      plural(1.5, "virtual draw"), plural(3, "mouse", "mice") })
  end)

  it("`cheskers check` says a puzzle with no win has none, with the best defence", function()
    local out, code = run_program("check tests/puzzles/faulty/unsound.lua")
    assert.are.equal(1, code, out)
    assert.matches('tests/puzzles/faulty/unsound.lua#1 "Unsound: the king slips out": FAIL %(%d+%.%d+ s%)\n'
                   .. "  not forced: no win in 2 for White: best defence against e1%-c3: f6%-g5\n", out)
    assert.is_nil(out:find("throws the win away", 1, true), out)
  end)

  it("`cheskers check` checks each puzzle of a file on its own, by title and index", function()
    local out, code = run_program("check tests/puzzles/faulty/mixed.lua")
    assert.are.equal(1, code, out)
    local lines = {}
    for l in out:gmatch("[^\n]+") do    -- times vary: T
      lines[#lines + 1] = (l:gsub("%(%d+%.%d+ s%)", "(T s)"):gsub("; %d+%.%d+ s$", "; T s"))
    end
    assert.are.same({
      'tests/puzzles/faulty/mixed.lua#1 "The decoy": OK (T s)',
      'tests/puzzles/faulty/mixed.lua#2 "Misspelt": FAIL (T s)',
      "  bad puzzle: unknown field 'solutoin' (did you mean 'solution'?)",
      'tests/puzzles/faulty/mixed.lua#3 "The cage": OK (T s)',
      "3 puzzles: 2 OK, 1 failed; T s",
    }, lines)
  end)

  it("puzzle.load still rejects a file with a bad puzzle unless asked for each", function()
    local list, err = puzzle.load("tests/puzzles/faulty/mixed.lua")
    assert.is_nil(list)
    assert.are.equal("tests/puzzles/faulty/mixed.lua: puzzle 2 ('Misspelt'): unknown field 'solutoin' "
                     .. "(did you mean 'solution'?)", err)
    list = assert(puzzle.load("tests/puzzles/faulty/mixed.lua", { each = true }))
    assert.are.equal(3, #list)
    assert.are.equal("unknown field 'solutoin' (did you mean 'solution'?)", list[2].invalid)
  end)

  it("lists the cook", function()
    local r = puzzle.check(assert(puzzle.load("tests/puzzles/faulty/cooked.lua"))[1])
    assert.matches("e3xc5", r.faults[1].message)
  end)

  it("names the dual's alternative", function()
    local r = puzzle.check(assert(puzzle.load("tests/puzzles/faulty/dual.lua"))[1])
    assert.matches("a3xc5", r.faults[1].message)
  end)

  it("reports a key that does not win, with its refutation, and the cook that does", function()
    -- the win in 2 of nowin.lua, with a wrong key
    local r = puzzle.check { fen = "8/b7/1k5p/2p5/7P/4K3/8/8 b", moves = 2,
                             solution = { "b6-c7", "e3-d4", "c5xe3" } }
    local k = kinds_of(r)
    assert(k["not forced"] and k["cooked"], puzzle.format_report(r))
  end)

  it("reports every fault of a puzzle that has several", function()
    local r = puzzle.check { fen = "8/8/8/8/3k4/2K1K3/8/8 w", moves = 2, solution = { "c3xe5", "d4-c5" } }
    local k = kinds_of(r)
    assert(k["shorter win"] and k["cooked"] and k["illegal move"], puzzle.format_report(r))
  end)

  it("notes a defence in the line that is not the longest (and the duals it lets in)", function()
    -- after the key c3xf2, c1-b2 holds out for 2 more moves, a3-b4 only 1
    local r = puzzle.check { fen = "3k1C2/p1p3p1/3p3p/P1p5/3p3P/P1c5/3P1P1P/2K5 b 0 13", moves = 3,
                             solution = { "c3xf2", "a3-b4", "f2xc1" } }
    assert.matches("c1%-b2 holds out longer", table.concat(r.notes, "\n"))
    assert.are.equal(1, kinds_of(r)["dual"])
    assert.is_nil(kinds_of(r)["not forced"])
  end)

  it("reports bad puzzle data", function()
    assert.are.equal("bad puzzle", puzzle.check { fen = "8/8/8/8/8/8/1k6/K7 w" }.faults[1].kind)
    assert.are.equal("bad puzzle", puzzle.check { fen = "8/8/8/8/8/8/1k6/K7 w", moves = 0 }.faults[1].kind)
    assert.are.equal("bad puzzle", puzzle.check("nonsense").faults[1].kind)
    local r = puzzle.check { fen = "8/8/8/8/8/8/1k6/K7 w", moves = 1, solution = { "a1xc3" }, goal = "draw" }
    assert.is_false(r.ok)
  end)

  it("says what is wrong with a solution move in the REPL's wording", function()
    -- tests/puzzles/faulty/illegal.lua: after 1... c5-d4 White's king e3
    -- must jump d4 (e3xc5, its only move), so 2. e3-f4 is refused
    local list = assert(puzzle.load("tests/puzzles/faulty/illegal.lua"))
    local r = puzzle.check(list[1])
    assert.equal("solution move 2 'e3-f4' (defender): illegal move e3-f4: a capture is compulsory; "
      .. "legal moves from e3: e3xc5", r.faults[1].message)
    -- a square off the board: the same words as the REPL's
    r = puzzle.check { fen = "8/b7/1k5p/2p5/7P/b3K3/8/8 b", moves = 2, solution = { "c5-d4", "e3-e9" } }
    assert.equal("solution move 2 'e3-e9' (defender): e9 is not a square", r.faults[1].message)
    r = puzzle.check { fen = "8/b7/1k5p/2p5/7P/b3K3/8/8 b", moves = 2, solution = { "c5d4" } }
    assert.equal("solution move 1 'c5d4' (solver): c5d4 is not move text: write c5-d4", r.faults[1].message)
  end)

  -- The kinds of one promotion are one move: no cook, no dual, and the
  -- move may be written without its kind when every kind wins.
  -- W: Ka1 Ph6; B: kg7 alone. h6xf8 jumps Black's last king and lands on
  -- the last rank: whichever kind it becomes (K, B or C), White has won.
  local LAST_KING = "8/6k1/7P/8/8/8/8/K7 w 0 1"
  -- W: Kg3 Pf6; B: kf8 pf2. g3xe1 (compulsory); the king f8 steps to e7
  -- or g7, and the pawn jumps it either way (f6xd8 or f6xh8), promoting.
  local LATE = "5k2/8/5P2/8/8/6K1/5p2/8 w 0 1"
  -- W: Kf6 Pa7 Pb4; B: kc7 ka3. After a7-b8 Black must jump b4 (a3xc5);
  -- then only a king on b8 takes both kings (b8xd6xb4): a bishop takes one,
  -- a camel none. Only a7-b8=K wins in 2.
  local ONLY_K = "8/P1k5/5K2/8/1P6/k7/8/8 w 0 1"
  local PROMOTIONS = {
    { LAST_KING, 1, { "h6xf8" } },
    { LAST_KING, 1, { "h6xf8=C" } },
    { LATE, 2, { "g3xe1", "f8-e7", "f6xd8" } },
    { LATE, 2, { "g3xe1", "f8-e7", "f6xd8=B" } },
    { ONLY_K, 2, { "a7-b8=K", "a3xc5", "b8xd6xb4" } },
  }
  it("counts the kinds of one promotion as one move (no cook, no dual)", function()
    for _, row in ipairs(PROMOTIONS) do
      local r = puzzle.check { fen = row[1], moves = row[2], solution = row[3] }
      assert(r.ok, puzzle.format_report(r))
    end
  end)

  it("refuses a promotion written without its kind when not every kind wins", function()
    local r = puzzle.check { fen = ONLY_K, moves = 2, solution = { "a7-b8", "a3xc5", "b8xd6xb4" } }
    assert.are.same({ { kind = "illegal move", message = "solution move 1 'a7-b8' (solver): ambiguous move a7-b8: "
      .. "it could be a7-b8=K, a7-b8=B, a7-b8=C (only a7-b8=K wins)" } }, r.faults)
    -- a kind that does not win: the kind that does is named as the winning move
    r = puzzle.check { fen = ONLY_K, moves = 2, solution = { "a7-b8=B" } }
    assert(kinds_of(r)["not forced"], puzzle.format_report(r))
    assert.truthy(puzzle.format_report(r):find("cooked: other first moves win within 2: a7-b8=K (2)", 1, true),
      puzzle.format_report(r))
  end)

  it("gives up on a puzzle that is too hard, within its node budget", function()
    local r = puzzle.check({ fen = cheskers.START, moves = 12, solution = { "b6-a5" } }, { max_nodes = 50000 })
    assert.is_false(r.ok)
    assert.are.equal("too hard", r.faults[1].kind)
    -- and within its time: no search starts past max_seconds
    r = puzzle.check({ fen = "8/b7/1k5p/2p5/7P/4K3/8/8 b", moves = 2, solution = { "c5-d4", "e3xc5", "b6xd4" } },
                     { max_seconds = 0 })
    assert.are.equal("too hard", r.faults[1].kind)
    assert.matches("gave up after", r.faults[1].message)
  end)
end)

-- ---- the puzzle schema ------------------------------------------------------

describe("puzzle fields", function()
  local FEN = "8/b7/1k5p/2p5/7P/4K3/8/8 b"
  -- the text of a file (one puzzle table) -> the message that rejects it,
  -- in the wording of cheskers.schema and docs/guide/puzzles.md
  local ROWS = {
    { 'title = "Two kings", fen = FEN, moves = 0',
      "p.lua: puzzle 1 ('Two kings'): moves must be a whole number from 1 to 64, not 0" },
    { 'fen = FEN, moves = 65', "p.lua: puzzle 1: moves must be a whole number from 1 to 64, not 65" },
    { 'fen = FEN, moves = 2.5', "p.lua: puzzle 1: moves must be a whole number from 1 to 64, not 2.5" },
    { 'fen = FEN, moves = "2"', "p.lua: puzzle 1: moves must be a whole number from 1 to 64, not '2'" },
    { 'fen = FEN', "p.lua: puzzle 1: field 'moves' is missing" },
    { 'moves = 2, title = "t"', "p.lua: puzzle 1 ('t'): field 'fen' is missing" },
    { 'fen = 5, moves = 2', "p.lua: puzzle 1: fen must be a text, not 5" },
    { 'fen = FEN, moves = 2, goal = "mate"', "p.lua: puzzle 1: goal must be 'win', not 'mate'" },
    { 'fen = FEN, moves = 2, solution = { "c5-d4", 5 }',
      "p.lua: puzzle 1: solution move 2 must be a text, not 5" },
    { 'fen = FEN, moves = 2, solution = "c5-d4"',
      "p.lua: puzzle 1: solution must be a list of texts, not 'c5-d4'" },
    { 'fen = FEN, moves = 2, solution = { x = "c5-d4" }',
      "p.lua: puzzle 1: solution must be a list (keys 1, 2, ...), not a table with the key 'x'" },
    { 'fen = FEN, moves = 2, tags = { "a", true }', "p.lua: puzzle 1: tags: item 2 must be a text, not true" },
    { 'fen = FEN, moves = 2, rules = 3',
      "p.lua: puzzle 1: rules must be a preset name or a table of rule options, not 3" },
    { 'fen = FEN, moves = 2, rules = { filter = 1 }',
      "p.lua: puzzle 1: rules: hooks ('filter') cannot come from a puzzle file" },
    { 'fen = FEN, moves = 2, rules = { [1] = true }', "p.lua: puzzle 1: rules: names must be texts, not 1" },
    { 'fen = FEN, moves = 2, autor = "me"', "p.lua: puzzle 1: unknown field 'autor' (did you mean 'author'?)" },
    { 'fen = FEN, moves = 2, file = "x"', "p.lua: puzzle 1: unknown field 'file' (did you mean 'title'?)" },
    { 'fen = FEN, moves = 2, ["\\27[31mred"] = "x"',
      "p.lua: puzzle 1: unknown field '\\x1b[31mred' (known: author, comment, fen, goal, id, moves, rules, " ..
      "solution, source, tags, title)" },
    { 'fen = FEN, moves = 2, [3] = 1', "p.lua: puzzle 1: field names must be texts, not 3" },
  }
  for _, row in ipairs(ROWS) do
    it("refuses { " .. row[1] .. " }", function()
      local text = "local FEN = '" .. FEN .. "'\nreturn { " .. row[1] .. " }"
      local list, err = puzzle.load_string(text, "p.lua")
      assert.is_nil(list)
      assert.are.equal(row[2], err)
    end)
  end

  it("names a bad puzzle of a list by its place and title, and keeps it with each", function()
    local text = "return { { fen = 'x', moves = 1 }, { fen = 'x', moves = 1, title = 'Two kings', movse = 2 } }"
    local _, err = puzzle.load_string(text, "p.lua")
    assert.are.equal("p.lua: puzzle 2 ('Two kings'): unknown field 'movse' (did you mean 'moves'?)", err)
    local list = assert(puzzle.load_string(text, "p.lua", { each = true }))
    assert.is_nil(list[1].invalid)
    assert.are.equal("unknown field 'movse' (did you mean 'moves'?)", list[2].invalid)
  end)

  it("refuses hooks in a puzzle's rules when the table comes from code", function()
    local r = puzzle.check { fen = FEN, moves = 2, solution = { "c5-d4" }, rules = { filter = print } }
    assert.are.same({ { kind = "bad puzzle", message = "rules: filter must be a text or a number or true or false "
                        .. "or a table, not a function" } }, r.faults)
  end)

  it("are the fields docs/guide/puzzles.md lists, required ones marked", function()
    local f = assert(io.open(H.ROOT .. "/docs/guide/puzzles.md"))
    local text = f:read("a")
    f:close()
    local documented, required = {}, {}
    for name, req in text:gmatch("\n| `([%w_]+)` | (%a+) |") do
      documented[#documented + 1] = name
      if req == "yes" then required[#required + 1] = name end
    end
    table.sort(documented)
    table.sort(required)
    assert.are.same(require("cheskers.schema").fields(puzzle.SCHEMA), documented)
    local want = {}
    for _, k in ipairs(puzzle.SCHEMA.required) do want[#want + 1] = k end
    table.sort(want)
    assert.are.same(want, required)
  end)
end)

describe("the options of puzzle.load and puzzle.check", function()
  local P = { fen = "8/b7/1k5p/2p5/7P/4K3/8/8 b", moves = 2, solution = { "c5-d4", "e3xc5", "b6xd4" } }
  local ROWS = {
    { function() puzzle.check(P, { max_node = 5 }) end, "puzzle.check: unknown option 'max_node' (did you mean 'max_nodes'?)" },
    { function() puzzle.check(P, { max_nodes = 0 }) end, "puzzle.check: max_nodes must be a whole number from 1 to 1000000000000, not 0" },
    { function() puzzle.check(P, { max_seconds = 0 / 0 }) end, "puzzle.check: max_seconds must be a number from 0 to 86400, not nan" },
    { function() puzzle.check(P, { defences = "no" }) end, "puzzle.check: defences must be true or false, not 'no'" },
    { function() puzzle.load_string("return {}", "x", { eahc = true }) end,
      "puzzle.load: unknown option 'eahc' (did you mean 'each'?)" },
    { function() puzzle.load("nofile", 3) end, "puzzle.load must be a table of options, not 3" },
  }
  for _, row in ipairs(ROWS) do
    it("refuses: " .. row[2], function()
      assert.has_error(row[1], row[2])
    end)
  end
end)

-- ---- hostile puzzle files --------------------------------------------------

describe("hostile puzzle files", function()
  os.remove(MARKER)
  for _, path in ipairs(lua_files("tests/puzzles/hostile")) do
    it(path .. " is rejected without effect", function()
      local t0 = os.clock()
      local list, err = puzzle.load(path)
      assert.is_nil(list)
      assert.matches("rejected", err)
      assert(os.clock() - t0 < 10 * SCALE, "took too long")
      assert.is_false(exists(MARKER), "the file wrote " .. MARKER)
      assert.are.equal("xx", ("x"):rep(2))        -- the string metatable is intact
      assert.is_function(string.rep)
      assert.is_function(io.open)
      assert.is_nil(rawget(_G, "n"))
    end)
  end

  it("makes cheskers check fail (exit status 1) and write nothing", function()
    if not exists(EXE) then error(EXE .. " is not built (make)") end
    local out, code = run_program("check tests/puzzles/hostile/io_open.lua tests/puzzles/hostile/loop.lua")
    assert.are.equal(1, code, out)
    assert.matches("rejected", out)
    assert.is_false(exists(MARKER))
  end)
end)

-- ---- the program -----------------------------------------------------------

describe("cheskers check", function()
  it("exits 0 on sound puzzles and 1 on faulty ones", function()
    if not exists(EXE) then error(EXE .. " is not built (make)") end
    local out, code = run_program("check scripts/puzzles/win-in-2.lua")
    assert.are.equal(0, code, out)
    assert.matches("OK", out)
    out, code = run_program("check scripts/puzzles/win-in-2.lua tests/puzzles/faulty/cooked.lua")
    assert.are.equal(1, code, out)
    assert.matches("cooked", out)
    out, code = run_program("check")
    assert.are_not.equal(0, code, out)
  end)
end)

-- ---- the miner -------------------------------------------------------------

describe("the miner", function()
  it("finds sound puzzles with unique wins in self-play games", function()
    local mine = require("cheskers.mine").run
    local found = mine { games = 4, lo = 1, hi = 3, seed = 3, depth = 1 }
    assert(#found > 0, "no puzzle in 4 games")
    for _, p in ipairs(found) do
      local r = puzzle.check(p, CHECK)
      assert(r.ok, puzzle.format_report(r))
      assert(p.moves >= 1 and p.moves <= 3)
    end
  end)

  it("finds sound puzzles in random positions too, and keeps to a theme", function()
    local mine = require("cheskers.mine").run
    local found = mine { games = 150, lo = 1, hi = 2, seed = 9, from = "random", pieces = 4 }
    assert(#found > 0, "no puzzle in 150 random positions")
    for _, p in ipairs(found) do
      assert(puzzle.check(p, CHECK).ok, p.fen)
      assert.are.equal("generated", p.tags[1])
    end
    local themed = mine { games = 150, lo = 1, hi = 2, seed = 9, from = "random", pieces = 4,
                          theme = "stalemate" }
    for _, p in ipairs(themed) do assert.are.equal("stalemate", p.tags[2]) end
  end)

  it("builds dual-free main lines, or says why not", function()
    local line = puzzle.main_line(cheskers.new("8/b7/1k5p/2p5/7P/4K3/8/8 b"), 2)
    assert.are.same({ "c5-d4", "e3xc5", "b6xd4" }, line)
    local none, why = puzzle.main_line(cheskers.new("8/b7/1k5p/2p5/7P/b3K3/8/8 b"), 2)
    assert.is_nil(none)
    assert.matches("dual", why)
    -- the kinds of a promotion are not several winning moves (LAST_KING above)
    line = assert(puzzle.main_line(cheskers.new("8/6k1/7P/8/8/8/8/K7 w 0 1"), 1))
    assert.equal(1, #line)
    assert.matches("^h6xf8=[KBC]$", line[1])
  end)

  it("writes files that load back", function()
    local p = { fen = "8/b7/1k5p/2p5/7P/4K3/8/8 b", goal = "win", moves = 2,
                solution = { "c5-d4", "e3xc5", "b6xd4" }, title = 'a "quoted" title', tags = { "x" } }
    local list = assert(puzzle.load_string(puzzle.serialize({ p }, "header\nlines"), "text"))
    assert.are.equal(p.title, list[1].title)
    assert.are.same(p.solution, list[1].solution)
    assert.is_true(puzzle.check(list[1]).ok)
  end)
end)

-- ---- diagrams and the book ---------------------------------------------------

describe("SVG diagrams", function()
  it("draws every piece, the coordinates, arrows and highlights", function()
    local b = cheskers.new()
    local text = b:svg { arrows = { "c3-d4" }, highlight = { "c3" } }
    assert.matches("^<svg xmlns=\"http://www.w3.org/2000/svg\"", text)
    assert.matches("</svg>$", text)
    local pieces = select(2, text:gsub('<g class="piece', ""))
    assert.are.equal(24, pieces)
    assert.are.equal(4, select(2, text:gsub('class="piece white K"', "")) +
                        select(2, text:gsub('class="piece black K"', "")))
    assert.are.equal(1, select(2, text:gsub("<polyline", "")))
    assert.are.equal(1, select(2, text:gsub('class="highlight"', "")))
    assert.are.equal(64, select(2, text:gsub('<rect x="%d+" y="%d+" width="50" height="50"', "")))
    for _, c in ipairs { ">a<", ">h<", ">1<", ">8<" } do assert.truthy(text:find(c, 1, true)) end
  end)

  it("tints the last move by default and flips", function()
    local b = cheskers.new()
    b:play("b6-a5")
    local plain = svg.render(b)
    assert.are.equal(2, select(2, plain:gsub('class="highlight"', "")))
    local flipped = svg.render(b, { flip = true, highlight = false })
    assert.are.equal(0, select(2, flipped:gsub('class="highlight"', "")))
    assert.are_not.equal(plain, flipped)
    -- a1's bishop is drawn at the bottom left unflipped, top right flipped
    assert.truthy(plain:find('class="piece white B"><circle cx="45" cy="375"', 1, true))
    assert.truthy(flipped:find('class="piece white B"><circle cx="395" cy="25"', 1, true))
  end)

  it("takes a FEN too, and move objects as arrows", function()
    local b = cheskers.new("8/b7/1k5p/2p5/7P/4K3/8/8 b")
    local m = b:parse("c5-d4")
    local text = svg.render(b:fen(), { arrows = { m }, id = "x" })
    assert.truthy(text:find('marker id="x-arrowhead"', 1, true))
    assert.are.equal(1, select(2, text:gsub("<polyline", "")))
  end)
end)

describe("cheskers book", function()
  it("keeps the faults, which name the key, inside the hidden solution", function()
    local book = require "cheskers.book"
    local list = assert(puzzle.load("tests/puzzles/faulty/unsound.lua"))
    local html = book.page(list, "t", { [list[1]] = puzzle.check(list[1]) })
    local before, after = html:match("^(.*)<details><summary>Solution</summary>(.*)$")
    assert.truthy(before:find('<p class="unsound">Unsound (1 fault: see the solution).</p>', 1, true), html)
    assert.is_nil(before:find("e1-c3", 1, true), "the key is shown outside the solution")
    assert.truthy(after:find("not forced: no win in 2 for White: best defence against e1-c3: f6-g5", 1, true), html)
  end)

  it("says stalemate in the goal line of a stalemate puzzle", function()
    local book = require "cheskers.book"
    local list = assert(puzzle.load("scripts/puzzles/composed.lua"))
    local html = book.page(list, "t")
    assert.truthy(html:find('<p class="goal">Black to play and win in 2.</p>', 1, true))
    assert.truthy(html:find('<p class="goal">Black to play and stalemate White in 1.</p>', 1, true))
  end)

  it("--check exits 1 on unsound puzzles, and takes the puzzles plain book takes", function()
    if not exists(EXE) then error(EXE .. " is not built (make)") end
    local page = H.tmpname(".html")
    -- composed.lua's two puzzles are sound; unsound.lua's key is refuted
    local out, code = run_program(("book --check scripts/puzzles/composed.lua --out %s"):format(page))
    assert.are.equal(0, code, out)
    out, code = run_program(("book --check tests/puzzles/faulty/unsound.lua scripts/puzzles/composed.lua --out %s")
      :format(page))
    assert.are.equal(1, code, out)
    assert.truthy(out:find("3 puzzles written to " .. page, 1, true), out)
    assert.truthy(out:find("not forced: no win in 2 for White", 1, true), out)
    assert.truthy(out:find("cheskers book: 1 puzzle of 3 unsound (marked on the page)", 1, true), out)
    -- mixed.lua's second puzzle has a misspelt field: plain book refuses
    -- the file, and so does book --check (no page of two puzzles out of three)
    for _, flag in ipairs({ "", "--check " }) do
      os.remove(page)
      out, code = run_program(("book %stests/puzzles/faulty/mixed.lua --out %s"):format(flag, page))
      assert.are.equal(1, code, out)
      assert.truthy(out:find("unknown field 'solutoin'", 1, true), out)
      assert.is_false(exists(page), flag .. ": a page was written")
    end
  end)

  it("writes one page with every diagram, goal and a hidden solution", function()
    local book = require "cheskers.book"
    local list = assert(puzzle.load("scripts/puzzles/win-in-2.lua"))
    local html = book.page(list, "Test <book>")
    assert.matches("^<!DOCTYPE html>", html)
    assert.truthy(html:find("Test &lt;book&gt;", 1, true))
    assert.are.equal(#list, select(2, html:gsub("<svg ", "")))
    assert.are.equal(#list, select(2, html:gsub("<details><summary>Solution</summary>", "")))
    assert.are.equal(#list, select(2, html:gsub("to play and win in 2%.", "")))
  end)
end)

describe("the REPL's puzzle and svg commands", function()
  it("answers with the best defence, says when a move throws the win away and when it is solved", function()
    if not exists(EXE) then error(EXE .. " is not built (make)") end
    local out, code = run_program("-c 'puzzle scripts/puzzles/composed.lua 1; b6-c7; undo 2; c5-d4; b6xd4'")
    assert.are.equal(0, code, out)
    assert.matches("black to play and win in 2", out)
    assert.matches("threw the win away", out)
    assert.matches("Defence: e3xc5", out)
    assert.matches("Solved", out)
  end)

  it("goes on to the next puzzle and starts over", function()
    if not exists(EXE) then error(EXE .. " is not built (make)") end
    local out, code = run_program("-c 'puzzle scripts/puzzles/composed.lua; c5-d4; puzzle again; puzzle next; d4-c3'")
    assert.are.equal(0, code, out)
    assert.matches("The decoy %(1 of 2%).*The decoy %(1 of 2%).*The cage %(2 of 2%).*Solved", out)
    out, code = run_program("-c 'puzzle scripts/puzzles/composed.lua; puzzle hint; c5-d4; puzzle hint'")
    assert.are.equal(0, code, out)
    assert.matches("hint: move the piece on c5 %(a win in 2%).*hint: move the piece on b6 %(a win in 1%)", out)
    out, code = run_program("-c 'puzzle scripts/puzzles/composed.lua 2; puzzle next'")
    assert.are.equal(1, code, out)
    assert.matches("last puzzle", out)
  end)

  it("refuses a hostile puzzle file and a bad index", function()
    if not exists(EXE) then error(EXE .. " is not built (make)") end
    local out, code = run_program("-c 'puzzle tests/puzzles/hostile/loop.lua'")
    assert.are.equal(1, code, out)
    assert.matches("rejected", out)
    out, code = run_program("-c 'puzzle scripts/puzzles/composed.lua 99'")
    assert.are.equal(1, code, out)
  end)

  it("writes the board as SVG", function()
    if not exists(EXE) then error(EXE .. " is not built (make)") end
    local path = H.tmpname()
    local out, code = run_program(("-c 'b6-a5; svg %s'"):format(path))
    local f = io.open(path, "r")
    local text = f and f:read("a") or ""
    if f then f:close() end
    os.remove(path)
    assert.are.equal(0, code, out)
    assert.matches("^<svg", text)
    assert.are.equal(2, select(2, text:gsub('class="highlight"', "")))
  end)
end)

describe("puzzle.file_rules", function()
  it("keeps a preset name or a table of options, which a file written with them loads and checks under", function()
    assert.are.equal("golomb", puzzle.file_rules("golomb"))
    local rules = { pawns_capture_backward = true }
    assert.are.same(rules, puzzle.file_rules(rules))
    local text = puzzle.serialize({ { fen = "8/8/8/8/8/2k5/1P6/K7 w", goal = "win", moves = 1,
                                      solution = { "b2xd4" }, rules = puzzle.file_rules(rules) } })
    local back = assert(puzzle.load_string(text, "t"))
    assert.is_true(puzzle.check(back[1], CHECK).ok, text)
  end)

  it("refuses rules with hooks, saying why", function()
    local r, err = puzzle.file_rules({ filter = function() return true end })
    assert.is_nil(r)
    assert.matches("hooks %(filter, result%) cannot be written into puzzle files", err)
  end)
end)
