-- tests/binding/api_spec.lua - the API made for search loops (docs/reference/lua_api.md "Move
-- objects", "The whole position at once", "Engine"): the cheap move fields
-- (ncaptures, is_capture, is_promotion, index, key), the whole-position reads
-- (pieces, material, squares, piece_map, bitboards), is_capture, mirror,
-- board equality, b:eval's score alone, b:ordered_moves, and the example bot.
-- Expected values are worked out by hand from docs/reference/rules.md's start position
-- and the square numbering of docs/reference/lua_api.md (a1 = 0, c1 = 1, ... h8 = 31).
local cheskers = require "cheskers"

-- docs/reference/rules.md: the start position, Black to move.
local START = "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b 0 1"
-- Black's moves from the start, in text order (as tests/binding/binding_spec.lua).
local START_MOVES = {
  "b6-a5", "b6-c5", "b8-a5", "b8-c5", "d6-c5", "d6-e5", "f6-e5", "f6-g5", "h6-g5",
}
-- W: Kg1 Pc3; B: kh8 pd4 pf6. The only move: the chain c3xe5xg7.
local CHAIN = "7k/8/5p2/8/3p4/2P5/8/6K1 w 0 1"
-- W: Kg1 Pa7; B: kh8. a7-b8 promotes (=K, =B, =C); the king steps to f2, h2.
local PROMOTION = "7k/P7/8/8/8/8/8/6K1 w 0 1"
-- W: Kg1 Ce1; B: kh8 pd4. The camel takes e1xd4 or leaps to b2, f4, h2.
local TAKE = "7k/8/8/8/3p4/8/8/4C1K1 w 0 1"

local function texts(moves)
  local t = {}
  for i, m in ipairs(moves) do t[i] = tostring(m) end
  return t
end

local function code_of(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok)
  return cheskers.error_code(e)
end

describe("move fields for search loops", function()

  it("count and flag captures and promotions", function()
    local m = cheskers.new(CHAIN):moves()[1]
    assert.are.equal("c3xe5xg7", tostring(m))
    assert.are.equal(2, m.ncaptures)
    assert.is_true(m.is_capture)
    assert.is_false(m.is_promotion)
    assert.are.equal("P", m.piece)
    local quiet = cheskers.new():moves()[1]
    assert.are.equal(0, quiet.ncaptures)
    assert.is_false(quiet.is_capture)
    local promos = 0
    for _, p in ipairs(cheskers.new(PROMOTION):moves()) do
      assert.are.equal(p.promotion ~= nil, p.is_promotion)
      if p.is_promotion then promos = promos + 1 end
    end
    assert.are.equal(3, promos)
  end)

  it("build captures and path once and keep them", function()
    local m = cheskers.new(CHAIN):moves()[1]
    assert.are.same({ "d4", "f6" }, m.captures)
    assert.are.same({ "e5", "g7" }, m.path)
    assert.are.equal(m.captures, m.captures)   -- the same table
    assert.are.equal(m.path, m.path)
    assert.are.equal(#m.captures, m.ncaptures)
  end)

  it("number the moves by their place in b:moves()", function()
    local b = cheskers.new()
    local moves = b:moves()
    assert.are.same(START_MOVES, texts(moves))
    for i, m in ipairs(moves) do assert.are.equal(i, m.index) end
    assert.are.equal(6, b:parse("d6-e5").index)
    -- the same numbering each time: deterministic
    assert.are.equal(4, cheskers.new():moves()[4].index)
    -- a move played from text has no place
    assert.is_nil(cheskers.new():play("b6-a5").index)
  end)

  it("come in text order, numbered 1..n, along games", function()
    -- byte order of the texts tostring gives (docs/reference/lua_api.md), checked on
    -- the positions of a few fixed lines (steps, takes, chains, promotions)
    for seed = 1, 6 do
      local b = cheskers.new()
      for ply = 1, 80 do
        local moves = b:moves()
        if #moves == 0 then break end
        local t = texts(moves)
        local sorted = texts(moves)
        table.sort(sorted)
        assert.are.same(sorted, t)
        for i, m in ipairs(moves) do assert.are.equal(i, m.index) end
        b:play(moves[(ply * seed) % #moves + 1])
      end
    end
  end)

  it("give keys equal for equal moves and different for different ones", function()
    local b = cheskers.new()
    local seen = {}
    for _, m in ipairs(b:moves()) do
      assert.is_true(math.type(m.key) == "integer")
      assert.is_nil(seen[m.key])
      seen[m.key] = tostring(m)
    end
    -- the same move from another board and from text: the same key
    local other = cheskers.new():parse("f6-g5")
    assert.are.equal("f6-g5", seen[other.key])
    -- promotions that differ only by the kind get different keys
    local keys = {}
    for _, m in ipairs(cheskers.new(PROMOTION):moves()) do
      assert.is_nil(keys[m.key])
      keys[m.key] = true
    end
  end)
end)

describe("the whole position at once", function()

  it("lists the 32 squares in index order", function()
    -- rank 1 a1 c1 e1 g1 = B K K C; ranks 2, 3: White pawns; 4, 5 empty;
    -- 6, 7: Black pawns; rank 8 b8 d8 f8 h8 = c k k b
    assert.are.equal("BKKCPPPPPPPP........ppppppppckkb", cheskers.new():squares())
    assert.are.equal(32, #cheskers.new(CHAIN):squares())
  end)

  it("lists the pieces of a side, of a kind", function()
    local b = cheskers.new()
    assert.are.same({ "b2", "d2", "f2", "h2", "a3", "c3", "e3", "g3" }, b:pieces("white", "P"))
    assert.are.same({ "d8", "f8" }, b:pieces("black", "K"))
    assert.are.same({ "d8", "f8" }, b:pieces("black", "k"))
    assert.are.equal(12, #b:pieces("black"))
    assert.are.same({}, cheskers.new(CHAIN):pieces("white", "B"))
    assert.has_error(function() b:pieces("red") end)
    assert.has_error(function() b:pieces("white", "Q") end)
  end)

  it("counts the material of each side", function()
    local m = cheskers.new():material()
    assert.are.same({ P = 8, K = 2, B = 1, C = 1 }, m.white)
    assert.are.same({ p = 8, k = 2, b = 1, c = 1 }, m.black)
    local c = cheskers.new(CHAIN):material()
    assert.are.same({ P = 1, K = 1, B = 0, C = 0 }, c.white)
    assert.are.same({ p = 2, k = 1, b = 0, c = 0 }, c.black)
  end)

  it("gives the bitboards with bit i for square i", function()
    local bb = cheskers.new():bitboards()
    assert.are.equal(0xFF0, bb.white.P)                     -- squares 4..11
    assert.are.equal(0xFFF, bb.white.all)
    assert.are.equal((1 << 29) | (1 << 30), bb.black.k)     -- d8, f8
    assert.are.equal(0xFFF << 20, bb.black.all)
    assert.are.equal(1 << 0, bb.white.B)                    -- a1
  end)

  it("agrees with b:get on every square along a game", function()
    local b = cheskers.new()
    for ply = 1, 30 do
      local squares, map, bb = b:squares(), b:piece_map(), b:bitboards()
      for i, name in ipairs(cheskers.SQUARES) do
        local letter = b:get(name)
        assert.are.equal(letter or ".", squares:sub(i, i))
        assert.are.equal(letter, map[name])
        local found
        for _, side in ipairs({ "white", "black" }) do
          for k, v in pairs(bb[side]) do
            if k ~= "all" and (v >> (i - 1)) & 1 == 1 then found = k end
          end
        end
        assert.are.equal(letter, found)
      end
      local moves = b:moves()
      if #moves == 0 then break end
      b:play(moves[ply % #moves + 1])
    end
  end)
end)

describe("board helpers", function()

  it("b:is_capture reads a move or a text and refuses illegal ones", function()
    local c = cheskers.new(CHAIN)
    assert.is_true(c:is_capture(c:moves()[1]))
    assert.is_true(c:is_capture("c3xe5xg7"))
    local b = cheskers.new()
    assert.is_false(b:is_capture("b6-a5"))
    assert.are.equal("illegal_move", code_of(b.is_capture, b, "a1-b2"))
  end)

  it("b:mirror turns the board half a turn with the colours swapped", function()
    -- Kg1 (3) -> k on 28 (b8); Pc3 (9) -> p on 22 (f6); kh8 (31) -> K on a1;
    -- pd4 (13) -> P on 18 (e5); pf6 (22) -> P on 9 (c3); Black to move.
    local m = cheskers.new(CHAIN):mirror()
    assert.are.equal("black", m:turn())
    assert.are.same({ a1 = "K", c3 = "P", e5 = "P", f6 = "p", b8 = "k" }, m:piece_map())
    -- the mirrored chain c3xe5xg7: f6xd4xb2
    assert.are.same({ "f6xd4xb2" }, texts(m:moves()))
    assert.are.same({}, m:history())
    -- the start position is its own mirror, but for the side to move
    local s = cheskers.new():mirror()
    assert.are.equal(cheskers.new():squares(), s:squares())
    assert.are.equal("white", s:turn())
    assert.is_true(cheskers.new(CHAIN):mirror():mirror() == cheskers.new(CHAIN))
  end)

  it("boards are equal for the same pieces, side and rules", function()
    local a, b = cheskers.new(), cheskers.new(START)
    assert.is_true(a == b)
    assert.is_true(a == a:copy())
    b:play("b6-a5")
    assert.is_false(a == b)
    b:undo()
    assert.is_true(a == b)
    assert.is_false(a == cheskers.new(START, { flying_kings = true }))
    assert.is_false(a == cheskers.new((START:gsub(" b ", " w "))))
    assert.is_false(a == a:moves()[1])
  end)
end)

describe("the evaluation and the engine's order", function()

  it("b:eval returns the score alone unless features are asked for", function()
    local b = cheskers.new(CHAIN)
    assert.are.equal(1, select("#", b:eval()))
    local score, terms = b:eval { features = true }
    assert.are.equal(b:eval(), score)
    local sum = 0
    for _, v in pairs(terms) do sum = sum + v end
    assert.are.equal(score, sum)
    assert.are.equal("bad_option", code_of(b.eval, b, { feature = true }))
  end)

  it("b:ordered_moves puts captures first and keeps b:moves() order otherwise", function()
    local b = cheskers.new(TAKE)
    local plain = texts(b:moves())
    assert.are.same({ "e1-b2", "e1-f4", "e1-h2", "e1xd4", "g1-f2", "g1-h2" }, plain)
    local ordered = b:ordered_moves()
    assert.are.same({ "e1xd4", "e1-b2", "e1-f4", "e1-h2", "g1-f2", "g1-h2" }, texts(ordered))
    assert.are.equal(4, ordered[1].index)        -- its place in b:moves()
    b:play(ordered[1])                           -- playable as listed
    assert.are.equal("e1xd4", tostring(b:undo()))
    -- promotions before quiet moves: =B (300), =C (250), =K (220) by value
    assert.are.same({ "a7-b8=B", "a7-b8=C", "a7-b8=K", "g1-f2", "g1-h2" },
                    texts(cheskers.new(PROMOTION):ordered_moves()))
  end)
end)

describe("the example bot (scripts/bots/alphabeta.lua)", function()
  local function load_bot()
    return dofile("scripts/bots/alphabeta.lua")
  end

  it("plays the only move, and a legal move within its budget", function()
    local bot = load_bot()
    assert.are.equal("c3xe5xg7", tostring(bot.choose(cheskers.new(CHAIN), { nodes = 100 })))
    local b = cheskers.new()
    local m = bot.choose(b, { nodes = 500 })
    assert.is_truthy(b:parse(tostring(m)))
    assert.is_true(bot.last_nodes <= 500)
    assert.is_true(b == cheskers.new())          -- the board is not changed
  end)

  it("takes a free bishop at depth 2", function()
    -- W: Kg1 Ce1; B: kh8 bd4. The camel may take the bishop (e1xd4) or
    -- leap away; nothing can take it back on d4, so the bishop is free.
    local bot = load_bot()
    bot.configure { depth = "2" }
    local b = cheskers.new("7k/8/8/8/3b4/8/8/4C1K1 w 0 1")
    assert.are.equal("e1xd4", tostring(bot.choose(b)))
  end)
end)
