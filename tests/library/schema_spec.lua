-- tests/library/schema_spec.lua - cheskers.schema, the one checker of the tables
-- users write: every spec kind (what it accepts, what it refuses and the
-- words of the refusal), nesting and the names in messages, item names,
-- keys that are not texts, NaN and infinities, control bytes in echoed
-- values, and that a table is read raw (no metamethod runs).
-- The expected messages are written from the wording the header of
-- lua/cheskers/schema.lua promises ("NAME must be WHAT, not VALUE",
-- "unknown field 'x' (did you mean 'y'?)").
local S = require "cheskers.schema"

-- The message S.read gives (it must refuse).
local function refusal(value, spec, where)
  local v, err = S.read(value, spec, where)
  assert(v == nil and type(err) == "string", "accepted: " .. tostring(v))
  return err
end

describe("cheskers.schema: plain types", function()
  local ACCEPT = {
    -- value, spec
    { "x", "string" }, { "", "string" }, { 3, "integer" }, { -7, "integer" },
    { 2.5, "number" }, { 3, "number" }, { true, "boolean" }, { false, "boolean" },
    { print, "function" }, { {}, "table" }, { "anything", "any" }, { 0 / 0, "any" },
  }
  for _, row in ipairs(ACCEPT) do
    it("takes " .. tostring(row[1]) .. " as " .. row[2], function()
      local v = S.read(row[1], row[2], "x")
      assert.is_true(v == row[1] or v ~= v)
    end)
  end

  local REFUSE = {
    -- value, spec, message (where = "depth")
    { 3, "string", "depth must be a text, not 3" },
    { "3", "integer", "depth must be a whole number, not '3'" },
    { 2.5, "integer", "depth must be a whole number, not 2.5" },
    { 3.0, "integer", "depth must be a whole number, not 3.0" },
    { 0 / 0, "number", "depth must be a number, not nan" },
    { -(0 / 0), "number", "depth must be a number, not nan" },
    { math.huge, "number", "depth must be a number, not inf" },
    { -math.huge, "number", "depth must be a number, not -inf" },
    { "yes", "boolean", "depth must be true or false, not 'yes'" },
    { nil, "boolean", "depth must be true or false, not nil" },
    { {}, "function", "depth must be a function, not a table" },
    { print, "table", "depth must be a table, not a function" },
  }
  for _, row in ipairs(REFUSE) do
    it("refuses " .. S.show(row[1]) .. " as " .. row[2], function()
      assert.are.equal(row[3], refusal(row[1], row[2], "depth"))
    end)
  end

  it("says the message without a name for the outermost value", function()
    assert.are.equal("must be a text, not 3", refusal(3, "string"))
    assert.are.equal("must be a text, not 3", refusal(3, "string", ""))
  end)
end)

describe("cheskers.schema: ranges and choices", function()
  local ROWS = {
    -- spec, value, nil (accepted) or the message (where = "n")
    { S.int { min = 1, max = 10 }, 1 }, { S.int { min = 1, max = 10 }, 10 },
    { S.int { min = 1, max = 10 }, 0, "n must be a whole number from 1 to 10, not 0" },
    { S.int { min = 1, max = 10 }, 11, "n must be a whole number from 1 to 10, not 11" },
    { S.int { min = 1, max = 10 }, 5.5, "n must be a whole number from 1 to 10, not 5.5" },
    { S.int { min = 1 }, 0, "n must be a whole number >= 1, not 0" },
    { S.int { max = 3 }, 4, "n must be a whole number <= 3, not 4" },
    { S.int(), "x", "n must be a whole number, not 'x'" },
    { S.num { min = 0, max = 1 }, 0.5 },
    { S.num { min = 0, max = 1 }, 1.5, "n must be a number from 0 to 1, not 1.5" },
    { S.num { min = 0 }, 0 / 0, "n must be a number >= 0, not nan" },
    { S.num(), math.huge, "n must be a number, not inf" },
    { S.num { above = 0 }, 0.001 },
    { S.num { above = 0 }, 0, "n must be a number > 0, not 0" },
    { S.num { above = 0, max = 2 }, 3, "n must be a number > 0 and <= 2, not 3" },
    { S.int { above = 0 }, 0, "n must be a whole number > 0, not 0" },
    { S.one_of { "win" }, "win" },
    { S.one_of { "win" }, "draw", "n must be 'win', not 'draw'" },
    { S.one_of { "jumps", "all" }, "jump", "n must be 'jumps' or 'all', not 'jump' (did you mean 'jumps'?)" },
    { S.one_of { "a", "bb", "cc" }, "zzzz", "n must be one of 'a', 'bb', 'cc', not 'zzzz'" },
    { S.one_of { 1, 2, false }, false },
    { S.one_of { 1, 2 }, 3, "n must be 1 or 2, not 3" },
    { S.either("string", S.int { min = 1 }), 4 },
    { S.either("string", S.int { min = 1 }), 0, "n must be a text or a whole number >= 1, not 0" },
    { S.custom(function(v) return v % 2 == 0 and v or nil, "n is odd" end, "an even number"), 4 },
    { S.custom(function(v) return v % 2 == 0 and v or nil, "n is odd" end, "an even number"), 3, "n is odd" },
  }
  for i, row in ipairs(ROWS) do
    it(("row %d: %s"):format(i, row[3] or ("takes " .. S.show(row[2]))), function()
      if row[3] then
        assert.are.equal(row[3], refusal(row[2], row[1], "n"))
      else
        assert.are.equal(row[2], S.read(row[2], row[1], "n"))
      end
    end)
  end

  it("gives a false that fits (not a refusal)", function()
    local v, err = S.read(false, S.either("string", "boolean"), "x")
    assert.is_false(v)
    assert.is_nil(err)
  end)
end)

