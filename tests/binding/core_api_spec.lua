-- tests/binding/core_api_spec.lua - the binding's shared machinery: error values and
-- their codes, options refused the same way everywhere ("did you mean"),
-- cheskers.deadline for every long call, perft/divide progress and partial
-- results, and the module layout (cheskers.core under lua/cheskers/init.lua,
-- which alone loads the pure-Lua parts).
-- Expected counts come from docs/reference/rules.md (the start position has 9 moves, 81
-- sequences of 2 plies, 652 of 3) or from other calls of the module checked
-- against each other, never from a printout. Time bounds are multiplied by
-- CHESKERS_TIME_SCALE (the sanitizer and valgrind runs are slower).
local cheskers = require "cheskers"

local SCALE = tonumber(os.getenv("CHESKERS_TIME_SCALE") or "") or 1
local clock = os.clock

-- The error value a call raises (the call must fail).
local function error_of(f, ...)
  local ok, e = pcall(f, ...)
  assert(not ok, "the call did not raise")
  return e
end

-- What a board looks like from outside: position and history.
local function snapshot(b)
  local h = {}
  for i, m in ipairs(b:history()) do h[i] = tostring(m) end
  return { fen = b:fen(), history = table.concat(h, " ") }
end

describe("error values", function()
  -- one row per code: a call that must raise it, and words of its message
  local CASES = {
    { "illegal_move", function() cheskers.new():play("a1-b2") end, "illegal move" },
    { "illegal_move", function()
        local w = cheskers.new(nil, { first = "white" })
        cheskers.new():play(w:moves()[1])       -- a White move, Black to move
      end, "illegal move" },
    { "bad_position", function() cheskers.new("xx") end, "bad position" },
    { "bad_position", function() cheskers.new(nil, { start = "8/8" }) end, "bad position" },
    { "bad_rules", function() cheskers.new(nil, { capture = "sometimes" }) end, "capture" },
    { "bad_option", function() cheskers.new(nil, { colour = "red" }) end, "unknown rules option 'colour'" },
    { "bad_option", function() cheskers.new():search { bogus = 1 } end, "unknown option 'bogus'" },
    { "bad_argument", function() cheskers.new():search { depth = 0 } end, "depth" },
    { "hook", function() cheskers.new(nil, { filter = function() return 1 end }):moves() end,
      "filter hook must return a boolean" },
    { "busy", function()
        local b = cheskers.new()
        b:perft(2, function() b:play(b:moves()[1]) end)
      end, "board is busy" },
    { "node_limit", function() cheskers.new():solve { moves = 3, nodes = 10 } end, "node limit" },
    { "interrupted", function() cheskers.new():perft(3, function() cheskers.interrupt() end) end,
      "interrupted" },
  }
  for _, case in ipairs(CASES) do
    it("code " .. case[1] .. ": " .. case[3], function()
      local e = error_of(case[2])
      assert.are.equal(case[1], cheskers.error_code(e))
      assert.truthy(tostring(e):find(case[3], 1, true), tostring(e))
    end)
  end

  it("read like strings: tostring, concatenation, string methods on the message", function()
    local e = error_of(function() cheskers.new():play("a1-b2") end)
    assert.are.equal("table", type(e))
    assert.are.equal(e.message, tostring(e))
    assert.are.equal("x: " .. e.message, "x: " .. e)
    assert.are.equal(1, e:find("illegal move", 1, true))
    assert.are.equal("ILLEGAL", e:sub(1, 7):upper())
  end)

  it("error_code answers nil for anything that is not an error value", function()
    assert.is_nil(cheskers.error_code("illegal_move"))
    assert.is_nil(cheskers.error_code({ code = "illegal_move" }))
    assert.is_nil(cheskers.error_code(nil))
    assert.is_nil(cheskers.error_code(select(2, pcall(error, "plain"))))
  end)

  it("a hook's own error is raised unchanged, not wrapped", function()
    local b = cheskers.new(nil, { filter = function() error("mine", 0) end })
    local e = error_of(b.moves, b)
    assert.are.equal("mine", e)
  end)
end)

