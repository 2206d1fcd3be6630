-- tests/core/search_features_spec.lua - the search's switches and margins
-- (declared once: CHK_SEARCH_SWITCHES and CHK_SEARCH_MARGINS of
-- core/cheskers.h, read through cheskers.engine.switches and .margins;
-- b:search's rfp, aspiration, fp, delta, rfp_margin, fp_margin; the engine
-- bot's engine:rfp=..., engine:rfp_margin=...; docs/guide/engine.md, "Search
-- changes"): the list is the documented one and the rejected tries are
-- gone, accepted and refused values, each one changes the search,
-- node-limited searches stay reproducible, the board is restored.
local cheskers = require "cheskers"
local H = require "helpers"

-- docs/guide/engine.md: the search changes that shipped (on by default, switchable
-- to measure them again), the margins with their defaults, and the tries
-- rejected by their SPRT (not in the code any more)
local DOCUMENTED = { "aspiration", "delta", "fp", "rfp" }
local MARGINS = { rfp_margin = 120, fp_margin = 150 }
local REJECTED = { "nmp", "lmr", "lmp", "qtt", "hlmr", "unfinished", "hmalus", "iir", "counter", "pext" }

-- The switches as the binding declares them (the one list), sorted.
local FEATURES = {}
for name in pairs(cheskers.engine.switches) do FEATURES[#FEATURES + 1] = name end
table.sort(FEATURES)

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

describe("search switches", function()
  it("are the documented ones, each with a description; the margins too", function()
    assert.are.same(DOCUMENTED, FEATURES)
    for _, f in ipairs(FEATURES) do assert.matches("^%l[%l ]+$", cheskers.engine.switches[f]) end
    local margins = {}
    for m, what in pairs(cheskers.engine.margins) do
      margins[m] = MARGINS[m]
      assert.matches("^the margin a ply of ", what)
    end
    assert.are.same(MARGINS, margins)
  end)

  it("the rejected tries are no options of b:search nor of the engine bot", function()
    local bots = require "cheskers.bots"
    local b = cheskers.new()
    for _, f in ipairs(REJECTED) do
      local ok, err = pcall(b.search, b, { depth = 2, [f] = true })
      assert.is_false(ok)
      assert.matches("unknown option '" .. f .. "'", tostring(err), 1, true)
      ok, err = pcall(bots.load, "engine:" .. f .. "=true")
      assert.is_false(ok)
      assert.matches(f, tostring(err), 1, true)
    end
  end)

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
    local ok, err = pcall(b.search, b, { depth = 2, rfpp = true })
    assert.is_false(ok)
    assert.matches("did you mean 'rfp'", tostring(err), 1, true)
  end)

  it("each changes the search: another node count to the same depth; the default is one of them", function()
    local b = middlegame()
    local default = b:search({ depth = 8 }).nodes
    for _, f in ipairs(FEATURES) do
      local on = b:search({ depth = 8, [f] = true }).nodes
      local off = b:search({ depth = 8, [f] = false }).nodes
      assert.are_not.equal(off, on, f)
      assert.are.equal(on, default, f .. " is on by default")
    end
  end)

  it("margins of rfp and fp take a whole number from 1 to engine.MAX_MARGIN, and refuse anything else in one line",
     function()
    local b = cheskers.new()
    for m in pairs(MARGINS) do
      assert.is_not_nil(b:search({ depth = 2, [m] = 1 }).move)
      assert.is_not_nil(b:search({ depth = 2, [m] = cheskers.engine.MAX_MARGIN }).move)
      for _, v in ipairs({ 0, -5, 1.5, "90", true, cheskers.engine.MAX_MARGIN + 1, 2147483647, 1 / 0, 0 / 0 }) do
        local ok, err = pcall(b.search, b, { depth = 2, [m] = v })
        assert.is_false(ok)
        err = tostring(err)
        assert.matches(m .. " must be a whole number from 1 to " .. cheskers.engine.MAX_MARGIN, err, 1, true)
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
    local o = { nodes = 6000, rfp = true, aspiration = true, fp = true, delta = true, rfp_margin = 90,
                fp_margin = 200 }
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
    local r = b:search { depth = 5, rfp = true, aspiration = true, fp = true, delta = true, rfp_margin = 40,
                         fp_margin = 40 }
    assert.are.equal("h2xd6", tostring(r.move))
    assert.are.equal(cheskers.engine.WIN - 1, r.score)
  end)
end)

describe("search switches in the engine bot", function()
  local bots = require "cheskers.bots"

  it("engine:delta=false passes the switch to every search", function()
    local seen
    local fake = {   -- the two board methods the bot calls
      count = function() return 2 end,
      search = function(_, o) seen = o; return { move = "a3-b4" } end,
    }
    local bot = bots.load("engine:delta=false,rfp=true,nodes=100")
    assert.are.equal("a3-b4", bot.choose(fake, {}))
    assert.is_false(seen.delta)
    assert.is_true(seen.rfp)
    assert.is_nil(seen.aspiration)
    assert.are.equal(100, seen.nodes)
  end)

  it("engine:rfp_margin=N passes the margin to every search, and refuses one below 1", function()
    local seen
    local fake = {
      count = function() return 2 end,
      search = function(_, o) seen = o; return { move = "a3-b4" } end,
    }
    local bot = bots.load("engine:rfp_margin=90,fp_margin=200,fp=false,nodes=100")
    assert.are.equal("a3-b4", bot.choose(fake, {}))
    assert.are.equal(90, seen.rfp_margin)
    assert.are.equal(200, seen.fp_margin)
    assert.is_false(seen.fp)
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

-- cheskers.engine.context(): a search context the caller keeps; searches
-- given it keep its transposition table and history between them.
describe("search contexts", function()
  local function middle()
    local b = cheskers.new()
    for _ = 1, 10 do b:play(b:search({ depth = 3 }).move) end
    return b
  end

  it("a new context searches like no context; searching again builds on the first search", function()
    local b = middle()
    local fresh = b:search({ depth = 8 })
    local ctx = cheskers.engine.context()
    local first = b:search({ depth = 8, context = ctx })
    assert.are.equal(fresh.nodes, first.nodes)
    assert.are.equal(tostring(fresh.move), tostring(first.move))
    local again = b:search({ depth = 8, context = ctx })
    assert.is_true(again.nodes < first.nodes / 2, ("again %d nodes, first %d"):format(again.nodes, first.nodes))
    -- without a context nothing is kept: the same count every time
    assert.are.equal(fresh.nodes, b:search({ depth = 8 }).nodes)
    ctx:clear()
    assert.are.equal(fresh.nodes, b:search({ depth = 8, context = ctx }).nodes, "clear forgets")
  end)

  it("two contexts given the same searches give the same results (a game is reproducible)", function()
    local function game(ctx)
      local b, line = cheskers.new(), {}
      for _ = 1, 16 do
        local r = b:search({ nodes = 3000, context = ctx })
        line[#line + 1] = tostring(r.move) .. " " .. r.score .. " " .. r.depth
        b:play(r.move)
      end
      return line
    end
    local a, c = cheskers.engine.context(1), cheskers.engine.context(1)
    local first = game(a)
    assert.are.same(first, game(c))
    c:clear()
    assert.are.same(first, game(c), "a cleared context plays the game again")
    assert.are_not.same(first, game(a), "an uncleared one remembers the first game")
  end)

  it("refuses a size that is not 1 to 4096 megabytes, and a context that is not one, in one line", function()
    for _, v in ipairs({ 0, -1, 1.5, "16", 5000, true }) do
      local ok, err = pcall(cheskers.engine.context, v)
      assert.is_false(ok)
      assert.matches("context: the table size must be a whole number of megabytes from 1 to 4096", tostring(err), 1, true)
    end
    local b = cheskers.new()
    for _, v in ipairs({ 5, "ctx", {}, b }) do
      local ok, err = pcall(b.search, b, { depth = 2, context = v })
      assert.is_false(ok)
      err = tostring(err)
      assert.matches("'context' must be a search context", err, 1, true)
      assert.is_nil(err:find("\n"))
    end
    assert.are.equal("search context", tostring(cheskers.engine.context(1)))
  end)

  it("one search at a time: a callback searching with the same context is refused; the context works after", function()
    local b = middle()
    local before = snapshot(b)
    local ctx = cheskers.engine.context(1)
    local inner_err
    local r = b:search({ depth = 3, context = ctx, eval = function(x)
      if not inner_err then
        local ok, err = pcall(x.search, x, { depth = 1, context = ctx })
        inner_err = ok and "no error" or tostring(err)
        local ok2, err2 = pcall(ctx.clear, ctx)
        inner_err = inner_err .. " / " .. (ok2 and "no error" or tostring(err2))
      end
      return 0
    end })
    assert.is_not_nil(r.move)
    assert.matches("the context is searching already", inner_err, 1, true)
    assert.matches("context:clear: the context is searching", inner_err, 1, true)
    assert.are.same(before, snapshot(b))
    assert.is_not_nil(b:search({ depth = 3, context = ctx }).move)
  end)

  it("a callback that drops the context and the tables from the options mid-search cannot free them", function()
    local b = middle()
    local opts
    opts = { depth = 6, context = cheskers.engine.context(1), info = function()
      opts.context, opts.tb = nil, nil
      collectgarbage()
      collectgarbage()
    end }
    local r = b:search(opts)
    assert.is_not_nil(r.move)
    assert.are.equal(6, r.depth)
  end)
end)

describe("the engine bot's context (engine:keep, on by default)", function()
  local bots = require "cheskers.bots"

  it("searches with one context for the game, cleared by new_game (so a game depends on itself alone)", function()
    local bot = bots.load("engine:nodes=3000")
    local b = cheskers.new()
    for _ = 1, 6 do b:play(bot.choose(b:copy(), {})) end
    local fen = b:fen()
    local fresh = bots.load("engine:nodes=3000")
    fresh.new_game(b:rules())
    local want = tostring(fresh.choose(cheskers.new(fen), {}))
    bot.new_game(b:rules())
    assert.are.equal(want, tostring(bot.choose(cheskers.new(fen), {})))
    -- every search of the bot gets its one context; keep=false gives none
    local seen = {}
    local spy = { count = function() return 2 end,
                  search = function(_, o) seen[#seen + 1] = { ctx = o.context }; return { move = "a3-b4" } end }
    bot.choose(spy, {})
    bot.choose(spy, {})
    bots.load("engine:keep=false,nodes=100").choose(spy, {})
    assert.are.equal(3, #seen)
    assert.is_not_nil(seen[1].ctx)
    assert.are.equal(seen[1].ctx, seen[2].ctx)
    assert.is_nil(seen[3].ctx)
  end)
end)

describe("a context under other rules or weights", function()
  it("starts from empty tables, as a fresh search (the scores it holds were made under others)", function()
    local b = cheskers.new()
    for _ = 1, 8 do b:play(b:search({ depth = 3 }).move) end
    local fen = b:fen()
    local other = cheskers.new(fen, { majority = false, pawns_capture_backward = true })
    local fresh_other = other:search({ depth = 7 })
    local w = cheskers.engine.defaults()
    w.mobility = w.mobility + 20
    local fresh_w = b:search({ depth = 7, weights = w })
    local ctx = cheskers.engine.context()    -- the size of b:search's own (another would index otherwise)
    b:search({ depth = 7, context = ctx })
    -- the same position under other rules: nothing kept
    local r = other:search({ depth = 7, context = ctx })
    assert.are.equal(fresh_other.nodes, r.nodes)
    assert.are.equal(tostring(fresh_other.move), tostring(r.move))
    -- back to the first rules, then other weights: nothing kept
    b:search({ depth = 7, context = ctx })
    r = b:search({ depth = 7, context = ctx, weights = w })
    assert.are.equal(fresh_w.nodes, r.nodes)
    -- the same rules and weights again: kept (fewer nodes)
    assert.is_true(b:search({ depth = 7, context = ctx, weights = w }).nodes < fresh_w.nodes)
  end)

  -- Rules that differ only in a hook function: the core sees the same
  -- content, and the new rule set is made where the collected old one was
  -- (the same address, so the same hook_ud). Hooks compare by the rule
  -- set's id, never reused.
  it("starts afresh under rules that differ only in a hook, though they reuse the old rules' memory", function()
    local fen
    do
      local b = cheskers.new()
      for _ = 1, 8 do b:play(b:search({ depth = 3 }).move) end
      fen = b:fen()
    end
    local function search(filter, ctx)
      local board = cheskers.new(fen, { filter = filter })
      local r = board:search({ depth = 7, context = ctx })
      return { score = r.score, nodes = r.nodes, move = tostring(r.move) }
    end
    local allow_all = function() return true end
    local fresh = search(allow_all)
    -- the first filter forbids the best move: other scores, another best move
    local forbid = function(_, m) return tostring(m) ~= fresh.move end
    local ctx = cheskers.engine.context()
    for _ = 1, 3 do
      collectgarbage()
      collectgarbage()
      local other = search(forbid, ctx)
      assert.are_not.equal(fresh.move, other.move)
      collectgarbage()
      collectgarbage()
      assert.are.same(fresh, search(function() return true end, ctx))
    end
    -- the same hooked rules again (one board, so one rule set): kept
    local board = cheskers.new(fen, { filter = allow_all })
    ctx:clear()
    local first = board:search({ depth = 7, context = ctx })
    assert.are.equal(fresh.nodes, first.nodes)
    assert.is_true(board:search({ depth = 7, context = ctx }).nodes < fresh.nodes)
  end)
end)