describe("cheskers.schema: records", function()
  local R = S.record { fields = { rules = "any", name = "string", moves = S.int { min = 1 } },
                       required = { "name" } }

  it("takes the declared fields and gives a new table of them", function()
    local t = { name = "a", moves = 2 }
    local v = S.check(t, R, "v")
    assert.are.same({ name = "a", moves = 2 }, v)
    assert.are_not.equal(t, v)
  end)

  it("names an unknown field with the nearest known one, or all of them", function()
    assert.are.equal("variant 2: unknown field 'rule' (did you mean 'rules'?)",
                     refusal({ name = "a", rule = 1 }, R, "variant 2"))
    assert.are.equal("unknown field 'zzzzzz' (known: moves, name, rules)", refusal({ name = "a", zzzzzz = 1 }, R))
  end)

  it("names the first unknown field in byte order, whatever the table's order", function()
    for _ = 1, 5 do
      assert.are.equal("unknown field 'aaa' (known: moves, name, rules)",
                       refusal({ name = "a", zzz = 1, aaa = 2, mmm = 3 }, R))
    end
  end)

  it("says which required field is missing", function()
    assert.are.equal("x: field 'name' is missing", refusal({ moves = 1 }, R, "x"))
  end)

  it("says where a bad value is: the record's name, then the field's", function()
    assert.are.equal("puzzle 3 ('Two kings'): moves must be a whole number >= 1, not 0",
                     refusal({ name = "a", moves = 0 }, R, "puzzle 3 ('Two kings')"))
    assert.are.equal("moves must be a whole number >= 1, not 0", refusal({ name = "a", moves = 0 }, R))
  end)

  it("refuses keys that are not texts, showing the key", function()
    assert.are.equal("x: field names must be texts, not 1", refusal({ "a", name = "b" }, R, "x"))
    assert.are.equal("x: field names must be texts, not true", refusal({ [true] = 1 }, R, "x"))
  end)

  it("says options, not fields, when its noun is option", function()
    local O = S.record { noun = "option", fields = { depth = "integer" }, required = { "depth" } }
    assert.are.equal("search: unknown option 'dept' (did you mean 'depth'?)", refusal({ dept = 1 }, O, "search"))
    assert.are.equal("search: option 'depth' is missing", refusal({}, O, "search"))
    assert.are.equal("search: option names must be texts, not 1", refusal({ 5 }, O, "search"))
  end)

  it("is 'a table' in words, or its own words", function()
    assert.are.equal("x must be a table, not 5", refusal(5, R, "x"))
    local W = S.record { what = "a table of options", fields = {} }
    assert.are.equal("x must be a table of options, not 'a'", refusal("a", W, "x"))
    assert.are.same({ "moves", "name", "rules" }, S.fields(R))
  end)
end)