describe("options tables", function()
  local b = cheskers.new()
  -- one row per entry point: the call, the text it must name
  local CASES = {
    { "search", function() b:search { dept = 2 } end, "search: unknown option 'dept' (did you mean 'depth'?)" },
    { "solve", function() b:solve { moves = 2, nodez = 5 } end, "solve: unknown option 'nodez' (did you mean 'nodes'?)" },
    { "defend", function() b:defend { moves = 2, all = true } end, "defend: unknown option 'all' (known: moves, nodes, tb)" },
    { "refute", function() b:refute("b6-c5", { moves = 2, mvoes = 3 }) end,
      "refute: unknown option 'mvoes' (did you mean 'moves'?)" },
    { "rules", function() cheskers.rules { majoriti = true } end,
      "unknown rules option 'majoriti' (did you mean 'majority'?)" },
    { "new", function() cheskers.new(nil, { flying_king = true }) end,
      "unknown rules option 'flying_king' (did you mean 'flying_kings'?)" },
    { "pieces", function() cheskers.rules { pieces = { N = { jumps = {} } } } end,
      "unknown pieces.N field 'jumps'" },
    { "weights", function() b:search { depth = 1, weights = { pawm = 3 } } end,
      "weights: unknown weight 'pawm' (did you mean 'pawn'?)" },
    { "engine.weights", function() cheskers.engine.weights { tmepo = 3 } end,
      "weights: unknown weight 'tmepo' (did you mean 'tempo'?)" },
  }
  for _, case in ipairs(CASES) do
    it("are checked by " .. case[1], function()
      local before = snapshot(b)
      local e = error_of(case[2])
      assert.are.equal("bad_option", cheskers.error_code(e))
      assert.truthy(tostring(e):find(case[3], 1, true), tostring(e))
      assert.are.same(before, snapshot(b))
    end)
  end

  it("a far-off key lists the known ones instead of guessing", function()
    local e = error_of(b.search, b, { zzzzzzzz = 1 })
    assert.truthy(tostring(e):find("known: depth, nodes, time, eval, weights, info", 1, true), tostring(e))
  end)

  it("the first unknown key in byte order is named, whatever the table's order", function()
    local e = error_of(b.solve, b, { moves = 2, zeta = 1, alpha = 1 })
    assert.truthy(tostring(e):find("'alpha'", 1, true), tostring(e))
  end)

  it("keys that are not strings are refused", function()
    local e = error_of(b.search, b, { [1] = 2 })
    assert.are.equal("bad_option", cheskers.error_code(e))
  end)

  it("the known keys still work", function()
    assert.is_true(b:solve { moves = 1, all = false, nodes = 1000 }.win == false)
    assert.is_not_nil(b:search { depth = 1, nodes = 100 }.move)
  end)
end)

