-- tests/binding/annotations_spec.lua - the editor annotations
-- (lua/cheskers/meta/cheskers.lua) and the reference (docs/reference/lua_api.md) against
-- the module as it runs: every function and name the module exports (the
-- module table, the board methods, cheskers.engine, cheskers.tb, the fields a
-- move object answers) is annotated and documented, and nothing is annotated
-- or documented that does not exist.
local cheskers = require "cheskers"
local H = require "helpers"

local function read(rel)
  return assert(H.read_file(H.ROOT .. "/" .. rel), rel)
end

local META = read("lua/cheskers/meta/cheskers.lua")
local DOCS = read("docs/reference/lua_api.md")

-- The sorted names of a set, for messages and comparisons.
local function sorted(set)
  local list = {}
  for k in pairs(set) do list[#list + 1] = k end
  table.sort(list)
  return list
end

-- The keys of a table (functions and values alike).
local function keys(t)
  local s = {}
  for k in pairs(t) do s[k] = true end
  return s
end

-- ---- what the annotations say -------------------------------------------------

-- The names of the functions `function PREFIX NAME(` defines (prefix
-- "cheskers.", "Board:", ...).
local function annotated_functions(prefix)
  local s = {}
  local pat = "\nfunction " .. prefix:gsub("%p", "%%%0") .. "([%w_]+)%("
  for name in META:gmatch(pat) do s[name] = true end
  return s
end

-- The ---@field names of the class named class (the lines that follow its
-- ---@class line, up to the first line that is no annotation).
local function annotated_fields(class)
  local s = {}
  local start = META:find("\n%-%-%-@class " .. class:gsub("%p", "%%%0") .. "\n")
  assert(start, "no ---@class " .. class)
  local pos = META:find("\n", start + 1) + 1
  while true do
    local line = META:match("^([^\n]*)\n", pos)
    if not line or not line:match("^%-%-%-") then break end
    local name = line:match("^%-%-%-@field ([%w_]+)")
    if name then s[name] = true end
    pos = pos + #line + 1
  end
  return s
end

local function union(a, b)
  local s = {}
  for k in pairs(a) do s[k] = true end
  for k in pairs(b) do s[k] = true end
  return s
end

-- ---- what the module has ----------------------------------------------------------

-- The module's names: its own keys and the modules it loads on first use.
local function module_names()
  local s = keys(cheskers)
  for _, lazy in ipairs({ "puzzle", "svg" }) do
    if cheskers[lazy] ~= nil then s[lazy] = true end
  end
  return s
end

local function board_methods()
  return keys(getmetatable(cheskers.new()).__index)
end

-- The fields a move object answers: the names lua/binding/lmove.c's move_index
-- compares the key with. A move's fields cannot be listed from Lua (its
-- __index is a C function), so the list is read from the source, and each
-- name is checked below to give a value on some move.
local function move_fields()
  local s = {}
  local src = read("lua/binding/lmove.c")
  local body = src:match("static int move_index%(lua_State %*L%)(.-)\n}\n")
  assert(body, "move_index not found in lua/binding/lmove.c")
  for name in body:gmatch('IS%(key, len, "([%w_]+)"%)') do s[name] = true end
  return s
end

