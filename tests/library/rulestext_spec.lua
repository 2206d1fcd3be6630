-- tests/library/rulestext_spec.lua - rule sets as text (cheskers.rulespec, issue 10;
-- the core's reader, issue "Nothing a user writes is misread"): every rule
-- set the program writes reads back to the same rule set, directly and
-- through a game record's [Rules] tag; typos get "did you mean"; values are
-- echoed with what is allowed; every command that takes --rules takes the
-- same forms. The option values below are the rule book's (docs/reference/rules.md,
-- "Options"); the messages are docs/reference/rules.md's "Options as text".
local cheskers = require "cheskers"
local rulespec = require "cheskers.rulespec"
local rulearg = require "cheskers.rulearg"
local record = require "cheskers.record"
local H = require "helpers"

-- option -> every value the rule book allows (numbers: a few)
local VALUES = {
  majority = { true, false },
  capture = { "mixed", "jumps", "all", "optional" },
  promote = { "K", "B", "C", "KB", "KC", "BC", "KBC" },
  first = { "black", "white" },
  flying_kings = { true, false },
  pawns_capture_backward = { true, false },
  draw_repetition = { 0, 2, 3 },
  draw_quiet_plies = { 0, 1, 40 },
}

local START = "7k/8/8/8/8/8/8/K7 w 0 1"
local PIECES = { C = { leaps = { { 1, 5 } } } }

-- The rule set a board made with spec reports.
local function full(spec)
  return cheskers.new(nil, spec):rules()
end

