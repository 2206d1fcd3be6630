-- tests/core/engine_spec.lua - the engine (b:search, b:eval, cheskers.engine) and
-- the bots of scripts/bots/. The forced wins below are worked out by hand
-- from docs/reference/rules.md; each position says why its answer is right.
local cheskers = require "cheskers"
local H = require "helpers"

local engine = cheskers.engine
local WIN = engine and engine.WIN

-- A position from a table square -> letter, side "w" or "b".
local function pos(pieces, side)
  return H.write_fen({ board = pieces, side = side, quiet = 0, moveno = 1 })
end

local function texts(pv)
  local t = {}
  for i, m in ipairs(pv) do t[i] = tostring(m) end
  return table.concat(t, " ")
end

-- The state that a search must leave exactly as it found it.
local function snapshot(b)
  return { fen = b:fen(), hash = b:hash(), n = #b:history() }
end

describe("engine: forced results", function()
  -- Each row: a position, the limits, the expected move and score.
  local WINS = {
    { -- The bishop on h2 sees g3, f4, e5 and d6 and takes Black's only king:
      -- a win in one ply (a take is optional, so White has other moves too).
      name = "bishop takes the last king",
      fen = pos({ a1 = "K", h2 = "B", d6 = "k", h6 = "p" }, "w"),
      depth = 3, move = "h2xd6", plies = 1,
    },
    { -- h6-g7 leaves the black king on h8 with no move: its only neighbour
      -- g7 is taken, and it cannot jump g7 because f6 behind it is occupied.
      -- A side with no legal move loses (stalemate). f6-g7 would free f6
      -- (the king jumps g7 to f6) and the other moves let the king step out.
      name = "stalemate wins",
      fen = pos({ h6 = "K", f6 = "P", h8 = "k" }, "w"),
      depth = 3, move = "h6-g7", plies = 1,
    },
    { -- c3-d4 offers a pawn the black king must jump (capturing is
      -- compulsory): e5xc3, the chain stops there (b2 cannot be jumped, a1
      -- is occupied). Then b2 jumps the king on c3 (to d4, now empty) and
      -- Black has no king left: a win in 3 plies.
      name = "a pawn offered: win in 3",
      fen = pos({ a1 = "K", b2 = "P", c3 = "P", e5 = "k" }, "w"),
      depth = 5, move = "c3-d4", plies = 3,
    },
    { -- The same at depth 1: after c3-d4 the horizon is reached, but Black
      -- must capture, so the quiescence search may not stop there (no stand
      -- pat while a capture is compulsory), and White's reply is a jump too.
      name = "quiescence follows compulsory captures (depth 1)",
      fen = pos({ a1 = "K", b2 = "P", c3 = "P", e5 = "k" }, "w"),
      depth = 1, move = "c3-d4", plies = 3,
    },
    { -- The position after c3-d4, Black to move: e5xc3 is forced and then
      -- b2 takes the king: lost in 2 plies, scored as a loss at distance 2.
      name = "a forced loss is scored with its distance",
      fen = pos({ a1 = "K", b2 = "P", d4 = "P", e5 = "k" }, "b"),
      depth = 4, move = "e5xc3", plies = -2,
    },
  }
  for _, row in ipairs(WINS) do
    it(row.name, function()
      local b = cheskers.new(row.fen)
      local before = snapshot(b)
      local r = b:search { depth = row.depth }
      assert.are.equal(row.move, tostring(r.move))
      local expected = row.plies > 0 and WIN - row.plies or -(WIN + row.plies)
      assert.are.equal(expected, r.score)
      assert.are.same(before, snapshot(b))
      assert.is_true(#r.pv >= 1)
      assert.are.equal(tostring(r.move), tostring(r.pv[1]))
    end)
  end

  it("a finished game: no move, a lost score", function()
    -- Black has no king: the game is over and Black (to move) has lost.
    local b = cheskers.new(pos({ a1 = "K", h6 = "p" }, "b"))
    local r = b:search { depth = 3 }
    assert.is_nil(r.move)
    assert.are.same({}, r.pv)
    assert.are.equal(-WIN, r.score)
  end)

  it("prefers the faster of two wins", function()
    -- The bishop takes the king at once (1 ply); the pawn trick of the
    -- row above needs 3. The engine must take the king now.
    local b = cheskers.new(pos({ a1 = "K", b2 = "P", c3 = "P", e5 = "k", h2 = "B" }, "w"))
    local r = b:search { depth = 5 }
    assert.are.equal("h2xe5", tostring(r.move))
    assert.are.equal(WIN - 1, r.score)
  end)
end)

describe("engine: search", function()
  it("restores the board, history included, under every limit", function()
    local b = cheskers.new()
    for _, t in ipairs({ "b6-c5", "c3-d4" }) do b:play(t) end
    local before = snapshot(b)
    for _, limits in ipairs({ { depth = 4 }, { nodes = 3000 }, { time = 0.05 }, {} }) do
      local r = b:search(limits)
      assert.is_not_nil(r.move)
      assert.are.same(before, snapshot(b))
    end
  end)

  it("is deterministic with a depth or node limit", function()
    local b = cheskers.new()
    b:play("f6-g5")
    for _, limits in ipairs({ { depth = 5 }, { nodes = 4000 } }) do
      local r1 = b:search(limits)
      b:search { depth = 3 }          -- another search in between changes nothing
      local r2 = b:search(limits)
      assert.are.equal(tostring(r1.move), tostring(r2.move))
      assert.are.equal(r1.score, r2.score)
      assert.are.equal(r1.nodes, r2.nodes)
      assert.are.equal(texts(r1.pv), texts(r2.pv))
    end
  end)

  it("engine.deadline bounds every search", function()
    local t0 = os.clock()
    engine.deadline(0.1)
    local r = cheskers.new():search { depth = 100 }
    engine.deadline(nil)
    assert.is_not_nil(r.move)
    assert.is_true(os.clock() - t0 < 1)
    assert.is_nil(engine.deadline())
  end)

  it("stops at the node budget", function()
    local r = cheskers.new():search { nodes = 2000 }
    assert.is_true(r.nodes <= 2000)
    assert.is_not_nil(r.move)
  end)

  it("returns a legal principal variation", function()
    local b = cheskers.new()
    local r = b:search { depth = 6 }
    local c = b:copy()
    for _, m in ipairs(r.pv) do
      assert.is_not_nil(c:parse(tostring(m)))
      c:play(tostring(m))
    end
    assert.is_true(r.depth == 6 and r.seldepth >= 6 and r.nodes > 0)
  end)

  it("reports each completed depth to info", function()
    local depths = {}
    cheskers.new():search { depth = 4, info = function(t)
      depths[#depths + 1] = t.depth
      assert.is_not_nil(t.move)
      assert.is_number(t.score)
    end }
    assert.are.same({ 1, 2, 3, 4 }, depths)
  end)

  it("raises errors of info and eval callbacks after restoring the board", function()
    local b = cheskers.new()
    local before = snapshot(b)
    assert.has_error(function() b:search { depth = 3, info = function() error("info failed") end } end)
    assert.are.same(before, snapshot(b))
    local ok, err = pcall(b.search, b, { depth = 3, eval = function() error("eval failed", 0) end })
    assert.is_false(ok)
    assert.are.equal("eval failed", err)
    assert.are.same(before, snapshot(b))
    assert.has_error(function() b:search { depth = 2, eval = function() return "x" end } end)
    assert.are.same(before, snapshot(b))
    -- an eval that plays or takes back moves on the board being searched
    assert.has_error(function() b:search { depth = 3, eval = function() b:play(b:moves()[1]) return 0 end } end)
    assert.are.same(before, snapshot(b))
    assert.has_error(function() b:search { depth = 3, eval = function() b:undo() return 0 end } end)
    assert.are.same(before, snapshot(b))
  end)

  it("stops on cheskers.interrupt() with the board restored", function()
    local b = cheskers.new()
    local before = snapshot(b)
    local ok, err = pcall(b.search, b, { depth = 60, info = function(t)
      if t.depth == 3 then cheskers.interrupt() end
    end })
    assert.is_false(ok)
    assert.equal("interrupted", cheskers.error_code(err))
    assert.are.same(before, snapshot(b))
    assert.is_not_nil(b:search { depth = 2 }.move)   -- the flag is cleared again
  end)

  it("uses an evaluation written in Lua", function()
    local b = cheskers.new()
    local calls = 0
    local r = b:search { depth = 2, eval = function(copy)
      calls = calls + 1
      assert.is_string(copy:fen())
      copy:play(copy:moves()[1])      -- a copy: the search does not see this
      return 0
    end }
    assert.is_true(calls > 0)
    assert.are.equal(0, r.score)
    -- material only, in Lua: a free pawn is taken
    local function material(p)
      local v = { P = 100, K = 300, B = 300, C = 250 }
      local s = 0
      for _, sq in ipairs(cheskers.SQUARES) do
        local x = p:get(sq)
        if x then s = s + (x == x:upper() and 1 or -1) * v[x:upper()] end
      end
      return p:turn() == "white" and s or -s
    end
    local c = cheskers.new(pos({ a1 = "K", c1 = "K", h2 = "B", f4 = "p", h8 = "k", f8 = "k" }, "w"))
    assert.are.equal("h2xf4", tostring(c:search { depth = 2, eval = material }.move))
  end)

  it("a failing rule hook raises its error, with the board restored", function()
    local b = cheskers.new(nil, { filter = function() error("hook failed", 0) end })
    local before = snapshot(b)
    assert.has_error(function() b:search { depth = 3 } end, "hook failed")
    assert.are.same(before, snapshot(b))
  end)

  it("searches rules with Lua hooks", function()
    -- a filter that forbids camel moves: the engine never plays one
    local b = cheskers.new(nil, { filter = function(_, m) return m.piece ~= "C" end })
    for _ = 1, 6 do
      local r = b:search { nodes = 1500 }
      assert.are_not.equal("C", r.move.piece)
      b:play(r.move)
    end
    -- a result hook: White wins once three moves are played. Black, to move,
    -- loses in 3 plies whatever it does.
    local c = cheskers.new(nil, { result = function(x) if #x:history() >= 3 then return "white", "hook" end end })
    assert.are.equal(-(WIN - 3), c:search { depth = 4 }.score)
  end)

  it("the board is busy during a search: callbacks cannot change it", function()
    local b = cheskers.new()
    local before = snapshot(b)
    assert.has_error(function() b:search { depth = 2, info = function() b:play(b:moves()[1]) end } end)
    assert.are.same(before, snapshot(b))
    assert.has_error(function() b:search { depth = 2, info = function() b:search { depth = 1 } end } end)
  end)

  it("a callback may search again (on a copy)", function()
    local b = cheskers.new()
    local inner
    local r = b:search { depth = 3, info = function(t)
      if t.depth == 2 then inner = b:copy():search { depth = 2 } end
    end }
    assert.is_not_nil(r.move)
    assert.are.equal(2, inner.depth)
  end)

  it("refuses bad options", function()
    local b = cheskers.new()
    assert.has_error(function() b:search { depht = 3 } end)
    assert.has_error(function() b:search { depth = 0 } end)
    assert.has_error(function() b:search { nodes = -5 } end)
    assert.has_error(function() b:search { time = "soon" } end)
    assert.has_error(function() b:search { weights = { nosuch = 1 } } end)
    assert.has_error(function() b:search { eval = 3 } end)
  end)
end)

describe("engine: evaluation weights", function()
  after_each(function() engine.reset() end)

  it("lists every weight by name, with its default", function()
    local w, d = engine.weights(), engine.defaults()
    assert.are.same(d, w)
    for _, name in ipairs(engine.names) do
      assert.are.equal("number", type(w[name]))
      assert.are.equal(w[name], engine.get(name))
    end
    for _, name in ipairs({ "pawn", "king", "bishop", "camel", "advance", "mobility", "king_attacked" }) do
      assert.is_not_nil(w[name])
    end
  end)

  it("round-trips set/get and weights{...}, and reset restores", function()
    engine.set("pawn", 123)
    assert.are.equal(123, engine.get("pawn"))
    local w = engine.weights { camel = 260, mobility = 0 }
    assert.are.equal(260, w.camel)
    assert.are.equal(0, engine.get("mobility"))
    assert.are.equal(123, w.pawn)
    engine.reset()
    assert.are.same(engine.defaults(), engine.weights())
  end)

  it("refuses unknown names and non-integers, changing nothing", function()
    local before = engine.weights()
    assert.has_error(function() engine.set("queen", 900) end)
    assert.has_error(function() engine.get("queen") end)
    assert.has_error(function() engine.weights { pawn = 1, queen = 900 } end)
    assert.has_error(function() engine.weights { pawn = 1.5 } end)
    assert.are.same(before, engine.weights())
  end)

  it("b:eval is the sum of its terms and follows the weights", function()
    local b = cheskers.new()
    b:play("b6-c5")
    local score, terms = b:eval { features = true }
    assert.are.equal(score, b:eval())     -- the score alone, the same
    assert.are.equal(1, select("#", b:eval()))
    local sum = 0
    for _, v in pairs(terms) do sum = sum + v end
    assert.are.equal(score, sum)
    local f = engine.features(b)
    engine.set("tempo", 0)
    engine.set("mobility", 50)
    local s2 = b:eval()
    assert.are.equal(score - terms.tempo - terms.mobility + 50 * f.mobility, s2)
  end)

  it("the start position is balanced but for the tempo", function()
    local score, terms = cheskers.new():eval { features = true }
    assert.are.equal(terms.tempo, score)
  end)

  it("weights given to one search do not change the engine's", function()
    local before = engine.weights()
    cheskers.new():search { depth = 2, weights = { pawn = 1 } }
    assert.are.same(before, engine.weights())
  end)
end)

describe("bots in scripts/bots", function()
  local bots = require "cheskers.bots"
  local NAMES = { "random", "greedy", "alphabeta", "mcts", "engine" }

  -- Positions: the start, and a few random plies further.
  local function positions()
    local list = { cheskers.new() }
    math.randomseed(7)
    local b = cheskers.new()
    for i = 1, 16 do
      local ms = b:moves()
      if #ms == 0 then break end
      b:play(ms[math.random(#ms)])
      if i % 5 == 0 then list[#list + 1] = b:copy() end
    end
    return list
  end

  for _, name in ipairs(NAMES) do
    it(name .. " returns legal moves and leaves the board alone", function()
      local bot = bots.load(name)
      assert.is_string(bot.name)
      if bot.new_game then bot.new_game(cheskers.rules()) end
      for _, b in ipairs(positions()) do
        local before = snapshot(b)
        local m = bot.choose(b, { nodes = 300 })
        assert.is_not_nil(m)
        assert.is_not_nil(b:parse(tostring(m)), name .. " played " .. tostring(m))
        assert.are.same(before, snapshot(b))
      end
    end)
  end

  it("bot options: engine:level=N, alphabeta:depth=N", function()
    local e = bots.load("engine:level=2")
    assert.are.equal("engine-2", e.name)
    assert.is_not_nil(e.choose(cheskers.new(), {}))
    local a = bots.load("alphabeta:depth=2")
    assert.is_not_nil(a.choose(cheskers.new(), {}))
    assert.has_error(function() bots.load("nosuchbot") end)
    assert.has_error(function() bots.load("random:depth=2") end)   -- no configure
  end)
end)

describe("REPL engine commands (batch)", function()
  -- Runs the cheskers program on the given input lines; returns its output.
  local function repl(lines)
    local path = H.tmpname()
    local f = assert(io.open(path, "w"))
    f:write(table.concat(lines, "\n"), "\n")
    f:close()
    local p = assert(io.popen("./cheskers < " .. path .. " 2>&1"))
    local out = p:read("a")
    p:close()
    os.remove(path)
    return out
  end

  it("go prints a line per depth and the best move", function()
    local out = repl { "go 3", "go nodes 500", "go depth" }
    assert.matches("depth  1/", out, 1, true)
    assert.matches("depth  3/", out, 1, true)
    assert.matches("best move %a%d%-%a%d", out)
    assert.matches("go: depth must be a whole number from 1 to 127, not nothing", out, 1, true)
  end)

  it("bot answers the moves typed and can be turned off", function()
    local out = repl { "bot greedy", "d6-c5", "bot off", "undo", "history" }
    assert.matches("bot greedy plays white", out, 1, true)
    assert.matches("greedy (white) plays", out, 1, true)
    -- after `bot off` nobody answers: once White's move is taken back, the
    -- history is Black's first move alone
    local after = out:match("bot off\n(.*)$")
    assert.is_nil(after:find("plays", 1, true))
    assert.matches("1%. d6%-c5%s*$", out)
  end)
end)

describe("engine: edges of the search and the evaluation", function()
  after_each(function() engine.reset() end)

  it("a finished game at the root: the side to move's result", function()
    -- Black has no king and White is to move: White has already won
    -- (docs/reference/rules.md: a side that loses its last king loses), so the score
    -- for the side to move is a win at distance 0.
    local r = cheskers.new(pos({ a1 = "K", h6 = "p" }, "w")):search { depth = 3 }
    assert.is_nil(r.move)
    assert.are.equal(WIN, r.score)
    -- Stalemate: Black's king h8 has no move (g7 is White's, f6 behind it
    -- is occupied, so no jump) and no other piece: Black, to move, loses.
    r = cheskers.new(pos({ g7 = "K", f6 = "P", h8 = "k" }, "b")):search { depth = 3 }
    assert.is_nil(r.move)
    assert.are.equal(-WIN, r.score)
  end)

  it("b:eval is clamped just inside the forced-result scores", function()
    -- cheskers.h: the static evaluation stays inside (-MATE_MIN, MATE_MIN)
    -- so that it is never read as a forced result. Two pawns up at 100000
    -- a pawn is far beyond, so the score is the largest allowed:
    -- MATE_MIN - 1 for White to move, its negation for Black.
    engine.set("pawn", 100000)
    local board = { a1 = "K", c3 = "P", e3 = "P", h8 = "k" }
    assert.are.equal(engine.MATE_MIN - 1, cheskers.new(pos(board, "w")):eval())
    assert.are.equal(-(engine.MATE_MIN - 1), cheskers.new(pos(board, "b")):eval())
  end)

  it("features count only the pieces on the board when every kind slot is used", function()
    -- Four extra kinds (CHK_MAX_KINDS is 8: P K B C and four more) and only
    -- the two kings on the board: the king a1 has one step (b2), the king
    -- h8 one (g7); they are far apart, so nothing is attacked.
    local leap = { leaps = { { 2, 2 } } }
    local rules = { pieces = { N = leap, E = leap, F = leap, G = leap } }
    local f = engine.features(cheskers.new(pos({ a1 = "K", h8 = "k" }, "w"), rules))
    assert.are.equal(0, f.mobility)
    assert.are.equal(0, f.extra)
    assert.are.equal(0, f.king_attacked)
    assert.are.equal(0, f.attacked)
  end)

  it("forced replies cost no depth up to ply 64 (CHK_MAX_PLY / 2), then they do", function()
    -- A filter hook leaves exactly one legal move at every ply of a 70-ply
    -- script: White plays a pawn step and a king step in turn (pawns in the
    -- a-b, c-d and e-f files, the king g1-h2-g1), Black's king goes h8-g7-h8.
    -- Every other White move is a pawn step, so no position repeats (a
    -- repetition would end the line as a draw). The pieces never come
    -- near each other: no jump, no promotion. At depth 1 each forced reply
    -- is extended (docs/guide/engine.md) while the ply is below 64, so plies 0..64
    -- are full-depth nodes, ply 64's reply is not extended and ply 65 is the
    -- quiescence search: the deepest ply reached is 65.
    local pawn = { "a3-b4", "b4-a5", "a5-b6", "b6-a7", "b2-a3", "a3-b4", "b4-a5", "a5-b6",
      "c3-d4", "d4-c5", "c5-d6", "d6-c7", "d2-c3", "c3-d4", "d4-c5", "c5-d6", "f2-e3", "e3-f4" }
    local script = {}
    for j = 0, 34 do
      script[#script + 1] = j % 2 == 0 and pawn[j // 2 + 1] or (j % 4 == 1 and "g1-h2" or "h2-g1")
      script[#script + 1] = j % 2 == 0 and "h8-g7" or "g7-h8"
    end
    local fen = pos({ g1 = "K", a3 = "P", b2 = "P", c3 = "P", d2 = "P", f2 = "P", h8 = "k" }, "w")
    local plain = cheskers.new(fen)
    for _, t in ipairs(script) do plain:play(t) end      -- the script is legal
    assert.are.equal(70, #plain:history())
    local b = cheskers.new(fen, { filter = function(x, m)
      return tostring(m) == script[#x:history() + 1]
    end })
    local r = b:search { depth = 1 }
    assert.are.equal(script[1], tostring(r.move))
    assert.are.equal(65, r.seldepth)
  end)

  -- The search context of a search started from inside a callback is new
  -- (lengine.c), so nothing is left in it from earlier searches.
  local function fresh_search(opts)
    local r
    cheskers.new():search { depth = 1, info = function()
      r = cheskers.new():search(opts)
    end }
    return r
  end

  it("info_every: no partial report before the first interval has passed", function()
    -- Depth 6 from the start takes far less than 1000 seconds: every report
    -- is a completed depth.
    local partial, done = 0, 0
    fresh_search { depth = 6, info_every = 1000, info = function(t)
      if t.partial then partial = partial + 1 else done = done + 1 end
    end }
    assert.are.equal(0, partial)
    assert.are.equal(6, done)
  end)

  it("info_every: a partial report's line is legal, and once the final best move leads, the final line", function()
    -- The root raises its best line only when a move scores higher
    -- (docs/guide/engine.md, info_every): a partial report at depth k whose first
    -- move and score are those of the completed depth k already shows that
    -- iteration's whole line. Depth 7 from the start gives about twenty
    -- reports (one at every limits poll, each 1024 nodes, with 1e-9).
    local done, partial = {}, {}
    fresh_search { depth = 7, info_every = 1e-9, info = function(t)
      local r = { depth = t.depth, score = t.score, line = texts(t.pv) }
      if t.partial then partial[#partial + 1] = r else done[t.depth] = r end
      assert.is_true(#t.pv >= 1, "a report with no line")
      local c = cheskers.new()
      for _, m in ipairs(t.pv) do
        assert.is_not_nil(c:parse(tostring(m)), "illegal move " .. tostring(m) .. " in " .. r.line)
        c:play(tostring(m))
      end
    end }
    local compared = 0
    for _, r in ipairs(partial) do
      local fin = done[r.depth]
      if r.line:match("^%S+") == fin.line:match("^%S+") and r.score == fin.score then
        compared = compared + 1
        assert.are.equal(fin.line, r.line)
      end
    end
    assert.is_true(compared > 0, "no partial report led by the final move")
  end)
end)
