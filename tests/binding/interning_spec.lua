-- tests/binding/interning_spec.lua - rule sets are shared, not copied: boards made
-- with the same rules use one rule set (b:rules_id() names it), boards with
-- other rules (any option, piece kinds, start position, hook functions) do
-- not, nothing done to one board changes the rule set another board uses,
-- and a rule set goes once no board uses it. Memory is checked with generous
-- bounds (collectgarbage("count"): the Lua side, where boards and rule sets
-- live); no timings here (those are bench/lua_new.lua's).
local cheskers = require "cheskers"
local H = require "helpers"

local START = cheskers.START
-- W: Kg1 Ba1; B: kb8 pf6. White: the bishop takes on f6 or slides, the king steps.
local BISHOP = "1k6/8/5p2/8/8/8/8/B5K1 w 0 1"

local function texts(b)
  return table.concat(H.texts(b:moves()), " ")
end

local function full_collect()
  collectgarbage("collect")
  collectgarbage("collect")
end

-- One rules table for each way a rule set can differ from the default.
local VARIANTS = {
  { majority = false }, { capture = "jumps" }, { capture = "all" }, { capture = "optional" },
  { promote = "K" }, { promote = "KB" }, { first = "white" }, { flying_kings = true },
  { pawns_capture_backward = true }, { draw_repetition = 3 }, { draw_repetition = 4 },
  { draw_quiet_plies = 40 }, { draw_quiet_plies = 41 },
  { pieces = { B = { leaps = { { 1, 1 } } } } },                  -- B redefined
  { pieces = { C = { leaps = { { 1, 3 } }, compulsory = true } } },
  { pieces = { D = { leaps = { { 2, 2 } } } } },                  -- a new kind
  { pieces = { D = { rides = { { 2, 2 } } } } },
  { pieces = { D = { leaps = { { 2, 2 } }, capture = "jump" } } },
  { pieces = { D = { leaps = { { 2, 2 } } }, E = { leaps = { { 2, 0 } } } } },
  { start = "1k6/8/8/8/8/8/8/6K1 w 0 1" }, { start = "1k6/8/8/8/8/8/8/4K3 w 0 1" },
  { majority = false, capture = "jumps" },
}

describe("rule sets", function()

  it("are shared by boards made with the same rules, whichever way they are written", function()
    local id = cheskers.new():rules_id()
    assert.is_true(math.type(id) == "integer")
    local same = {
      cheskers.new(START), cheskers.new(BISHOP), cheskers.new(nil, "golomb"), cheskers.new(nil, {}),
      cheskers.new(BISHOP, { majority = true, capture = "mixed" }),  -- the defaults spelled out
      cheskers.new(nil, cheskers.rules()), cheskers.new(nil, cheskers.new():rules()),
    }
    for i, b in ipairs(same) do assert.equal(id, b:rules_id(), "board " .. i) end
    local b = cheskers.new()
    b:play(b:moves()[1])
    assert.equal(id, b:copy():rules_id())
    assert.equal(id, b:mirror():rules_id())
  end)

  it("are shared by boards made separately with equal non-default rules", function()
    for i, spec in ipairs(VARIANTS) do
      local again = {}      -- a table of its own, built the same way
      for k, v in pairs(spec) do again[k] = v end
      local a = cheskers.new(nil, spec)
      local b = cheskers.new(nil, again)
      assert.equal(a:rules_id(), b:rules_id(), "variant " .. i)
      assert.equal(a:rules_id(), cheskers.new(nil, a:rules()):rules_id(), "variant " .. i .. " read back")
    end
  end)

  it("differ for every option, piece kind and start position", function()
    local seen = { [cheskers.new():rules_id()] = "default" }
    local keep = {}
    for i, spec in ipairs(VARIANTS) do
      local b = cheskers.new(nil, spec)
      keep[i] = b
      local id = b:rules_id()
      assert.is_nil(seen[id], ("variant %d shares the rule set of %s"):format(i, tostring(seen[id])))
      seen[id] = "variant " .. i
    end
    assert.equal(#VARIANTS, #keep)   -- all alive together, so no id could be reused
  end)

  it("differ by hook functions: the same function shares, another one (even alike) does not", function()
    local function no_bishop_takes(_, m) return not (m.piece == "B" and #m.captures > 0) end
    local function alike(_, m) return not (m.piece == "B" and #m.captures > 0) end
    local function result() return nil end
    local a = cheskers.new(BISHOP, { filter = no_bishop_takes })
    local b = cheskers.new(BISHOP, { filter = no_bishop_takes })
    local c = cheskers.new(BISHOP, { filter = alike })
    local d = cheskers.new(BISHOP, { filter = no_bishop_takes, result = result })
    local e = cheskers.new(BISHOP, { result = result })
    local plain = cheskers.new(BISHOP)
    assert.equal(a:rules_id(), b:rules_id())
    local ids = {}
    for _, x in ipairs({ a, c, d, e, plain }) do
      assert.is_nil(ids[x:rules_id()])
      ids[x:rules_id()] = true
    end
    -- and the hooks still work on every board that shares them
    assert.is_nil(texts(a):find("a1xf6", 1, true))
    assert.is_nil(texts(b):find("a1xf6", 1, true))
    assert.truthy(texts(plain):find("a1xf6", 1, true))
    assert.equal(texts(a), texts(b))
  end)

  it("run hooks of one shared rule set nested across two boards", function()
    -- a's filter asks b (which shares the rule set) for its moves: the hook
    -- context is saved and restored around each core call
    local inner = {}
    local b
    local function filter(_, m)
      if b and m.piece == "B" then inner[#inner + 1] = b:count() end
      return true
    end
    local a = cheskers.new(BISHOP, { filter = filter })
    b = cheskers.new(START, { filter = filter })
    assert.equal(a:rules_id(), b:rules_id())
    local n = a:count()
    assert.is_true(n > 0 and #inner > 0)
    for _, c in ipairs(inner) do assert.equal(cheskers.new(START):count(), c) end
    -- an error in a hook on one board leaves the rule set usable on the other
    local fail = true
    local function flaky() if fail then error("no") end return true end
    local x, y = cheskers.new(BISHOP, { filter = flaky }), cheskers.new(BISHOP, { filter = flaky })
    assert.has_error(function() x:moves() end)
    fail = false
    assert.equal(texts(cheskers.new(BISHOP)), texts(y))
  end)

  it("are read right when a finalizer makes boards while they are read", function()
    -- the collector runs finalizers when memory is allocated, also in the
    -- middle of reading a rules table; here each finalizer reads { capture
    -- = "jumps" }, and a rule set with that and all of spec exists, which a
    -- reading mixed up with the finalizer's would find. In a fresh process:
    -- in this one's large heap the collector seldom gets there at such a time
    local script = H.tmpname()
    local f = assert(io.open(script, "w"))
    f:write([[
      local cheskers = require "cheskers"
      local START = "1k6/8/8/8/8/8/8/4K3 w 0 1"
      local D = { D = { leaps = { { 2, 2 } } } }
      local function f() return true end
      local spec = { majority = false, start = START, filter = f, pieces = D }
      local decoy = cheskers.new(nil, { capture = "jumps", majority = false, start = START, filter = f, pieces = D })
      local finalized, wrong = 0, 0
      local mt = { __gc = function()
        finalized = finalized + 1
        cheskers.new(nil, { capture = "jumps" })
      end }
      collectgarbage("incremental", 1, 1000, 1)     -- collect all the time, in tiny steps
      for _ = 1, 1000 do
        for _ = 1, 50 do setmetatable({}, mt) end
        local b = cheskers.new(nil, spec)
        if b:rules().capture ~= "mixed" or b:rules_id() == decoy:rules_id() then wrong = wrong + 1 end
      end
      print(finalized > 10000, wrong)
    ]])
    f:close()
    local p = assert(io.popen(("%s %s 2>&1"):format(os.getenv("CHESKERS") or "./cheskers", script)))
    local out = p:read("a")
    p:close()
    os.remove(script)
    assert.equal("true\t0\n", out)
  end)

  it("cannot be changed through any board", function()
    local spec = { majority = false }
    local a = cheskers.new(nil, spec)
    local b = cheskers.new(nil, { majority = false })
    local before = texts(b)
    -- the table given to cheskers.new, changed afterwards
    spec.majority = true
    spec.capture = "optional"
    assert.is_false(b:rules().majority)
    assert.is_false(a:rules().majority)
    assert.equal("mixed", a:rules().capture)
    -- the table b:rules() returns, changed
    local t = a:rules()
    t.majority = true
    t.pieces = { D = { leaps = { { 2, 2 } } } }
    t.filter = function() return false end
    assert.is_false(a:rules().majority)
    assert.is_nil(a:rules().pieces)
    assert.is_nil(a:rules().filter)
    assert.equal(before, texts(b))
    -- a board made from those changed tables gets another rule set
    assert.are_not.equal(a:rules_id(), cheskers.new(nil, spec):rules_id())
    assert.are_not.equal(a:rules_id(), cheskers.new(nil, t):rules_id())
    assert.equal(a:rules_id(), b:rules_id())
    -- editing, playing and taking back on one board
    a:put("e5", "P")
    a:play(a:moves()[1])
    a:undo()
    assert.equal(before, texts(b))
    assert.is_false(b:rules().majority)
  end)

  it("cannot be changed by the REPL's rules command", function()
    -- the REPL's board and a copy kept in its Lua share one rule set; the
    -- rules command gives the REPL's board another one and leaves the copy's
    local exe = os.getenv("CHESKERS") or "./cheskers"
    local script = H.tmpname()
    local f = assert(io.open(script, "w"))
    f:write("keep = board:copy()\n",
            "id = board:rules_id()\n",
            "rules majority=false capture=jumps\n",
            "print('board', board:rules().majority, board:rules_id() ~= id)\n",
            "print('keep', keep:rules().majority, keep:rules().capture, keep:rules_id() == id,\n",
            "      cheskers.new():rules_id() == id)\n")
    f:close()
    local p = assert(io.popen(("%s < %s 2>&1"):format(exe, script)))
    local out = p:read("a")
    p:close()
    os.remove(script)
    assert.truthy(out:find("board\tfalse\ttrue\n", 1, true), out)
    assert.truthy(out:find("keep\ttrue\tmixed\ttrue\ttrue\n", 1, true), out)
  end)

  it("go once no board uses them, and are made again when needed", function()
    local spec = { draw_quiet_plies = 77, pieces = { D = { leaps = { { 2, 2 } } } } }
    local b = cheskers.new(nil, spec)
    local id = b:rules_id()
    full_collect()
    assert.equal(id, cheskers.new(nil, spec):rules_id())   -- b keeps it
    local copy = b:copy()
    b = nil   -- luacheck: ignore 311 (dropped: only the copy keeps the rule set now)
    full_collect()
    assert.equal(id, cheskers.new(nil, spec):rules_id())   -- the copy keeps it
    assert.equal(id, copy:rules_id())
    copy = nil   -- luacheck: ignore 311
    full_collect()
    local again = cheskers.new(nil, spec):rules_id()
    assert.is_true(again > id)
  end)

  it("include the default rule set, made again after it went", function()
    -- a fresh process, where no board keeps the default rule set once the
    -- collector has run: cheskers.new(fen) (one argument) makes it again
    local exe = os.getenv("CHESKERS") or "./cheskers"
    local code = "local c = require 'cheskers'; collectgarbage(); collectgarbage(); "
      .. "local b = c.new('" .. BISHOP .. "'); local id = b:rules_id(); b = nil; "
      .. "collectgarbage(); collectgarbage(); "
      .. "local d = c.new('" .. BISHOP .. "'); print(d:fen(), #d:moves(), d:rules_id() > id)"
    local p = assert(io.popen(("%s -e %q 2>&1"):format(exe, code)))
    local out = p:read("a")
    p:close()
    assert.equal(("%s\t%d\ttrue\n"):format(BISHOP, cheskers.new(BISHOP):count()), out)
  end)

  it("cost a board a few hundred bytes, not a rule set", function()
    local N = 5000
    full_collect()
    local k0 = collectgarbage("count")
    local keep = {}
    for i = 1, N do keep[i] = cheskers.new(BISHOP) end
    full_collect()
    local per = (collectgarbage("count") - k0) * 1024 / N
    assert.is_true(per < 2048, ("%.0f bytes a board"):format(per))   -- a rule set is about 58 KB
    for i = 1, N do keep[i] = cheskers.new(nil, { draw_quiet_plies = 1 + i % 50 }) end
    full_collect()
    per = (collectgarbage("count") - k0) * 1024 / #keep
    assert.is_true(per < 2048 + 50 * 60 * 1024 / N, ("%.0f bytes a board"):format(per))
  end)

  it("are not kept when the boards using them are collected (no leak)", function()
    full_collect()
    local k0 = collectgarbage("count")
    for round = 1, 4 do
      for i = 1, 500 do
        local b = cheskers.new(nil, { draw_quiet_plies = round * 1000 + i, filter = function() return true end })
        b:play(b:moves()[1])
        b:copy()
      end
      full_collect()
    end
    -- 2,000 rule sets of about 58 KB each were made: all gone but the odd one
    local grown = (collectgarbage("count") - k0) * 1024
    assert.is_true(grown < 1024 * 1024, ("%.0f KB kept"):format(grown / 1024))
  end)
end)
