-- cheskers.rulespec - rule sets as text: THE one reader and writer, for
-- every entry point (the [Rules] tag of game records, the REPL's `rules`
-- command, --rules of match and experiment, `rules diff/show`).
--
-- The text of a rule set (read by parse_text, written by format):
--   golomb                              a preset name
--   majority=false capture=jumps        options that differ (spaces or commas
--                                       between); true/false are booleans,
--                                       whole numbers integers, else text
--   start='7k/8/8/8/8/8/8/K7 w 0 1'     'quoted' or "quoted" values hold spaces
--   pieces={C={leaps={{1,5}}}}          a {...} value is a data literal (read
--                                       by cheskers.sandbox.load_data)
-- Option names are the core's (the keys of cheskers.rules(), plus start and
-- pieces, which have no default); an unknown one gets "did you mean".
-- Hooks (filter, result) cannot be written as text: they come from rule files.
--
-- A rule spec on a command line (parse) is that text, or also:
--   a Lua table literal    "{promote='K', pieces={C={leaps={{1,5}}}}}" (data only)
--   a rule file            rules/camel15.lua   (a Lua file returning a rule
--                          table; ends in .lua; trusted: it may hold hooks)
--   an experiment variant  scripts/experiments/camel.lua:camel-1-5
--
--   M.parse(spec)       -> rules (a preset name or a table) | nil, message
--   M.parse_text(text)  -> the same, for untrusted text (no files)
--   M.format(rules)     -> the shortest text: "golomb", else the options that differ
--   M.equal(a, b)       -> whether two rule specs make the same rule set
--   M.same_value(a, b)  -> whether two option values are the same (deeply)
--   M.value_text(v)     -> an option value as the text writes it
--   M.option_names()    -> the sorted option names
--   M.compose(base, spec) -> the rule table of spec laid over base | nil, message
--
-- Composition, the one rule for every place that layers rules (experiment
-- variants over base, --rules over a file's rules): start from base (a rule
-- table or nil), lay over it what the preset sets (a preset is what it
-- changes from the defaults: golomb changes nothing), then the spec's own
-- settings. So with base = {draw_repetition = 3}, "golomb" gives
-- draw_repetition = 3, and {majority = false} gives majority = false and
-- draw_repetition = 3. spec: nil, a preset name, rules text or a table.
local cheskers = require "cheskers"
local sandbox = require "cheskers.sandbox"

local M = {}

-- Options with no default value (absent from cheskers.rules()).
local NO_DEFAULT = { "start", "pieces" }

