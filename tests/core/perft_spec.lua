-- tests/core/perft_spec.lua - the perft numbers of docs/reference/rules.md, and divide.
local cheskers = require "cheskers"
local H = require "helpers"

-- Rows: rules, then {depth, nodes} pairs, all from docs/reference/rules.md "Perft reference numbers".
-- first = "white": the start position is symmetric under the half turn
-- (a1 B <-> h8 b, c1 K <-> f8 k, ... h2 P <-> a7 p) and every rule is colour
-- symmetric, so White moving first gives the same counts.
local PERFT = {
  { rules = nil, counts = { {1, 9}, {2, 81}, {3, 652}, {4, 4395}, {5, 30239}, {6, 209035} } },
  { rules = { majority = false },
    counts = { {1, 9}, {2, 81}, {3, 652}, {4, 4395}, {5, 30239}, {6, 209816}, {7, 1474381} } },
  { rules = { capture = "jumps", majority = false },
    counts = { {4, 4335}, {5, 28670}, {6, 190502} } },
  { rules = { first = "white" }, counts = { {1, 9}, {2, 81}, {3, 652}, {4, 4395}, {5, 30239} } },
}

describe("perft from the start position", function()
  for _, row in ipairs(PERFT) do
    for _, dn in ipairs(row.counts) do
      local depth, nodes = dn[1], dn[2]
      it(("rules %s depth %d = %d"):format(H.rules_text(row.rules), depth, nodes), function()
        local b = cheskers.new(nil, row.rules)
        local before, hash = b:fen(), b:hash()
        assert.are.equal(nodes, b:perft(depth))
        assert.are.equal(before, b:fen())
        assert.are.equal(hash, b:hash())
      end)
    end
  end
end)

-- Positions for divide: the start, and a few from the rule tests.
local DIVIDE = {
  { fen = nil, rules = nil, depth = 4 },
  { fen = nil, rules = { majority = false, flying_kings = true }, depth = 4 },
  { fen = "7k/8/5p2/8/1k1p3B/P1P5/8/4C1K1 w 0 1", rules = nil, depth = 3 },
  { fen = "7k/8/5p2/8/1k1p3B/P1P5/8/4C1K1 w 0 1", rules = { majority = false }, depth = 3 },
  { fen = "3k4/P1p3b1/7p/6p1/7C/2K5/1c3P1P/B1K5 w 0 1", rules = { majority = false }, depth = 4 },
  { fen = "7k/P7/8/8/8/8/8/6K1 w 0 1", rules = { promote = "BC" }, depth = 3 },
}

describe("divide", function()
  for _, row in ipairs(DIVIDE) do
    local name = (row.fen or "start") .. " " .. H.rules_text(row.rules)
    it("sums to perft and is keyed by move text: " .. name, function()
      local b = cheskers.new(row.fen, row.rules)
      for depth = 1, row.depth do
        local div = b:divide(depth)
        local texts = H.set_of(H.texts(b:moves()))
        local sum, nkeys = 0, 0
        for text, n in pairs(div) do
          assert.is_true(texts[text] ~= nil, ("divide key %q is not a legal move text"):format(text))
          assert.are.equal("number", type(n))
          if depth == 1 then
            assert.are.equal(1, n)
          else -- each entry is the perft of the position after that move
            local c = b:copy()
            c:play(text)
            assert.are.equal(c:perft(depth - 1), n, "divide entry " .. text)
          end
          sum, nkeys = sum + n, nkeys + 1
        end
        assert.are.equal(b:count(), nkeys)
        assert.are.equal(b:perft(depth), sum)
      end
    end)
  end

  it("progress is called once per root move", function()
    local b = cheskers.new()
    local calls, last_n = 0, nil
    local total = b:perft(2, function(i, n, nodes)
      calls = calls + 1
      assert.are.equal(calls, i)
      last_n = n
      assert.are.equal("number", type(nodes))
    end)
    assert.are.equal(81, total)
    assert.are.equal(9, calls)
    assert.are.equal(9, last_n)
  end)

  it("a finished game has no moves: perft and divide are empty", function()
    -- White jumps Black's only king: White has won, nothing is left to count.
    local b = cheskers.new("8/8/7p/8/3k4/2P5/8/6K1 w 0 1")
    b:play("c3xe5")
    assert.are.equal(0, b:perft(1))
    assert.are.equal(0, b:perft(3))
    assert.are.same({}, b:divide(2))
  end)
end)