-- Rule sets to round-trip: {label, rules table}.
local function cases()
  local list = { { "the defaults", {} } }
  for name, values in pairs(VALUES) do
    for _, v in ipairs(values) do
      list[#list + 1] = { name .. "=" .. tostring(v), { [name] = v } }
    end
  end
  list[#list + 1] = { "start", { start = START } }
  list[#list + 1] = { "pieces", { pieces = PIECES } }
  list[#list + 1] = { "a new kind with rides", { pieces = { A = { rides = { { 1, 1 } }, capture = "take" } } } }
  list[#list + 1] = { "everything at once", { start = START, pieces = PIECES, majority = false,
                                              capture = "jumps", promote = "BC", first = "white",
                                              draw_repetition = 3 } }
  return list
end

describe("rules text", function()
  it("knows the same options as the rule book (names from the core)", function()
    local expected = { "pieces", "start" }
    for name in pairs(VALUES) do expected[#expected + 1] = name end
    table.sort(expected)
    assert.same(expected, rulespec.option_names())
  end)

  for _, c in ipairs(cases()) do
    it("round-trips " .. c[1] .. " through format and parse", function()
      local text = rulespec.format(c[2])
      local back, err = rulearg.parse(text)
      assert.is_not_nil(back, err)
      assert.same(full(c[2]), full(back))
      assert.is_true(rulespec.equal(c[2], back))
      -- the same through parse_text (records, untrusted text)
      assert.same(full(c[2]), full((rulespec.parse_text(text))))
    end)

    it("round-trips " .. c[1] .. " through a game record", function()
      local b0 = cheskers.new(nil, c[2])
      local first = b0:moves()[1]
      if first then b0:play(first) end
      local b, err = record.read(record.write(b0))
      assert.is_not_nil(b, err)
      assert.same(b0:rules(), b:rules())
      assert.equal(b0:fen(), b:fen())
    end)
  end

  it("writes the shortest text", function()
    assert.equal("golomb", rulespec.format(nil))
    assert.equal("golomb", rulespec.format("golomb"))
    assert.equal("golomb", rulespec.format({ majority = true }))
    assert.equal("majority=false", rulespec.format({ majority = false }))
    assert.equal("capture=jumps majority=false", rulespec.format({ majority = false, capture = "jumps" }))
    assert.equal("start='" .. START .. "'", rulespec.format({ start = START }))
  end)

  it("reads both quotes, commas and spaces", function()
    local want = full({ start = START, majority = false })
    for _, text in ipairs({ "start='" .. START .. "' majority=false",
                            'start="' .. START .. '",majority=false',
                            "  majority=false ,  start='" .. START .. "'  " }) do
      assert.same(want, full(assert(rulearg.parse(text))), text)
    end
  end)

  it("reads pieces written as a data literal value", function()
    local r = assert(rulearg.parse("pieces={C={leaps={{1,5}}}} majority=false"))
    assert.same(full({ pieces = PIECES, majority = false }), full(r))
  end)

  -- {text, the exact message}
  local ERRORS = {
    { "majorty=false", "unknown rule option 'majorty' (did you mean 'majority'?)" },
    { "flying_king=true", "unknown rule option 'flying_king' (did you mean 'flying_kings'?)" },
    { "captre=jumps", "unknown rule option 'captre' (did you mean 'capture'?)" },
    { "xyzzy=1", "unknown rule option 'xyzzy'" },
    { "flying_kings", "rule option 'flying_kings' is not written name=value: "
                      .. "write flying_kings=true or flying_kings=false" },
    { "majority=false flying_kings", "rule option 'flying_kings' is not written name=value: "
                                     .. "write flying_kings=true or flying_kings=false" },
    { "majority=false majority=true", "rule option 'majority' given twice" },
    { "start='7k/8 w", "rule option 'start': the quote ' is not closed" },
    { "pieces={C={leaps={{1,5}}}", "rule option 'pieces': the { is not closed" },
    { "pieces={C=io}", "rule option 'pieces': rejected: rule option 'pieces':1: 'io' is not available "
                       .. "(only data: tables, texts, numbers, booleans)" },
    { "", "empty rule text" },
    -- the core names the option, echoes the value as written and says what
    -- is allowed
    { "majority=maybe", "majority must be true or false, not 'maybe'" },
    { "capture=jump", "capture must be one of 'mixed', 'jumps', 'all', 'optional', not 'jump' "
                      .. "(did you mean 'jumps'?)" },
    { "golmob", "unknown rules preset 'golmob' (did you mean 'golomb'?)" },
    { "draw_quiet_plies=99999999999999999999",
      "draw_quiet_plies must be a whole number from 0 to 65535, not 99999999999999999999" },
    { "draw_quiet_plies=1.5", "draw_quiet_plies must be a whole number from 0 to 65535, not 1.5" },
    { "draw_repetition=1", "draw_repetition must be 0 (off) or a whole number from 2 to 65535, not 1" },
    { "first=whit", "first must be 'black' or 'white', not 'whit' (did you mean 'white'?)" },
    { "promote=KQ", "promote must be letters of the kinds a pawn may become (K, B, C), not 'KQ'" },
    { "promote=KK", "promote lists K twice" },
    { "majority='true'", "majority must be true or false, not 'true'" },
    { "start=3", "start must be a position text, not 3" },
    { "pieces=abc", "pieces must be a table of piece kinds {...}, not 'abc'" },
    { "majority=", "rule option 'majority' has no value after =" },
    { "capture='all'x", "rule option 'capture': a space or comma must follow its value, not 'x'" },
    { "a b", "cannot read rule spec 'a b': 'a' is not written name=value" },
    { "{majority='maybe'}", "majority must be true or false, not 'maybe'" },
  }
  for _, e in ipairs(ERRORS) do
    it("refuses '" .. e[1] .. "': " .. e[2], function()
      local r, err = rulearg.parse(e[1])
      assert.is_nil(r)
      assert.equal(e[2], err)
    end)
  end

  it("reads promote letters of kinds that pieces adds, in either order", function()
    local want = full({ pieces = { N = { leaps = { { 2, 2 } } } }, promote = "KN" })
    assert.same(want, full(assert(rulearg.parse("promote=KN pieces={N={leaps={{2,2}}}}"))))
    assert.same(want, full(assert(rulearg.parse("pieces={N={leaps={{2,2}}}} promote=KN"))))
  end)

  it("reads colons as separators and spaces around =, as bot options do", function()
    assert.same(full({ majority = false, capture = "jumps" }),
                full(assert(rulearg.parse("majority = false:capture=jumps"))))
  end)

  it("types values in the core, one way for rules and bot options", function()
    local t, data = cheskers.read_options("a=true b=-12 c=1.5 d='x y' e=\"3\" f={1,2} g=txt")
    assert.same({ a = true, b = -12, c = 1.5, d = "x y", e = "3", f = "{1,2}", g = "txt" }, t)
    assert.same({ f = true }, data)
    assert.equal("integer", math.type(t.b))
    assert.equal("float", math.type(t.c))
    local r = cheskers.rules_text("majority=false draw_repetition=3 pieces={C={leaps={{1,5}}}}")
    assert.same({ majority = false, draw_repetition = 3, pieces = "{C={leaps={{1,5}}}}" }, r)
    assert.equal("golomb", cheskers.rules_text(" golomb "))
    assert.same({ nil, "empty rule text" }, { cheskers.rules_text(" , ") })
  end)

  it("composes one way: base, then the preset's own settings, then the spec's (docs/reference/rules.md)", function()
    local base = { draw_repetition = 3, majority = false }
    assert.same(base, rulespec.compose(base, "golomb"))
    assert.same({ draw_repetition = 3, majority = true, capture = "jumps" },
                rulespec.compose(base, "majority=true capture=jumps"))
    assert.same({ draw_repetition = 3, majority = false, flying_kings = true },
                rulespec.compose(base, { flying_kings = true }))
    local r, err = rulespec.compose(base, "capture=jump")
    assert.is_nil(r)
    assert.matches("did you mean 'jumps'", err, 1, true)
  end)

  it("refuses a bad value with the core's message", function()
    local r, err = rulearg.parse("capture=sometimes")
    assert.is_nil(r)
    assert.matches("capture", err)
    assert.matches("sometimes", err)
  end)

  it("a record's [Rules] tag never reads a file", function()
    local b, err = record.read('[Rules "scripts/experiments/camel.lua:camel-1-5"]\n\n*\n')
    assert.is_nil(b)
    assert.matches("^line 1: ", err)
  end)
end)

-- Every command that takes --rules (and the REPL's rules command) reads it
-- with rulearg.parse: text, a table literal, a rule file, an experiment
-- variant and a preset, and refuses bad text with the same message.
describe("every --rules", function()
  local EXE = H.ROOT .. "/cheskers"
  local q = H.shell_quote
  local function run(args)
    local p = io.popen("cd " .. q(H.ROOT) .. " && " .. q(EXE) .. " " .. args .. " 2>&1")
    local text = p:read("a")
    local _, _, code = p:close()
    return text, code
  end
  local function read(path) return H.read_file(path) or "" end

  -- How each command shows which rules it played under: the rules text
  -- (rulespec.format) it ends up with, from a run with --rules R.
  local COMMANDS = {
    rules = function(r)
      local out = run("rules show " .. q(r))
      return out:match("%(as text%)%s+([^\n]+)"), out
    end,
    repl = function(r)
      local out = run("-c " .. q("rules " .. r))
      return out:match("rules: ([^\n]-) %("), out
    end,
    match = function(r, dir)
      local out = run("match random random --games 1 --max-plies 4 --quiet --records " .. q(dir .. "/m.txt")
                      .. " --rules " .. q(r))
      return read(dir .. "/m.txt"):match('%[Rules "([^"]*)"%]'), out
    end,
    tournament = function(r, dir)
      local out = run("tournament random greedy --games 1 --max-plies 4 --quiet --records "
                      .. q(dir .. "/t.txt") .. " --rules " .. q(r))
      return read(dir .. "/t.txt"):match('%[Rules "([^"]*)"%]'), out
    end,
    mine = function(r, dir)
      local out = run("mine --games 30 --from random --max 1 --quiet --file p.lua --out " .. q(dir)
                      .. " --rules " .. q(r))
      local p = read(dir .. "/p.lua")
      if p == "" then return nil, out end
      local list = assert(load(p, "p", "t", {}))()
      return rulespec.format(list[1].rules), out
    end,
    tb = function(r, dir)
      -- tables built under R are the tables of the rules atlas names
      local out = run("tb build --pieces 2 --dir " .. q(dir) .. " --rules " .. q(r))
      if not out:match("tables with up to 2 pieces") then return nil, out end
      local atlas = run("tb atlas --dir " .. q(dir) .. " --rules " .. q(r))
      local probe = run("tb probe '8/8/8/8/3k4/2K5/8/8 w' --dir " .. q(dir) .. " --rules " .. q(r))
      if not probe:match("^White to move: win in 1 ply\n") then return nil, out .. probe end
      local m = atlas:match("Rules: majority=(%a+)")
      return m and (m == "false" and "majority=false" or "golomb"), out .. atlas   -- majority only
    end,
    experiment = function(r, dir)
      -- laid over each variant's rules (the file's base: draw_repetition = 3)
      local out = run("experiment scripts/experiments/flying_kings.lua --games 0 --quiet --out " .. q(dir)
                      .. " --rules " .. q(r))
      local line = read(dir .. "/flying_kings.seed1.shard1of1.jsonl"):match("^[^\n]+")
      if not line then return nil, out end
      local v = require("cjson").decode(line).fingerprint.variants[1]
      assert.equal("short-kings@1", v.name)
      return rulespec.format(v.rules), out
    end,
  }
  local ORDER = { "rules", "repl", "match", "tournament", "mine", "tb", "experiment" }

  local dir, rulefile
  setup(function()
    dir = H.tmpdir()
    rulefile = dir .. "/no_majority.lua"
    local f = assert(io.open(rulefile, "w"))
    f:write("return { majority = false }\n")
    f:close()
  end)

  -- form -> the rules text it stands for
  local function forms()
    return {
      { "majority=false", "majority=false" },
      { "{majority=false}", "majority=false" },
      { rulefile, "majority=false" },
      { "scripts/experiments/majority.lua:majority-off", "draw_repetition=3 majority=false" },  -- its base
      { "golomb", "golomb" },
    }
  end

  for _, name in ipairs(ORDER) do
    it(name .. " takes text, a table literal, a rule file, a variant and a preset", function()
      for i, form in ipairs(forms()) do
        -- (in the REPL, `rules {...}` is Lua: a call of a global rules)
        if not (name == "repl" and form[1]:match("^{")) then
          local sub = dir .. "/" .. name .. i
          os.execute("mkdir -p " .. q(sub))
          local got, out = COMMANDS[name](form[1], sub)
          local want = form[2]
          if name == "tb" then want = form[2]:match("majority=false") or "golomb" end
          if name == "experiment" then
            want = form[2]:match("majority=false") and "draw_repetition=3 majority=false" or "draw_repetition=3"
          end
          assert.equal(want, got, name .. " --rules " .. form[1] .. ": " .. out)
        end
      end
    end)

    it(name .. " refuses bad rules text with the core's message", function()
      for _, bad in ipairs({
        { "majority=maybe", "majority must be true or false, not 'maybe'" },
        { "capture=jump", "capture must be one of 'mixed', 'jumps', 'all', 'optional', not 'jump' "
                          .. "(did you mean 'jumps'?)" },
        { "golmob", "unknown rules preset 'golmob' (did you mean 'golomb'?)" },
        { "draw_quiet_plies=99999999999999999999",
          "draw_quiet_plies must be a whole number from 0 to 65535, not 99999999999999999999" },
      }) do
        local got, out = COMMANDS[name](bad[1], dir .. "/bad")
        assert.is_nil(got, out)
        assert.matches(bad[2], out, 1, true)
        assert.is_nil(out:find("traceback", 1, true), out)
        assert.equal(1, select(2, out:gsub("\n", "")), "one line: " .. out)
      end
    end)
  end
end)

describe("rulespec.diff: how two rule sets differ in a position, for a script", function()
  -- White pawn a3 can jump b4, d6 (a3xc5xe7), pawn h2 only g3 (h2xf4): the
  -- majority rule keeps the 2-piece chain only; without it both are legal
  -- (docs/reference/rules.md, "Majority capture").
  local FEN = "7k/8/3p4/8/1p6/P5p1/7P/K7 w"

  it("finds the move and the perft counts the majority rule removes, printing nothing", function()
    local r = assert(rulespec.diff({ majority = true }, { majority = false }, FEN, 2, true))
    assert.same({ { "majority", true, false } }, r.options)
    assert.same({}, r.only_a)
    assert.same({ "h2xf4" }, r.only_b)
    assert.same({ 1, 2 }, r.count)
    assert.same({ 1, 1, 2 }, r.perft[1])
    assert.equal(1, r.first_diff)
    assert.is_true(r.differs)
  end)

  it("a rule set against itself: no difference; a bad position names its side", function()
    local r = assert(rulespec.diff("golomb", "golomb", nil, 2))
    assert.is_false(r.differs)
    assert.same({}, r.options)
    assert.is_nil(r.first_diff)
    local none, err = rulespec.diff("golomb", { majority = false }, "not a position")
    assert.is_nil(none)
    assert.matches("^A: ", err)
  end)
end)