function M.option_names()
  local names = {}
  for k in pairs(cheskers.rules()) do names[#names + 1] = k end
  for _, k in ipairs(NO_DEFAULT) do names[#names + 1] = k end
  table.sort(names)
  return names
end

-- ---- did you mean ---------------------------------------------------------------

-- " (did you mean 'x'?)" for the nearest of names (cheskers.closest), or "".
function M.suggest(word, names)
  local best = cheskers.closest(word, names)
  return best and (" (did you mean '" .. best .. "'?)") or ""
end

-- ---- reading --------------------------------------------------------------------

-- "true" -> true, "12" -> 12, anything else the text itself.
local function bare_value(v)
  if v == "true" then return true end
  if v == "false" then return false end
  if v:match("^%-?%d+$") then return math.tointeger(tonumber(v)) end
  return v
end

-- The end of the balanced {...} starting at i (quoted strings skipped), or nil.
local function brace_end(text, i)
  local depth = 0
  while i <= #text do
    local c = text:sub(i, i)
    if c == "'" or c == '"' then
      local e = text:find(c, i + 1, true)
      if not e then return nil end
      i = e
    elseif c == "{" then depth = depth + 1
    elseif c == "}" then
      depth = depth - 1
      if depth == 0 then return i end
    end
    i = i + 1
  end
  return nil
end

-- Reads the value starting at pos: value, next position | nil, message.
local function read_value(text, pos, name)
  local q = text:sub(pos, pos)
  if q == "'" or q == '"' then
    local e = text:find(q, pos + 1, true)
    if not e then return nil, "rule option '" .. name .. "': the quote " .. q .. " is not closed" end
    return text:sub(pos + 1, e - 1), e + 1
  elseif q == "{" then
    local e = brace_end(text, pos)
    if not e then return nil, "rule option '" .. name .. "': the { is not closed" end
    local v, err = sandbox.load_data("return " .. text:sub(pos, e), "rule option '" .. name .. "'")
    if v == nil then return nil, err end
    return v, e + 1
  end
  local v = text:match("^[^%s,]+", pos)
  if not v then return nil, "rule option '" .. name .. "' has no value after =" end
  return bare_value(v), pos + #v
end

-- The message for a word that is not name=value.
local function not_an_option(word, names, text)
  local default = cheskers.rules()[word]
  if type(default) == "boolean" then
    return ("rule option '%s' is not written name=value: write %s=true or %s=false"):format(word, word, word)
  elseif default ~= nil then
    return ("rule option '%s' is not written name=value: write %s=%s, for example"):format(
      word, word, tostring(default))
  end
  for _, n in ipairs(names) do
    if n == word then return ("rule option '%s' is not written name=value: write %s=..."):format(word, word) end
  end
  return ("cannot read rule spec '%s': '%s' is not written name=value%s"):format(
    sandbox.truncate(text, 80), sandbox.truncate(word, 40), M.suggest(word, names))
end

-- "a=1 b='x y'" -> {a = 1, b = "x y"}, or nil, message.
local function parse_options(text)
  local names, known = M.option_names(), {}
  for _, n in ipairs(names) do known[n] = true end
  local t, pos = {}, 1
  while true do
    pos = text:match("^[%s,]*()", pos)
    if pos > #text then break end
    local name, npos = text:match("^([%a_][%w_]*)%s*=%s*()", pos)
    if not name then
      return nil, not_an_option(text:match("^[^%s,=]*", pos), names, text)
    end
    if not known[name] then
      return nil, ("unknown rule option '%s'%s"):format(sandbox.truncate(name, 40), M.suggest(name, names))
    end
    if t[name] ~= nil then return nil, ("rule option '%s' given twice"):format(name) end   -- a known name
    local value, vpos = read_value(text, npos, name)
    if value == nil then return nil, vpos end
    t[name], pos = value, vpos
  end
  if next(t) == nil then return nil, "empty rule text" end
  return t
end

-- The core's word on a rule spec: spec | nil, its message (no file:line).
local function validate(spec)
  local ok, err = pcall(cheskers.rules, spec)
  if ok then return spec end
  local msg = tostring(err):gsub("^[^:]*:%d+: ", "")
  return nil, msg
end

function M.parse_text(text)
  if type(text) ~= "string" then return nil, "rule text must be text" end
  local s = text:match("^%s*(.-)%s*$")
  if s == "" then return nil, "empty rule text" end
  if s:sub(1, 1) == "{" then
    local v, err = sandbox.load_data("return " .. s, "rules literal")
    if v == nil then return nil, err end
    if type(v) ~= "table" then return nil, "rules literal: not a table" end
    return validate(v)
  end
  if s:match("^[%a_][%w_%-]*$") and cheskers.rules()[s] == nil then
    for _, n in ipairs(NO_DEFAULT) do
      if n == s then return nil, not_an_option(s, M.option_names(), s) end
    end
    return validate(s)         -- a preset name
  end
  local t, err = parse_options(s)
  if not t then return nil, err end
  return validate(t)
end

-- ---- writing ---------------------------------------------------------------------

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) == type(b) and (type(a) == "number" or type(a) == "string") then return a < b end
    return type(a) < type(b)
  end)
  return keys
end

