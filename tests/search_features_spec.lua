-- tests/search_features_spec.lua - the search features under test
-- (b:search's nmp, rfp, aspiration; the engine bot's engine:nmp=...;
-- docs/engine.md, "Search changes"): accepted and refused values, each one
-- changes the search, node-limited searches stay reproducible, the board is
-- restored, and the null move keeps away from pawn-and-king positions.
local cheskers = require "cheskers"
local H = require "helpers"

local FEATURES = { "nmp", "rfp", "aspiration", "lmr", "fp" }
local DEFAULT_ON = { rfp = true, aspiration = true, fp = true }   -- docs/engine.md: the features on by default

-- A middlegame: the start position and ten plies of the engine's own
-- choices at depth 3 (a fixed line).
local function middlegame()
  local b = cheskers.new()
  for _ = 1, 10 do b:play(b:search({ depth = 3 }).move) end
  return b
end

local function snapshot(b)
  return { fen = b:fen(), hash = b:hash(), n = #b:history() }
end

describe("search features", function()
  it("take true or false, and refuse anything else in one line", function()
    local b = cheskers.new()
    for _, f in ipairs(FEATURES) do
      for _, v in ipairs({ true, false }) do
        assert.is_not_nil(b:search({ depth = 2, [f] = v }).move)
      end
      for _, v in ipairs({ 1, "yes", {} }) do
        local ok, err = pcall(b.search, b, { depth = 2, [f] = v })
        assert.is_false(ok)
        err = tostring(err)
        assert.matches("'" .. f .. "' must be true or false", err, 1, true)
        assert.is_nil(err:find("\n"))
      end
    end
    local ok, err = pcall(b.search, b, { depth = 2, nmpp = true })
    assert.is_false(ok)
    assert.matches("did you mean 'nmp'", tostring(err), 1, true)
  end)

  it("each changes the search: another node count to the same depth; the default is one of them", function()
    local b = middlegame()
    local default = b:search({ depth = 8 }).nodes
    for _, f in ipairs(FEATURES) do
      local on = b:search({ depth = 8, [f] = true }).nodes
      local off = b:search({ depth = 8, [f] = false }).nodes
      assert.are_not.equal(off, on, f)
      assert.are.equal(DEFAULT_ON[f] and on or off, default, f .. " by default")
    end
  end)

  it("node-limited searches with every feature are reproducible, the board restored", function()
    local b = middlegame()
    local before = snapshot(b)
    local o = { nodes = 6000, nmp = true, rfp = true, aspiration = true, lmr = true, fp = true }
    local r1 = b:search(o)
    b:search { depth = 3 }
    local r2 = b:search(o)
    assert.are.same(before, snapshot(b))
    assert.are.equal(tostring(r1.move), tostring(r2.move))
    assert.are.equal(r1.score, r2.score)
    assert.are.equal(r1.nodes, r2.nodes)
  end)

  it("still find a forced win", function()
    -- White's bishop on h2 takes Black's last king on d6 (h2-g3-f4-e5-d6).
    local fen = H.write_fen({ board = { a1 = "K", h2 = "B", d6 = "k", h6 = "p" },
                              side = "w", quiet = 0, moveno = 1 })
    local b = cheskers.new(fen)
    local r = b:search { depth = 5, nmp = true, rfp = true, aspiration = true, lmr = true, fp = true }
    assert.are.equal("h2xd6", tostring(r.move))
    assert.are.equal(cheskers.engine.WIN - 1, r.score)
  end)

  it("no null move for a side of kings (and pawns) only: zugzwang", function()
    -- kings only, so that no pawn promotes to a chess piece inside the search
    local fen = H.write_fen({ board = { c1 = "K", e1 = "K", d4 = "K", f8 = "k", h8 = "k" },
                              side = "w", quiet = 0, moveno = 1 })
    local b = cheskers.new(fen)
    assert.are.equal(b:search({ depth = 9 }).nodes, b:search({ depth = 9, nmp = true }).nodes)
  end)
end)

describe("search features in the engine bot", function()
  local bots = require "cheskers.bots"

  it("engine:nmp=true passes the feature to every search", function()
    local seen
    local fake = {   -- the two board methods the bot calls
      count = function() return 2 end,
      search = function(_, o) seen = o; return { move = "a3-b4" } end,
    }
    local bot = bots.load("engine:nmp=true,rfp=false,nodes=100")
    assert.are.equal("a3-b4", bot.choose(fake, {}))
    assert.is_true(seen.nmp)
    assert.is_false(seen.rfp)
    assert.is_nil(seen.aspiration)
    assert.are.equal(100, seen.nodes)
  end)

  it("refuses a value that is not true or false", function()
    local ok, err = pcall(bots.load, "engine:aspiration=2")
    assert.is_false(ok)
    assert.matches("aspiration", tostring(err), 1, true)
    assert.matches("must be true or false, not 2", tostring(err), 1, true)
  end)
end)
