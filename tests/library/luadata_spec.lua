-- tests/library/luadata_spec.lua - cheskers.luadata: the one writer of Lua
-- literals (read back by load), the one loader of trusted table files,
-- truncate and the function behind a wrapper; and the shared pieces that
-- moved beside it (b:svg in the binding, game.random_plies).
local luadata = require "cheskers.luadata"
local H = require "helpers"

-- what load reads the text back as
local function back(text)
  return assert(load("return " .. text, "=literal", "t", {}))()
end

describe("luadata.write", function()
  it("writes plain data that load reads back as the same value", function()
    local cases = {
      { 1, 2, "x", a = true, b = { c = 1 } },
      { ["end"] = 1, ["and"] = { ["nil"] = false }, ["a b"] = 2, [1.5] = 3, [true] = 4, [-7] = "neg" },
      { s = "line\nbreak \"quoted\" 'single' \\ back\0zero\r\t\127" },
      { i = 42, f = 0.1, third = 1 / 3, big = 2 ^ 63, tiny = 5e-324, whole = 2.0, neg = -0.5 },
      { inf = math.huge, ninf = -math.huge, min = math.mininteger, max = math.maxinteger },
      { {}, { {} }, deep = { { { { { 1 } } } } } },
    }
    for _, v in ipairs(cases) do
      for _, opts in ipairs({ {}, { compact = true }, { width = 20 } }) do
        local text = luadata.write(v, opts)
        assert.same(v, back(text), text)
      end
    end
  end)

  it("keeps integers and floats apart, and writes NaN as 0/0", function()
    assert.equal("integer", math.type(back(luadata.write(3))))
    assert.equal("float", math.type(back(luadata.write(3.0))))
    local nan = back(luadata.write(0 / 0))
    assert.is_true(nan ~= nan)
  end)

  it("writes reserved words as keys in brackets", function()
    assert.equal('{["end"] = 1, x = 2}', luadata.write({ ["end"] = 1, x = 2 }))
    assert.equal("{['while']=1}", luadata.write({ ["while"] = 1 }, { compact = true }))
  end)

  it("compact: no spaces, texts in single quotes where they need no escape", function()
    assert.equal("{C={leaps={{1,5}}}}", luadata.write({ C = { leaps = { { 1, 5 } } } }, { compact = true }))
    assert.equal([[{'a',"it's"}]], luadata.write({ "a", "it's" }, { compact = true }))
    assert.equal([["a\nb"]], luadata.write("a\nb", { compact = true }))
  end)

  it("sorts keys by type, then value, after the array part", function()
    assert.equal('{"x", "y", [3.5] = 1, [10] = 2, a = 3, b = 4}',
                 luadata.write({ "x", "y", b = 4, a = 3, [10] = 2, [3.5] = 1 }))
  end)

  it("width: one item a line when the line would be longer", function()
    local t = { alpha = "aaaaaaaaaa", beta = "bbbbbbbbbb", gamma = { 1, 2, 3 } }
    assert.equal('{\n  alpha = "aaaaaaaaaa",\n  beta = "bbbbbbbbbb",\n  gamma = {1, 2, 3}\n}',
                 luadata.write(t, { width = 30 }))
    assert.equal('{alpha = "aaaaaaaaaa", beta = "bbbbbbbbbb", gamma = {1, 2, 3}}',
                 luadata.write(t, { width = 78 }))
  end)

  it("for people: cycles, depth, items and other values", function()
    local t = {}
    t.self = t
    assert.equal("{self = <cycle>}", luadata.write(t))
    assert.equal("{{{...}}}", luadata.write({ { { { 1 } } } }, { depth = 2 }))
    assert.equal("{1, 2, ... (3 more)}", luadata.write({ 1, 2, 3, 4, 5 }, { items = 2 }))
    local f = function() end
    assert.equal("{<fn>}", luadata.write({ f }, { other = function(x) return x == f and "<fn>" or nil end }))
    local shown = setmetatable({}, { __tostring = function() return "shown" end })
    assert.equal("{shown}", luadata.write({ shown }))
  end)
end)

