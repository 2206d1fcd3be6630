-- tests/search_features_spec.lua - the search features under test
-- (b:search's nmp, rfp, aspiration, lmr, fp, lmp and the margins of rfp
-- and fp; the engine bot's engine:nmp=..., engine:rfp_margin=...;
-- docs/engine.md, "Search changes"): accepted and refused values, each one
-- changes the search, node-limited searches stay reproducible, the board is
-- restored, and the null move keeps away from pawn-and-king positions.
local cheskers = require "cheskers"
local H = require "helpers"

local FEATURES = { "nmp", "rfp", "aspiration", "lmr", "fp", "lmp", "qtt", "hlmr", "delta" }
local MARGINS = { rfp_margin = 120, fp_margin = 150 }   -- docs/engine.md: their defaults
local DEFAULT_ON = { rfp = true, aspiration = true, fp = true, delta = true }   -- docs/engine.md: the features on by default

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

  it("margins of rfp and fp take a whole number >= 1, and refuse anything else in one line", function()
    local b = cheskers.new()
    for m in pairs(MARGINS) do
      assert.is_not_nil(b:search({ depth = 2, [m] = 1 }).move)
      for _, v in ipairs({ 0, -5, 1.5, "90", true }) do
        local ok, err = pcall(b.search, b, { depth = 2, [m] = v })
        assert.is_false(ok)
        err = tostring(err)
        assert.matches(m .. " must be a whole number >= 1", err, 1, true)
        assert.is_nil(err:find("\n"))
      end
    end
  end)

  it("a margin changes the search: another node count to the same depth; the default is the documented one", function()
    local b = middlegame()
    local default = b:search({ depth = 8 }).nodes
    for m, d in pairs(MARGINS) do
      assert.are.equal(default, b:search({ depth = 8, [m] = d }).nodes, m)
      local small = b:search({ depth = 8, [m] = 40 }).nodes
      local large = b:search({ depth = 8, [m] = 400 }).nodes
      assert.are_not.equal(default, small, m)
      assert.are_not.equal(default, large, m)
    end
    -- without the feature its margin changes nothing
    local off = b:search({ depth = 8, rfp = false }).nodes
    assert.are.equal(off, b:search({ depth = 8, rfp = false, rfp_margin = 40 }).nodes)
  end)

  it("node-limited searches with every feature are reproducible, the board restored", function()
    local b = middlegame()
    local before = snapshot(b)
    local o = { nodes = 6000, nmp = true, rfp = true, aspiration = true, lmr = true, fp = true,
                lmp = true, qtt = true, hlmr = true, delta = true, rfp_margin = 90, fp_margin = 200 }
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
    local r = b:search { depth = 5, nmp = true, rfp = true, aspiration = true, lmr = true, fp = true,
                         lmp = true, qtt = true, hlmr = true, delta = true, rfp_margin = 40, fp_margin = 40 }
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

  it("engine:rfp_margin=N passes the margin to every search, and refuses one below 1", function()
    local seen
    local fake = {
      count = function() return 2 end,
      search = function(_, o) seen = o; return { move = "a3-b4" } end,
    }
    local bot = bots.load("engine:rfp_margin=90,fp_margin=200,lmp=true,nodes=100")
    assert.are.equal("a3-b4", bot.choose(fake, {}))
    assert.are.equal(90, seen.rfp_margin)
    assert.are.equal(200, seen.fp_margin)
    assert.is_true(seen.lmp)
    local ok, err = pcall(bots.load, "engine:fp_margin=0")
    assert.is_false(ok)
    assert.matches("fp_margin", tostring(err), 1, true)
  end)

  it("refuses a value that is not true or false", function()
    local ok, err = pcall(bots.load, "engine:aspiration=2")
    assert.is_false(ok)
    assert.matches("aspiration", tostring(err), 1, true)
    assert.matches("must be true or false, not 2", tostring(err), 1, true)
  end)
end)