describe("cheskers.schema: lists and maps", function()
  it("takes a list and names a bad item by its place", function()
    local L = S.list("string")
    assert.are.same({ "a", "b" }, S.read({ "a", "b" }, L, "tags"))
    assert.are.equal("tags: item 2 must be a text, not 5", refusal({ "a", 5 }, L, "tags"))
    assert.are.equal("tags must be a list of texts, not 'x'", refusal("x", L, "tags"))
  end)

  it("names items with item(i, value) in place of the list's name", function()
    local V = S.record { fields = { variants = S.list(S.record { fields = { rules = "any", name = "any" } }, {
      item = function(i, v) return ("variant %d (%s)"):format(i, S.show(v.name)) end }) } }
    assert.are.equal("variant 2 ('backward'): unknown field 'rule' (did you mean 'rules'?)",
                     refusal({ variants = { { name = "a" }, { name = "backward", rule = 1 } } }, V))
    assert.are.equal("e.lua: variant 1 (3): unknown field 'x' (known: name, rules)",
                     refusal({ variants = { { name = 3, x = 1 } } }, V, "e.lua"))
  end)

  it("refuses keys that do not make a list, and too few items", function()
    local L = S.list("any", { min = 2 })
    assert.are.equal("l must be a list (keys 1, 2, ...), not a table with the key 'x'", refusal({ 1, 2, x = 3 }, L, "l"))
    assert.are.equal("l must be a list (keys 1, 2, ...), not a table with the key 4", refusal({ 1, 2, [4] = 3 }, L, "l"))
    assert.are.equal("f: l must be a list (keys 1, 2, ...), not a table with the key 1.5",
                     refusal({ [1.5] = 1 }, L, "f: l"))
    assert.are.equal("l needs at least 2 items", refusal({ 1 }, L, "l"))
  end)

  it("words what its items may be in the plural", function()
    local ROWS = {
      { S.list("boolean"), "a list of true or false values" },
      { S.list(S.int { min = 1 }), "a list of whole numbers >= 1" },
      { S.map(S.either("string", "number")), "a table of names to texts or numbers" },
      { S.list(S.one_of { "a", "b" }), "a list of values 'a' or 'b'" },
      { S.list(S.record { fields = {} }), "a list of tables" },
      { S.list(S.list("string")), "a list of lists" },
    }
    for _, row in ipairs(ROWS) do
      assert.are.equal("x must be " .. row[2] .. ", not 3", refusal(3, row[1], "x"))
    end
  end)

  it("has its own words when given", function()
    assert.are.equal("h must be a list of squares, not 3", refusal(3, S.list("any", { what = "a list of squares" }), "h"))
    assert.are.equal("h must be a list of values, not 3", refusal(3, S.list("any"), "h"))
  end)

  it("takes a map of names and refuses keys that are not texts", function()
    local M = S.map(S.int())
    assert.are.same({ a = 1, b = 2 }, S.read({ a = 1, b = 2 }, M, "w"))
    assert.are.equal("w: b must be a whole number, not 'x'", refusal({ a = 1, b = "x" }, M, "w"))
    assert.are.equal("w: names must be texts, not 1", refusal({ 5 }, M, "w"))
    assert.are.equal("w must be a table of names to whole numbers, not 5", refusal(5, M, "w"))
  end)

  it("reads nested tables, the names in messages joined by ': '", function()
    local N = S.record { fields = { a = S.record { fields = { b = S.map(S.list(S.one_of { "left", "right" })) } } } }
    assert.are.equal("f: a: b: k: item 2 must be 'left' or 'right', not 'zzzz'",
                     refusal({ a = { b = { k = { "left", "zzzz" } } } }, N, "f"))
  end)

  it("gives a table the message of its table spec inside either", function()
    local E = S.either("string", S.record { fields = { type = "string", min = "number" } })
    assert.are.equal("o: unknown field 'mn' (did you mean 'min'?)", refusal({ type = "integer", mn = 1 }, E, "o"))
    assert.are.equal("o must be a text or a table, not 5", refusal(5, E, "o"))
  end)
end)

describe("cheskers.schema: echoed values", function()
  it("quotes texts, escaping control bytes, quotes and backslashes, and clips long ones", function()
    assert.are.equal("'a\\nb'", S.show("a\nb"))
    assert.are.equal("'\\x1b[31m'", S.show("\27[31m"))
    assert.are.equal("'it\\'s'", S.show("it's"))
    assert.are.equal("'a\\\\b'", S.show("a\\b"))
    assert.are.equal("'\\x00'", S.show("\0"))
    local long = S.show(("x"):rep(100))
    assert.are.equal("'" .. ("x"):rep(40) .. "...'", long)
  end)

  it("puts no raw control byte into a message", function()
    local err = refusal({ ["\27]0;pwned\7"] = 1 }, S.record { fields = { name = "any" } }, "t")
    assert.is_nil(err:find("[%c]"), err)
    err = refusal("\1\2\n", "integer", "n")
    assert.are.equal("n must be a whole number, not '\\x01\\x02\\n'", err)
  end)

  it("shows numbers as written, other values by their type", function()
    assert.are.equal("3", S.show(3))
    assert.are.equal("2.5", S.show(2.5))
    assert.are.equal("nan", S.show(0 / 0))
    assert.are.equal("inf", S.show(math.huge))
    assert.are.equal("-inf", S.show(-math.huge))
    assert.are.equal("true", S.show(true))
    assert.are.equal("a table", S.show({}))
    assert.are.equal("a function", S.show(print))
  end)
end)

describe("cheskers.schema: raw reading", function()
  it("runs no metamethod of the table it reads", function()
    local ran = false
    local function mark() ran = true end
    local mt = { __index = mark, __pairs = function() mark() return next, {}, nil end,
                 __len = function() mark() return 0 end }
    local R = S.record { fields = { a = "integer", b = S.list("integer") } }
    local t = setmetatable({ a = 1, b = setmetatable({ 1, 2 }, mt) }, mt)
    assert.are.same({ a = 1, b = { 1, 2 } }, S.read(t, R, "t"))
    assert.are.equal("t: unknown field 'ccc' (known: a, b)", refusal(setmetatable({ ccc = 1 }, mt), R, "t"))
    assert.is_false(ran)
  end)
end)

describe("cheskers.schema: check", function()
  it("raises the message alone (no position), and returns the value", function()
    local ok, err = pcall(S.check, { x = 1 }, S.record { fields = { y = "any" } }, "t")
    assert.is_false(ok)
    assert.are.equal("t: unknown field 'x' (did you mean 'y'?)", err)
    assert.are.same({ y = 2 }, S.check({ y = 2 }, S.record { fields = { y = "any" } }))
  end)
end)