describe("luadata.truncate", function()
  it("keeps the first line, cut to max characters with ...", function()
    assert.equal("abc", luadata.truncate("abc\ndef"))
    assert.equal("abcd...", luadata.truncate(("abcdefghij"):rep(3), 7))
    assert.equal(luadata.DETAIL, #luadata.truncate(("x"):rep(1000)))
    assert.equal("12", luadata.truncate(12))
  end)
end)

describe("luadata.load_file", function()
  local function file(text)
    local path = H.tmpname()
    local f = assert(io.open(path, "wb"))
    f:write(text)
    f:close()
    return path
  end

  it("returns what a Lua file returns", function()
    local path = file("return { majority = false, n = 1 + 2 }")
    assert.same({ majority = false, n = 3 }, luadata.load_file(path, "a rule table"))
    os.remove(path)
  end)

  it("names the file in each message", function()
    local v, err = luadata.load_file("/nonexistent/rules.lua")
    assert.is_nil(v)
    assert.matches("/nonexistent/rules.lua", err, 1, true)
    local path = file("return {")
    v, err = luadata.load_file(path)
    assert.is_nil(v)
    assert.matches(path, err, 1, true)
    os.remove(path)
    path = file("error('boom')")
    v, err = luadata.load_file(path)
    assert.is_nil(v)
    assert.matches("boom", err)
    local _, count = err:gsub(path:gsub("%p", "%%%0"), "")
    assert.equal(1, count, err)
    os.remove(path)
    path = file("return 42")
    v, err = luadata.load_file(path, "a rule table")
    assert.is_nil(v)
    assert.equal(path .. ": does not return a rule table", err)
    os.remove(path)
  end)

  it("refuses bytecode", function()
    local path = file(string.dump(function() return {} end))
    local v, err = luadata.load_file(path)
    assert.is_nil(v)
    assert.matches("binary", err)
    os.remove(path)
  end)
end)

describe("luadata.original", function()
  it("is the function a wrapper stands for, else the function itself", function()
    local fn, w = function() return 1 end, function() return 2 end
    assert.equal(w, luadata.original(w))
    assert.equal(w, luadata.wrap(w, fn))
    assert.equal(fn, luadata.original(w))
  end)

  it("sees through the sandbox's wrappers", function()
    local sandbox = require "cheskers.sandbox"
    local box = sandbox.new { name = "t" }
    local fn = assert(box:load("return function() return 1 end", "=t"))
    local _, inner = box:call(nil, fn)
    local w = box:wrap(inner, "hook")
    assert.equal(1, w())
    assert.equal(inner, luadata.original(w))
  end)
end)

describe("b:svg", function()
  it("is a method of the binding, not patched in from Lua", function()
    local core = require "cheskers.core"
    local svg = getmetatable(core.new()).__index.svg
    assert.equal("function", type(svg))
    assert.equal("C", debug.getinfo(svg, "S").what)
    local text = core.new():svg { coords = false }
    assert.matches("^<svg", text)
    assert.equal(require("cheskers.svg").render(core.new(), { coords = false }), text)
    local ok, err = pcall(core.new().svg, core.new(), { flp = true })
    assert.is_false(ok)
    assert.matches("did you mean 'flip'", tostring(err), 1, true)
  end)
end)

describe("game.random_plies", function()
  local cheskers, game = require "cheskers", require "cheskers.game"

  it("plays moves[random(#moves)] n times", function()
    local b, want = cheskers.new(), cheskers.new()
    local draws = {}
    local played = game.random_plies(b, 3, function(n) draws[#draws + 1] = n return n end)
    assert.equal(3, played)
    for _, n in ipairs(draws) do
      local moves = want:moves()
      assert.equal(#moves, n)
      want:play(moves[n])
    end
    assert.equal(want:fen(), b:fen())
  end)

  it("stops where over says so, and calls each before each move", function()
    local b = cheskers.new()
    local seen = {}
    local played = game.random_plies(b, 10, function() return 1 end,
      function(x) return #x:history() >= 2 end,
      function(x, m, moves) seen[#seen + 1] = { #x:history(), tostring(m), #moves } end)
    assert.equal(2, played)
    assert.equal(2, #seen)
    assert.same({ 0, 1 }, { seen[1][1], seen[2][1] })
    assert.equal(tostring(b:history()[1]), seen[1][2])
  end)

  it("stops at a position without moves", function()
    local b = cheskers.new("8/8/8/8/8/8/8/K7 b 0 1")   -- Black has nothing left to move
    local calls = 0
    assert.equal(0, game.random_plies(b, 5, function() calls = calls + 1 return 1 end))
    assert.equal(0, calls)
  end)

  it("gives a match the same openings whatever math.random does", function()
    local match = require "cheskers.match"
    math.randomseed(1)
    local a = match.opening_board({ seed = 7 }, 3):fen()
    math.randomseed(99)
    local b = match.opening_board({ seed = 7 }, 3):fen()
    assert.equal(a, b)
    assert.equal(4, #match.opening_board({ seed = 7 }, 3):history())
  end)
end)