describe("cheskers.deadline", function()
  after_each(function() cheskers.deadline(nil) end)

  -- Calls f(b) on a fresh board under a 0.2 s deadline; checks that it
  -- raises "timeout" within about a second and leaves the board as it was.
  local function times_out(f, b)
    b = b or cheskers.new()
    b:play("b6-c5")
    local before = snapshot(b)
    local t0 = clock()
    cheskers.deadline(0.2)
    local e = error_of(f, b)
    cheskers.deadline(nil)
    assert.are.equal("timeout", cheskers.error_code(e), tostring(e))
    assert.is_true(clock() - t0 < 1 * SCALE, "took " .. (clock() - t0) .. " s")
    assert.are.same(before, snapshot(b))
    assert.is_true(#b:moves() > 0)      -- the board is idle again
    return e
  end

  it("stops perft(20)", function() times_out(function(b) return b:perft(20) end) end)
  it("stops divide(20)", function() times_out(function(b) return b:divide(20) end) end)
  it("stops perft(20) with a progress function", function()
    times_out(function(b) return b:perft(20, function() end) end)
  end)
  it("stops solve(15)", function() times_out(function(b) return b:solve(15) end) end)
  it("stops defend(15)", function() times_out(function(b) return b:defend(15) end) end)
  it("stops refute(move, 15)", function()
    times_out(function(b) return b:refute(b:moves()[1], 15) end)
  end)
  it("stops a count under rules with Lua hooks", function()
    local b = cheskers.new(nil, { filter = function() return true end })
    times_out(function(x) return x:perft(20) end, b)
  end)

  it("bounds a search, which answers with its best move so far", function()
    local b = cheskers.new()
    local t0 = clock()
    cheskers.deadline(0.2)
    local r = b:search { depth = 100 }
    cheskers.deadline(nil)
    assert.is_not_nil(r.move)
    assert.is_true(clock() - t0 < 1 * SCALE)
  end)

  it("returns the seconds left of the previous deadline; nil clears it", function()
    assert.is_nil(cheskers.deadline(100))
    local left = cheskers.deadline(nil)
    assert.is_true(left > 99 and left <= 100, tostring(left))
    assert.is_nil(cheskers.deadline())
    assert.are.equal(652, cheskers.new():perft(3))     -- no deadline: counts in full
  end)

  it("is the function cheskers.engine.deadline too (one deadline)", function()
    cheskers.engine.deadline(50)
    local left = cheskers.deadline(nil)
    assert.is_true(left > 49 and left <= 50)
  end)

  it("refuses negative seconds", function()
    assert.has_error(function() cheskers.deadline(-1) end)
  end)

  it("a deadline already passed stops the next long call at once", function()
    cheskers.deadline(0)
    local e = error_of(function() return cheskers.new():solve(15) end)
    assert.are.equal("timeout", cheskers.error_code(e))
  end)
end)

describe("cheskers.interrupt", function()
  -- A board whose filter hook raises the interrupt flag on its 200th call:
  -- the long call running then must stop with the board restored.
  local function interrupting()
    local calls = 0
    return cheskers.new(nil, { filter = function()
      calls = calls + 1
      if calls == 200 then cheskers.interrupt() end
      return true
    end })
  end
  local CALLS = {
    perft = function(b) return b:perft(20) end,
    divide = function(b) return b:divide(20) end,
    search = function(b) return b:search { depth = 60 } end,
    solve = function(b) return b:solve(15) end,
    defend = function(b) return b:defend(15) end,
    refute = function(b) return b:refute("b6-c5", 15) end,
  }
  for name, call in pairs(CALLS) do
    it("stops " .. name .. " (code interrupted), board restored and idle", function()
      local b = interrupting()
      local before = snapshot(b)
      local e = error_of(call, b)
      assert.are.equal("interrupted", cheskers.error_code(e), tostring(e))
      assert.are.same(before, snapshot(b))
      assert.is_true(#b:moves() > 0)
    end)
  end
end)

describe("perft progress and partial results", function()
  it("progress hears each root move with its text and count", function()
    local b = cheskers.new()
    local calls, sum = {}, 0
    local total = b:perft(3, function(i, n, nodes, move, count)
      calls[#calls + 1] = { i = i, n = n, nodes = nodes, move = move, count = count }
    end)
    assert.are.equal(652, total)            -- docs/reference/rules.md
    assert.are.equal(9, #calls)             -- one per root move (docs/reference/rules.md: 9)
    local per = b:divide(3)
    for k, c in ipairs(calls) do
      assert.are.equal(k, c.i)
      assert.are.equal(9, c.n)
      assert.are.equal(per[c.move], c.count)
      sum = sum + c.count
      assert.are.equal(sum, c.nodes)
    end
  end)

  it("deep counts also report between subtrees, move and count nil", function()
    local b = cheskers.new()
    local between, roots, last = 0, 0, 0
    local total = b:perft(8, function(_, _, nodes, move, count)
      assert.is_true(nodes >= last)
      last = nodes
      if move == nil then
        assert.is_nil(count)
        between = between + 1
      else
        roots = roots + 1
      end
    end)
    assert.are.equal(9, roots)
    assert.is_true(between >= 9 * 9, "reports between subtrees: " .. between)
    assert.are.equal(total, last)
    assert.are.equal(b:perft(8), total)
  end)

  for _, method in ipairs({ "perft", "divide" }) do
    it(method .. " interrupted keeps the counts of the root moves done", function()
      local b = cheskers.new()
      local before = snapshot(b)
      local seen = {}
      local e = error_of(b[method], b, 4, function(i, _, _, move, count)
        seen[move] = count
        if i == 3 then cheskers.interrupt() end
      end)
      assert.are.equal("interrupted", cheskers.error_code(e))
      assert.are.same(before, snapshot(b))
      local n, sum, full = 0, 0, b:divide(4)
      for move, count in pairs(e.partial) do
        n = n + 1
        sum = sum + count
        assert.are.equal(full[move], count)
        assert.are.equal(seen[move], count)
      end
      assert.are.equal(3, n)
      assert.are.equal(sum, e.total)
    end)
  end

  it("a timeout keeps the partial counts too", function()
    local b = cheskers.new()
    local full = b:divide(4)
    cheskers.deadline(0.05)
    local e = error_of(b.divide, b, 4, function(i, _, _, move)
      if i == 2 and move then     -- let the deadline pass (CPU time <= wall time)
        local t0 = clock()
        while clock() - t0 < 0.1 do end
      end
    end)
    cheskers.deadline(nil)
    assert.are.equal("timeout", cheskers.error_code(e))
    local n, sum = 0, 0
    for move, count in pairs(e.partial) do
      n = n + 1
      sum = sum + count
      assert.are.equal(full[move], count)
    end
    assert.are.equal(2, n)
    assert.are.equal(sum, e.total)
  end)
end)

describe("the module layout", function()
  it("require 'cheskers' is the C core with the Lua additions", function()
    local core = require "cheskers.core"
    assert.are.equal(core, cheskers)
    assert.are.equal("function", type(cheskers.new))
    assert.are.equal("function", type(cheskers.new().svg))
  end)

  -- Runs a Lua chunk in a fresh stock lua5.4 with the source tree's paths;
  -- returns its output.
  local function fresh(chunk)
    local cmd = "lua5.4 -e 'package.cpath=\"./?.so;\"..package.cpath; " ..
      "package.path=\"./lua/?.lua;./lua/?/init.lua;\"..package.path' -e '" .. chunk .. "' 2>&1"
    local p = assert(io.popen(cmd))
    local out = p:read("a")
    p:close()
    return out
  end

  it("loads cheskers.puzzle and cheskers.svg only on first use", function()
    local out = fresh([[
      local c = require "cheskers"
      io.write(tostring(package.loaded["cheskers.puzzle"]), " ", tostring(package.loaded["cheskers.svg"]), " ")
      local p = c.puzzle
      io.write(tostring(package.loaded["cheskers.puzzle"] == p), " ", tostring(package.loaded["cheskers.svg"]), " ")
      local s = c.new():svg()
      io.write(tostring(package.loaded["cheskers.svg"] ~= nil), " ", tostring(s:find("<svg", 1, true) ~= nil))
    ]])
    assert.are.equal("nil nil true nil true true", out)
  end)

  it("the C core alone loads no Lua module", function()
    local out = fresh([[
      local before = {}
      for k in pairs(package.loaded) do before[k] = true end
      local core = require "cheskers.core"
      core.new():solve(2)
      local new = {}
      for k in pairs(package.loaded) do if not before[k] then new[#new + 1] = k end end
      table.sort(new)
      io.write(table.concat(new, " "), " ", tostring(rawget(core, "puzzle")))
    ]])
    assert.are.equal("cheskers.core nil", out)
  end)

  it("no binding file calls require but b:svg, for cheskers.svg when called", function()
    local p = assert(io.popen("ls lua/binding/*.c"))
    local n = 0
    for path in p:lines() do
      local f = assert(io.open(path))
      local text = f:read("a")
      f:close()
      n = n + 1
      local _, calls = text:gsub('"require"', "")
      if path == "lua/binding/lboard.c" then
        assert.equal(1, calls, path)
        assert.truthy(text:find('"require"[^;]*;%s*[^\n]*\n%s*lua_pushliteral%(L, "cheskers%.svg"%)'), path)
      else
        assert.equal(0, calls, path)
      end
    end
    p:close()
    assert.is_true(n >= 8)
    local out = fresh([[
      local core = require "cheskers.core"
      local b = core.new()
      local before = package.loaded["cheskers.svg"] ~= nil
      local text = b:svg()
      io.write(tostring(before), " ", tostring(package.loaded["cheskers.svg"] ~= nil), " ", text:sub(1, 4))
    ]])
    assert.are.equal("false true <svg", out)
  end)
end)
