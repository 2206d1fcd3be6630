-- cheskers.schema - the one checker of the tables users write (experiment
-- files, puzzle files, bot options, option tables of the Lua API). A schema
-- is data, declared once beside its reader; a field nobody declared is an
-- error naming where it is and the nearest known name, and a wrong value is
-- echoed with what is allowed:
--   variant 2 ('backward'): unknown field 'rule' (did you mean 'rules'?)
--   rules: majority must be true or false, not 'maybe'
--
-- Specs (what a value may be):
--   "string", "integer", "number", "boolean", "function", "table", "any"
--   S.int{min = 1, max = 10}       a whole number in a range (either bound optional)
--   S.num{min = 0, max = 1}        a number in a range, finite; above = 0: > 0
--                                  (an open bound, for both kinds)
--   S.one_of{"a", "b", ...}        one of these values
--   S.list(spec, {min = 1, item = fn})  a list (keys 1..n) of values of spec;
--                                  item(i, value) names an item in messages
--                                  in place of the list's name ("variant 2
--                                  ('backward')"; default "<list>: item 2");
--                                  what = its words ("a list of squares")
--   S.map(spec)                    a table of string keys to values of spec
--   S.record{fields = {name = spec, ...}, required = {"name", ...}}
--                                  a table with these fields and no others;
--                                  noun = "option": "unknown option 'x'"
--                                  (default "field"); what = its words in
--                                  "must be WHAT, not ..." (default "a table")
--   S.either(spec, spec, ...)      the first spec the value fits; when none
--                                  does, a table is judged by the one table
--                                  spec among them (its own message, as
--                                  "unknown field"), and a text gets "did you
--                                  mean" from the texts of their one_ofs
--   S.test(fn, "what it allows")   a value for which fn(value) is true; else
--                                  "NAME must be <what it allows>, not VALUE"
--   S.custom(fn, "what it allows") fn(value, where) -> value | nil, message
--
--   S.check(value, spec, where) -> value (the normalised value) | raises the
--     message (level 0: no file:line)
--   S.read(value, spec, where)  -> value | nil, message
--   S.show(value)               -> a value as messages echo it ('maybe', 12, a table)
--   S.fields(record)            -> the sorted field names of a record spec
--
-- Tables are read raw (next, rawlen, rawget): no metamethod of the value
-- runs, so a table from a sandboxed box can be checked outside the box.
-- Inside a box (b:svg's options) the string methods are the box's, which
-- have no patterns: gsub and match are called as functions here.
local cheskers = require "cheskers"
local escape = require "cheskers.escape"

local S = {}

local function is_spec(v) return type(v) == "table" and v.kind ~= nil end

-- A value as messages show it: strings quoted (\' and \\ inside), clipped,
-- and made safe for the console by cheskers.escape.console (control bytes
-- as \n or \xHH); numbers as written; anything else by its type.
function S.show(v)
  local t = type(v)
  if t == "string" then
    local s = v
    if #s > 40 then s = string.sub(s, 1, 40) .. "..." end
    s = escape.console((string.gsub(s, "['\\]", "\\%0")))
    return "'" .. s .. "'"
  elseif t == "number" then
    if v ~= v then return "nan" end
    return tostring(v)
  elseif t == "boolean" or t == "nil" then
    return tostring(v)
  end
  return "a " .. t
end

-- "where: " or "" for the outermost value.
local function at(where) return (where and where ~= "") and (where .. ": ") or "" end

local function fail(where, fmt, ...)
  return nil, at(where) .. fmt:format(...)
end

-- ---- constructors -------------------------------------------------------------

function S.int(o) o = o or {} return { kind = "int", min = o.min, max = o.max, above = o.above } end
function S.num(o) o = o or {} return { kind = "num", min = o.min, max = o.max, above = o.above } end
function S.one_of(values) return { kind = "one_of", values = values } end
function S.list(spec, o) o = o or {} return { kind = "list", of = spec, min = o.min, item = o.item, what = o.what } end
function S.map(spec) return { kind = "map", of = spec } end
function S.either(...) return { kind = "either", specs = { ... } } end
function S.custom(fn, what) return { kind = "custom", fn = fn, what = what } end
function S.test(fn, what) return { kind = "test", fn = fn, what = what } end
function S.record(o)
  local names = {}
  for k in pairs(o.fields) do names[#names + 1] = k end
  table.sort(names)
  local req = {}
  for _, k in ipairs(o.required or {}) do req[k] = true end
  return { kind = "record", fields = o.fields, names = names, required = o.required or {},
           is_required = req, what = o.what, noun = o.noun or "field" }
end

function S.fields(record) return record.names end

-- ---- what a spec allows, in words ------------------------------------------------

local TYPE_WORDS = {
  string = "a text", integer = "a whole number", number = "a number",
  boolean = "true or false", ["function"] = "a function", table = "a table", any = "a value",
}

local function range_words(noun, s)
  if s.above and s.max then return ("%s > %s and <= %s"):format(noun, s.above, s.max) end
  if s.above then return ("%s > %s"):format(noun, s.above) end
  if s.min and s.max then return ("%s from %s to %s"):format(noun, s.min, s.max) end
  if s.min then return ("%s >= %s"):format(noun, s.min) end
  if s.max then return ("%s <= %s"):format(noun, s.max) end
  return noun
end

-- The same for the items of a list or map: "texts", "whole numbers >= 1".
local PLURAL_WORDS = {
  string = "texts", integer = "whole numbers", number = "numbers", boolean = "true or false values",
  ["function"] = "functions", table = "tables", any = "values",
}

local allowed

local function plural(spec)
  if type(spec) == "string" then return PLURAL_WORDS[spec] or spec end
  local k = spec.kind
  if k == "int" then return range_words("whole numbers", spec) end
  if k == "num" then return range_words("numbers", spec) end
  if k == "either" then
    local t = {}
    for i, s in ipairs(spec.specs) do t[i] = plural(s) end
    return table.concat(t, " or ")
  end
  if k == "one_of" then return "values " .. string.gsub(allowed(spec), "^one of ", "") end
  if k == "list" then return "lists" end
  if k == "map" or k == "record" then return "tables" end
  return string.gsub(spec.what or "a valid value", "^an? ", "") .. "s"
end

function allowed(spec)
  if type(spec) == "string" then return TYPE_WORDS[spec] or spec end
  local k = spec.kind
  if k == "int" then return range_words("a whole number", spec) end
  if k == "num" then return range_words("a number", spec) end
  if k == "one_of" then
    local t = {}
    for i, v in ipairs(spec.values) do t[i] = type(v) == "string" and ("'" .. v .. "'") or tostring(v) end
    if #t == 1 then return t[1] end
    if #t == 2 then return t[1] .. " or " .. t[2] end
    return "one of " .. table.concat(t, ", ")
  end
  if k == "list" then return spec.what or "a list of " .. plural(spec.of) end
  if k == "map" then return "a table of names to " .. plural(spec.of) end
  if k == "record" then return spec.what or "a table" end
  if k == "either" then
    local t = {}
    for i, s in ipairs(spec.specs) do t[i] = allowed(s) end
    return table.concat(t, " or ")
  end
  return spec.what or "a valid value"
end
S.allowed = allowed

-- ---- checking --------------------------------------------------------------------

local function field_where(where, name)
  return (where and where ~= "") and (where .. ": " .. name) or name
end

local read

-- The kinds of spec a table can fit, whose own message says more than
-- "must be A or B, not a table" (an unknown field inside, a bad item).
local TABLE_KINDS = { list = true, map = true, record = true }

-- "name TEXT" with where split into its prefix and last name ("a: b:
-- moves" -> "a: b: moves must be ..."), or TEXT alone.
local function said_of(where, text)
  local prefix, name = string.match(where or "", "^(.*): ([^:]+)$")
  if not prefix then prefix, name = nil, where end
  if name and name ~= "" then return fail(prefix, "%s %s", name, text) end
  return nil, text
end

-- "name must be X, not Y".
local function wrong(where, spec, v)
  return said_of(where, ("must be %s, not %s"):format(allowed(spec), S.show(v)))
end

local function in_range(s, v)
  return (not s.min or v >= s.min) and (not s.max or v <= s.max) and (not s.above or v > s.above)
end

-- The message of a value no spec of an either fits: a table's from the one
-- table spec there is (so that "unknown field 'x'" is not lost), else
-- "NAME must be A or B, not VALUE", with "did you mean" for a text near a
-- one_of's text.
local function either_failed(v, spec, where)
  if type(v) == "table" then
    local only
    for _, s in ipairs(spec.specs) do
      if type(s) == "table" and TABLE_KINDS[s.kind] then
        if only then only = false break end
        only = s
      end
    end
    if only then return read(v, only, where) end
  end
  local _, err = wrong(where, spec, v)
  if type(v) == "string" then
    local texts = {}
    for _, s in ipairs(spec.specs) do
      if type(s) == "table" and s.kind == "one_of" then
        for _, x in ipairs(s.values) do if type(x) == "string" then texts[#texts + 1] = x end end
      end
    end
    err = err .. cheskers.did_you_mean(v, texts)
  end
  return nil, err
end

local function read_record(v, spec, where)
  if type(v) ~= "table" then return wrong(where, spec, v) end
  local unknown
  for k in next, v do
    if type(k) ~= "string" then
      return fail(where, "%s names must be texts, not %s", spec.noun, S.show(k))
    end
    if spec.fields[k] == nil and (unknown == nil or k < unknown) then unknown = k end
  end
  if unknown then
    local hint = cheskers.did_you_mean(unknown, spec.names)
    if hint == "" then hint = " (known: " .. table.concat(spec.names, ", ") .. ")" end
    return fail(where, "unknown %s %s%s", spec.noun, S.show(unknown), hint)
  end
  for _, k in ipairs(spec.required) do
    if rawget(v, k) == nil then return fail(where, "%s '%s' is missing", spec.noun, k) end
  end
  local out = {}
  for _, k in ipairs(spec.names) do
    local x = rawget(v, k)
    if x ~= nil then
      local err
      x, err = read(x, spec.fields[k], field_where(where, k))
      if x == nil and err then return nil, err end
      out[k] = x
    end
  end
  return out
end

local function read_list(v, spec, where)
  if type(v) ~= "table" then return wrong(where, spec, v) end
  local n = rawlen(v)
  for k in next, v do
    if math.type(k) ~= "integer" or k < 1 or k > n then
      return said_of(where, ("must be a list (keys 1, 2, ...), not a table with the key %s"):format(S.show(k)))
    end
  end
  if spec.min and n < spec.min then
    return said_of(where, ("needs at least %d item%s"):format(spec.min, spec.min == 1 and "" or "s"))
  end
  local out = {}
  for i = 1, n do
    local iw
    local x = rawget(v, i)
    if spec.item then   -- "variant 2 ('a')" stands for the list's own name
      iw = field_where(string.match(where or "", "^(.*): [^:]+$"), spec.item(i, x))
    else
      iw = field_where(where, "item " .. i)
    end
    local err
    x, err = read(x, spec.of, iw)
    if x == nil and err then return nil, err end
    out[i] = x
  end
  return out
end

local function read_map(v, spec, where)
  if type(v) ~= "table" then return wrong(where, spec, v) end
  local out = {}
  for k, x in next, v do
    if type(k) ~= "string" then return fail(where, "names must be texts, not %s", S.show(k)) end
    local y, err = read(x, spec.of, field_where(where, k))
    if y == nil and err then return nil, err end
    out[k] = y
  end
  return out
end

function read(v, spec, where)
  if type(spec) == "string" then
    if spec == "any" then return v end
    local ok
    if spec == "integer" then ok = math.type(v) == "integer"
    elseif spec == "number" then ok = type(v) == "number" and v == v and v > -math.huge and v < math.huge
    else ok = type(v) == spec end
    if ok then return v end
    return wrong(where, spec, v)
  end
  assert(is_spec(spec), "schema: not a spec")
  local k = spec.kind
  if k == "int" then
    if math.type(v) == "integer" and in_range(spec, v) then return v end
    return wrong(where, spec, v)
  elseif k == "num" then
    if type(v) == "number" and v == v and v > -math.huge and v < math.huge and in_range(spec, v) then return v end
    return wrong(where, spec, v)
  elseif k == "one_of" then
    for _, x in ipairs(spec.values) do if x == v then return v end end
    local strings = {}
    for _, x in ipairs(spec.values) do if type(x) == "string" then strings[#strings + 1] = x end end
    local prefix, name = string.match(where or "", "^(.*): ([^:]+)$")
    if not prefix then prefix, name = nil, where end
    local hint = type(v) == "string" and cheskers.did_you_mean(v, strings) or ""
    return fail(prefix, "%s must be %s, not %s%s", name or "value", allowed(spec), S.show(v), hint)
  elseif k == "list" then return read_list(v, spec, where)
  elseif k == "map" then return read_map(v, spec, where)
  elseif k == "record" then return read_record(v, spec, where)
  elseif k == "either" then
    for _, s in ipairs(spec.specs) do
      local x = read(v, s, where)
      if x ~= nil then return x end
    end
    return either_failed(v, spec, where)
  elseif k == "test" then
    if spec.fn(v) then return v end
    return wrong(where, spec, v)
  elseif k == "custom" then
    local x, err = spec.fn(v, where)
    if x == nil and err then return nil, err end
    return x
  end
  error("schema: unknown spec kind " .. tostring(k))
end

function S.read(value, spec, where)
  return read(value, spec, where)
end

function S.check(value, spec, where)
  local v, err = read(value, spec, where)
  if v == nil and err then
    error(err, 0)
  end
  return v
end

return S
