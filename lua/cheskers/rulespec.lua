-- cheskers.rulespec - rule sets written as text on a command line.
--
-- A rule spec is one of:
--   a preset name          golomb
--   option text            "majority=false capture=jumps"  (spaces or commas
--                          between; true/false become booleans, whole
--                          numbers become integers, anything else a string)
--   a Lua table literal    "{promote='K', pieces={C={leaps={{1,5}}}}}"
--                          (data only, read by cheskers.sandbox.load_data:
--                          hooks come from rule files)
--   a rule file            rules/camel15.lua   (a Lua file returning a rule
--                          table; ends in .lua)
--   an experiment variant  scripts/experiments/camel.lua:camel-1-5
--                          (the rules of that variant, its base included)
-- parse() returns what cheskers.new and cheskers.rules accept: a preset
-- name or a table; nil, message when the text cannot be read. It does not
-- validate option names or values: the module does that when the rules
-- are used.
local sandbox = require "cheskers.sandbox"

local M = {}

-- "true" -> true, "12" -> 12, anything else the text itself.
local function option_value(v)
  if v == "true" then return true end
  if v == "false" then return false end
  if v:match("^%-?%d+$") then return math.tointeger(tonumber(v)) end
  return v
end

-- "a=1 b=x" -> {a = 1, b = "x"}, or nil, message.
function M.parse_options(text)
  local t, seen = {}, false
  for item in text:gmatch("[^%s,]+") do
    local name, value = item:match("^([%a_][%w_]*)=(.*)$")
    if not name then
      return nil, ("rule option '%s' is not written name=value"):format(item)
    end
    if t[name] ~= nil then
      return nil, ("rule option '%s' given twice"):format(name)
    end
    t[name] = option_value(value)
    seen = true
  end
  if not seen then return nil, "empty rule text" end
  return t
end

-- A table literal is data only, read by the one sandbox (no functions, no
-- cheskers module, no files): hooks come from rule files, which are trusted.
local function eval_table(text, chunkname)
  local v, err = sandbox.load_data("return " .. text, chunkname)
  if v == nil then return nil, err end
  if type(v) ~= "table" then return nil, chunkname .. ": not a table" end
  return v
end

local function file_exists(path)
  local f = io.open(path, "r")
  if f then f:close() return true end
  return false
end

function M.parse(text)
  if type(text) ~= "string" then return nil, "rule spec must be text" end
  local s = text:match("^%s*(.-)%s*$")
  if s == "" then return nil, "empty rule text" end
  if s:sub(1, 1) == "{" then
    return eval_table(s, "rules literal")
  end
  local file, variant = s:match("^(.-%.lua):([^:]+)$")
  if file then
    local experiment = require "cheskers.experiment"
    local ok, exp = pcall(experiment.load, file)
    if not ok then return nil, tostring(exp) end
    for _, v in ipairs(exp.variants) do
      if v.name == variant then return v.rules end
    end
    local names = {}
    for _, v in ipairs(exp.variants) do names[#names + 1] = v.name end
    return nil, ("%s has no variant '%s' (it has: %s)"):format(file, variant,
                                                            table.concat(names, ", "))
  end
  if s:match("%.lua$") then
    if not file_exists(s) then return nil, "no rule file " .. s end
    local chunk, err = loadfile(s, "t")
    if not chunk then return nil, err end
    local ok, v = pcall(chunk)
    if not ok then return nil, tostring(v) end
    if type(v) ~= "table" then return nil, s .. ": does not return a rule table" end
    return v
  end
  if s:find("=", 1, true) then return M.parse_options(s) end
  if s:match("^[%a_][%w_%-]*$") then return s end
  return nil, ("cannot read rule spec '%s' (expected a preset name, "
               .. "name=value options, a {table} or a .lua file)"):format(s)
end

local function vectors_text(list)
  local parts = {}
  for _, v in ipairs(list or {}) do
    parts[#parts + 1] = "{" .. tostring(v[1]) .. "," .. tostring(v[2]) .. "}"
  end
  return "{" .. table.concat(parts, ",") .. "}"
end

-- {C = {leaps = {{1,3}}}} -> "{C={leaps={{1,3}}}}"
function M.pieces_text(pieces)
  local letters = {}
  for k in pairs(pieces) do letters[#letters + 1] = k end
  table.sort(letters)
  local parts = {}
  for _, l in ipairs(letters) do
    local d, fields = pieces[l], {}
    if type(d) == "table" then
      if d.leaps then fields[#fields + 1] = "leaps=" .. vectors_text(d.leaps) end
      if d.rides then fields[#fields + 1] = "rides=" .. vectors_text(d.rides) end
      if d.capture then fields[#fields + 1] = "capture=" .. tostring(d.capture) end
      if d.compulsory ~= nil then fields[#fields + 1] = "compulsory=" .. tostring(d.compulsory) end
    end
    parts[#parts + 1] = l .. "={" .. table.concat(fields, ",") .. "}"
  end
  return "{" .. table.concat(parts, ",") .. "}"
end

return M