-- Moves that between them give every field a value: a chain of captures, a
-- promotion, a take (tests/binding/binding_spec.lua's positions, from docs/reference/rules.md).
local function sample_moves()
  local list = {}
  for _, fen in ipairs({
    "7k/8/5p2/8/3p4/2P5/8/6K1 w 0 1",     -- c3xe5xg7
    "7k/P7/8/8/8/8/8/6K1 w 0 1",           -- a7-b8=K ...
    "7k/8/8/8/3p4/8/8/4C1K1 w 0 1",        -- e1xd4 (a take)
  }) do
    for _, m in ipairs(cheskers.new(fen):moves()) do list[#list + 1] = m end
  end
  return list
end

-- ---- what the reference says ---------------------------------------------------------

local function documented(pattern)
  local s = {}
  for name in DOCS:gmatch(pattern) do s[name] = true end
  return s
end

-- The `cheskers.NAME` the reference names as part of the module (not in a
-- require string, not cheskers.so or cheskers.engine.X, which are checked
-- on their own).
local function documented_module_names()
  local s = {}
  for before, name in DOCS:gmatch("(.)cheskers%.([%w_]+)") do
    if before ~= '"' and before ~= "/" and name ~= "so" then s[name] = true end
  end
  return s
end

-- The section of the reference under a "## title" heading.
local function section(title)
  local body = DOCS:match("\n## " .. title .. "\n(.-)\n## ")
  assert(body, "no section " .. title)
  return body
end

local function assert_same_sets(expected, got, what)
  local missing, extra = {}, {}
  for k in pairs(expected) do if not got[k] then missing[#missing + 1] = k end end
  for k in pairs(got) do if not expected[k] then extra[#extra + 1] = k end end
  table.sort(missing)
  table.sort(extra)
  assert(#missing == 0 and #extra == 0,
         ("%s: missing %s; not existing %s"):format(what, table.concat(missing, ", "),
                                                   table.concat(extra, ", ")))
end

local function assert_subset(small, big, what)
  local extra = {}
  for k in pairs(small) do if not big[k] then extra[#extra + 1] = k end end
  table.sort(extra)
  assert(#extra == 0, what .. ": " .. table.concat(extra, ", "))
end

describe("the annotations (lua/cheskers/meta/cheskers.lua)", function()

  it("is a LuaLS definition file that loads as Lua", function()
    assert.truthy(META:match("^%-%-%-@meta"))
    assert.is_function(load(META, "=meta"))
  end)

  it("annotate exactly the module's names", function()
    local have = module_names()
    local annotated = union(annotated_functions("cheskers."), annotated_fields("cheskers"))
    assert_same_sets(have, annotated, "module")
  end)

  it("annotate exactly the board methods", function()
    assert_same_sets(board_methods(), annotated_functions("Board:"), "board methods")
  end)

  it("annotate exactly the fields a move answers", function()
    local fields = move_fields()
    assert.is_true(#sorted(fields) >= 13)
    assert_same_sets(fields, annotated_fields("Move"), "move fields")
  end)

  it("annotate exactly cheskers.engine and cheskers.tb", function()
    assert_same_sets(keys(cheskers.engine),
                     union(annotated_functions("engine."), annotated_fields("cheskers.engine")),
                     "cheskers.engine")
    assert_same_sets(keys(cheskers.tb), union(annotated_functions("tb."), annotated_fields("cheskers.tb")),
                     "cheskers.tb")
  end)

  it("annotate the methods of a tables object that the binding registers", function()
    local src = read("lua/binding/ltb.c")
    local body = src:match("dir_methods%[%] = {(.-)};") or src:match("{\"probe\", dir_probe}.-NULL")
    assert(body, "the tables object's methods not found in lua/binding/ltb.c")
    local have = {}
    for name in body:gmatch('{"([%w_]+)", dir_') do have[name] = true end
    assert_same_sets(have, annotated_functions("Tables:"), "tables methods")
  end)
end)

describe("the move fields", function()
  it("each give a value on some move, and an unknown field gives nil", function()
    local moves = sample_moves()
    for name in pairs(move_fields()) do
      local seen = false
      for _, m in ipairs(moves) do
        if m[name] ~= nil then seen = true end
      end
      assert(seen, "no move has a value for field " .. name)
    end
    assert.is_nil(moves[1].no_such_field)
  end)
end)

describe("the reference (docs/reference/lua_api.md)", function()

  it("documents every module name and only those", function()
    local have = module_names()
    local docs = documented_module_names()
    assert_subset(have, docs, "not documented")
    -- a documented name is the module's, or a submodule that loads
    for name in pairs(docs) do
      local ok = have[name] or pcall(require, "cheskers." .. name)
      assert(ok, "documented but not existing: cheskers." .. name)
    end
  end)

  it("documents every board method and only those", function()
    assert_same_sets(board_methods(), documented("%f[%w_]b:([%w_]+)[%(%{]"), "board methods")
  end)

  it("documents every move field and only those", function()
    local body = section("Move objects")
    local docs = {}
    for name in body:gmatch("`m%.([%w_]+)") do docs[name] = true end
    for name in body:gmatch("`([%w_]+)`") do
      if move_fields()[name] then docs[name] = true end
    end
    assert_same_sets(move_fields(), docs, "move fields")
    -- and every m.NAME the whole page uses exists
    assert_subset(documented("%f[%w_]m%.([%w_]+)"), move_fields(), "documented move fields that do not exist")
  end)

  it("documents every name of cheskers.engine and cheskers.tb and only those", function()
    assert_same_sets(keys(cheskers.engine), documented("cheskers%.engine%.([%w_]+)"), "cheskers.engine")
    assert_same_sets(keys(cheskers.tb), documented("cheskers%.tb%.([%w_]+)"), "cheskers.tb")
  end)
end)