-- Plain data as a compact Lua literal (no spaces): {C={leaps={{1,5}}}}.
local function data_text(v)
  if type(v) == "string" then
    if not v:find("[\\'%c]") then return "'" .. v .. "'" end
    return (("%q"):format(v):gsub("\\\n", "\\n"))
  end
  if type(v) ~= "table" then return tostring(v) end
  local parts, n = {}, #v
  for i = 1, n do parts[#parts + 1] = data_text(v[i]) end
  for _, k in ipairs(sorted_keys(v)) do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then
      local key = type(k) == "string" and k:match("^[%a_][%w_]*$") and k or "[" .. data_text(k) .. "]"
      parts[#parts + 1] = key .. "=" .. data_text(v[k])
    end
  end
  return "{" .. table.concat(parts, ",") .. "}"
end

-- A value as parse_text reads it back to the same value.
local function value_text(v)
  if type(v) == "table" then return data_text(v) end
  if type(v) ~= "string" then return tostring(v) end
  if v ~= "" and not v:find("[%s,'\"={}]") and bare_value(v) == v then return v end
  if v:find("'", 1, true) then return '"' .. v .. '"' end
  return "'" .. v .. "'"
end

local function deep_equal(a, b)
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  for k, v in pairs(a) do if not deep_equal(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end

-- The full rule set of a spec, as a board made with it reports it.
local function full(spec)
  return cheskers.new(nil, spec):rules()
end

function M.format(rules)
  local r, default = full(rules), full(nil)
  local parts = {}
  for _, name in ipairs(M.option_names()) do
    local v = r[name]
    local t = type(v)
    if (t == "boolean" or t == "number" or t == "string" or t == "table") and not deep_equal(v, default[name])
       and not (name == "start" and v == cheskers.START) then
      parts[#parts + 1] = name .. "=" .. value_text(v)
    end
  end
  if #parts == 0 then return "golomb" end
  return table.concat(parts, " ")
end

function M.equal(a, b)
  return deep_equal(full(a), full(b))
end

-- Whether two option values are the same (tables compared deeply).
M.same_value = deep_equal

-- An option value as the rules text writes it.
M.value_text = value_text

-- ---- command-line specs ------------------------------------------------------------

local function file_exists(path)
  local f = io.open(path, "r")
  if f then f:close() return true end
  return false
end

function M.parse(text)
  if type(text) ~= "string" then return nil, "rule spec must be text" end
  local s = text:match("^%s*(.-)%s*$")
  if s == "" then return nil, "empty rule text" end
  local file, variant = s:match("^(.-%.lua):([^:]+)$")
  if file then
    local experiment = require "cheskers.experiment"
    local ok, exp = pcall(experiment.load, file)
    if not ok then return nil, tostring(exp) end
    for _, v in ipairs(exp.variants) do
      if v.name == variant or v.family == variant then return v.rules end
    end
    local names = {}
    for _, v in ipairs(exp.variants) do names[#names + 1] = v.name end
    return nil, ("%s has no variant '%s' (it has: %s)"):format(file, variant,
                                                            table.concat(names, ", "))
  end
  if s:match("%.lua$") then
    if not file_exists(s) then return nil, "no rule file " .. s end
    local ok, v = sandbox.run_file(s)
    if not ok then return nil, v end
    if type(v) ~= "table" then return nil, s .. ": does not return a rule table" end
    return v
  end
  return M.parse_text(s)
end

-- A copy of v, tables copied deeply (functions, the hooks, shared).
local function deep_copy(v)
  if type(v) ~= "table" then return v end
  local t = {}
  for k, x in pairs(v) do t[k] = deep_copy(x) end
  return t
end

-- What preset name changes from the defaults: a table (maybe empty), or
-- nil, message.
local function preset_settings(name)
  local ok, preset = pcall(cheskers.rules, name)
  if not ok then return nil, (tostring(preset):gsub("^[^:]*:%d+: ", "")) end
  local defaults, t = cheskers.rules(), {}
  for k, v in pairs(preset) do
    if not deep_equal(v, defaults[k]) then t[k] = v end
  end
  return t
end

function M.compose(base, spec)
  if base ~= nil and type(base) ~= "table" then return nil, "base must be a rule table" end
  local layer = spec
  if type(spec) == "string" then
    local v, err = M.parse_text(spec)
    if v == nil then return nil, err end
    if type(v) == "string" then
      layer, err = preset_settings(v)
      if layer == nil then return nil, err end
    else
      layer = v
    end
  elseif spec ~= nil and type(spec) ~= "table" then
    return nil, "rules must be a preset name, rules text or a table, not a " .. type(spec)
  end
  local r = deep_copy(base or {})
  for k, v in pairs(layer or {}) do r[k] = deep_copy(v) end
  return r
end

-- {C = {leaps = {{1,3}}}} -> "{C={leaps={{1,3}}}}" (as format writes pieces=)
function M.pieces_text(pieces)
  return data_text(pieces)
end

return M
