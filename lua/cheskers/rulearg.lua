-- cheskers.rulearg - a rule spec as a command line gives it: the one reader
-- of --rules (match, tournament, mine, tb, experiment), of `rules show/diff`
-- and of the REPL's `rules` command. It lies above cheskers.experiment (it
-- reads experiment files), so that cheskers.rulespec, which experiments use,
-- needs nothing of theirs.
--
-- A rule spec on a command line is one of:
--   rules text or a preset   golomb, "majority=false capture=jumps"
--                            (cheskers.rulespec.parse_text)
--   a Lua table literal      "{promote='K', pieces={C={leaps={{1,5}}}}}" (data only)
--   a rule file              rules/camel15.lua   (a Lua file returning a rule
--                            table; ends in .lua; trusted: it may hold hooks)
--   an experiment variant    scripts/experiments/camel.lua:camel-1-5 (a
--                            variant's name or its family)
--
-- Only text the user gives (a command line, the REPL) comes here: rules
-- read from data (results folders, caches, game records) go to
-- cheskers.rulespec.parse_text, which refuses a file's name (issue 30: a
-- header naming x.lua made the readers of a folder run it).
--
--   rulearg.parse(spec) -> rules (a preset name or a table), checked | nil, message
local rulespec = require "cheskers.rulespec"
local luadata = require "cheskers.luadata"
local experiment = require "cheskers.experiment"

local M = {}

-- The rules of variant (a name or a family) of the experiment file.
local function variant_rules(file, variant)
  local ok, exp = pcall(experiment.load, file)
  if not ok then return nil, tostring(exp) end
  local names = {}
  for _, v in ipairs(exp.variants) do
    if v.name == variant or v.family == variant then return v.rules end
    names[#names + 1] = v.name
  end
  return nil, ("%s has no variant '%s' (it has: %s)"):format(file, variant, table.concat(names, ", "))
end

-- The rule table a rule file returns, checked.
local function file_rules(path)
  local v, err = luadata.load_file(path, "a rule table", "rules")
  if v == nil then return nil, err end
  local r, cerr = rulespec.check(v)
  if r == nil then return nil, path .. ": " .. cerr end
  return r
end

function M.parse(text)
  if type(text) ~= "string" then return nil, "rule spec must be text" end
  local s = text:match("^%s*(.-)%s*$")
  if s == "" then return nil, "empty rule text" end
  local file, variant = s:match("^(.-%.lua):([^:]+)$")
  if file then return variant_rules(file, variant) end
  if s:match("%.lua$") then return file_rules(s) end
  return rulespec.parse_text(s)
end

return M
