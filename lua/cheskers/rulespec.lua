-- cheskers.rulespec - rule sets as text, for every entry point (the [Rules]
-- tag of game records, the REPL's `rules` command, --rules of every
-- command through cheskers.rulearg, `rules diff/show`): the reader and the
-- writer of rules text, and composition.
--
-- The text of a rule set is read by the core (core/rules.c, through
-- cheskers.rules_text: the one grammar of name=value text, shared with bot
-- options; docs/reference/rules.md, "Options as text"):
--   golomb                              a preset name alone
--   majority=false capture=jumps        options that differ (spaces, commas or
--                                       colons between); true/false are
--                                       booleans, whole numbers integers
--   start='7k/8/8/8/8/8/8/K7 w 0 1'     'quoted' or "quoted" values hold spaces
--   pieces={C={leaps={{1,5}}}}          a {...} value is a data literal (the
--                                       core hands it over; read here by
--                                       cheskers.sandbox.load_data)
-- The core names the option and echoes the value in its messages, with "did
-- you mean" for a near option, value or preset. Hooks (filter, result)
-- cannot be written as text: they come from rule files. A rule spec as
-- text may also be a Lua table literal "{promote='K', pieces={C={leaps={{1,5}}}}}" (data
-- only). A rule spec on a command line may also name a file: see
-- cheskers.rulearg (above cheskers.experiment).
--
--   M.parse_text(text)  -> rules (a preset name or a table), checked | nil, message
--                          (untrusted text: no files; a file's name, x.lua or
--                          x.lua:VARIANT, is refused as such: the reader of
--                          rules that come from data, results folders and
--                          game records included)
--   M.check(spec)       -> spec, when the core makes a rule set of it | nil, message
--   M.format(rules)     -> the shortest text: "golomb", else the options that differ
--   M.equal(a, b)       -> whether two rule specs make the same rule set
--   M.same_value(a, b)  -> whether two option values are the same (deeply)
--   M.value_text(v)     -> an option value as the text writes it
--   M.option_names()    -> the sorted option names
--   M.compose(base, spec) -> the rule table of spec laid over base | nil, message
--   M.diff(a, b [, fen [, depth [, all]]]) -> how two rule specs differ in a
--                          position (`cheskers rules diff`): see below
--
-- Composition, the one rule for every place that layers rules (experiment
-- variants over base, --rules over a file's rules, the REPL's `rules
-- OPTION=VALUE` over the game's rules): start from base (a rule table or
-- nil), lay over it what the preset sets (a preset is what it changes from
-- the defaults: golomb changes nothing), then the spec's own settings. So
-- with base = {draw_repetition = 3}, "golomb" gives draw_repetition = 3, and
-- {majority = false} gives majority = false and draw_repetition = 3. spec:
-- nil, a preset name, rules text or a table.
local cheskers = require "cheskers"
local sandbox = require "cheskers.sandbox"
local luadata = require "cheskers.luadata"
local escape = require "cheskers.escape"

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

-- ---- reading --------------------------------------------------------------------

-- The rule table of the options text reads (cheskers.rules_text: the core's
-- grammar and option names), its {...} values read as data; or a preset
-- name; or nil, message.
local function read_options(text)
  local t, data = cheskers.rules_text(text)
  if t == nil then return nil, data end
  if type(t) == "string" then return t end
  for name in pairs(data) do
    local v, err = sandbox.load_data("return " .. t[name], "rule option '" .. name .. "'")
    if v == nil then return nil, err end
    t[name] = v
  end
  return t
end

-- The core's word on a rule spec: spec | nil, its message (no file:line).
function M.check(spec)
  local ok, err = pcall(cheskers.rules, spec)
  if ok then return spec end
  local msg = tostring(err):gsub("^[^:]*:%d+: ", "")
  return nil, msg
end

function M.parse_text(text)
  if type(text) ~= "string" then return nil, "rule text must be text" end
  local s = text:match("^%s*(.-)%s*$")
  if s == "" then return nil, "empty rule text" end
  if s:match("%.lua$") or s:match("^[^=]-%.lua:[^:=]+$") then
    return nil, ("'%s' names a file, not rules: rules read from data are rules text only (a rule file "
                 .. "is trusted code: it is given on the command line, --rules FILE)"):format(escape.console(s))
  end
  if s:sub(1, 1) == "{" then
    local v, err = sandbox.load_data("return " .. s, "rules literal")
    if v == nil then return nil, err end
    if type(v) ~= "table" then return nil, "rules literal: not a table" end
    return M.check(v)
  end
  local t, err = read_options(s)
  if t == nil then return nil, err end
  return M.check(t)
end

-- ---- writing ---------------------------------------------------------------------

-- Plain data as a compact Lua literal (no spaces): {C={leaps={{1,5}}}}.
local function data_text(v)
  return luadata.write(v, { compact = true })
end

-- A value as parse_text reads it back to the same value: text bare when the
-- core's grammar reads it back as that text, else quoted.
local function value_text(v)
  if type(v) == "table" then return data_text(v) end
  if type(v) ~= "string" then return tostring(v) end
  if v ~= "" and not v:find("[%s'\"={}]") and (cheskers.read_options("v=" .. v) or {}).v == v then return v end
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

-- A move as a key that names it under any rule set: from, to, the
-- captured squares (sorted), the promotion.
local function move_key(m)
  local caps = {}
  for i, sq in ipairs(m.captures) do caps[i] = sq end
  table.sort(caps)
  return m.from .. "-" .. m.to .. ":" .. table.concat(caps, ",") .. "=" .. (m.promotion or "")
end

-- How rule specs a and b (what cheskers.new takes) differ in the position
-- fen (default: each one's start), up to perft depth (default 4). Returns
-- { full = {A, B} (the full rule tables), options = {{key, a, b}...} (the
-- options whose values differ), fen = {A, B}, count = {A, B} (legal moves),
-- common, only_a, only_b (the texts of the moves legal under one only,
-- sorted), perft = {{depth, a, b}...}, first_diff (the first depth whose
-- counts differ, or nil), divides = {{depth, rows = {{move, a, b}...}}...}
-- (the root moves whose subtree counts differ, at first_diff, or at every
-- depth from it with all; a count nil where the move is not legal), differs
-- }, or nil and a message ("A: ..." or "B: ..."). Hooks may raise.
function M.diff(a, b, fen, depth, all)
  depth = depth or 4
  local okA, fa = pcall(cheskers.rules, a)
  if not okA then return nil, "A: " .. tostring(fa) end
  local okB, fb = pcall(cheskers.rules, b)
  if not okB then return nil, "B: " .. tostring(fb) end
  local ok, ba = pcall(cheskers.new, fen, a)
  if not ok then return nil, "A: " .. tostring(ba) end
  local bb
  ok, bb = pcall(cheskers.new, fen, b)
  if not ok then return nil, "B: " .. tostring(bb) end
  local sorted_keys = require("cheskers.luadata").sorted_keys
  local r = { full = { fa, fb }, options = {}, fen = { ba:fen(), bb:fen() }, perft = {}, divides = {} }
  for _, k in ipairs(sorted_keys(fa, fb)) do
    if not M.same_value(fa[k], fb[k]) then r.options[#r.options + 1] = { k, fa[k], fb[k] } end
  end
  local ma, mb = ba:moves(), bb:moves()
  local ka, kb = {}, {}
  for _, m in ipairs(ma) do ka[move_key(m)] = m end
  for _, m in ipairs(mb) do kb[move_key(m)] = m end
  r.only_a, r.only_b, r.common, r.count = {}, {}, 0, { #ma, #mb }
  for _, m in ipairs(ma) do
    if kb[move_key(m)] then r.common = r.common + 1 else r.only_a[#r.only_a + 1] = tostring(m) end
  end
  for _, m in ipairs(mb) do
    if not ka[move_key(m)] then r.only_b[#r.only_b + 1] = tostring(m) end
  end
  table.sort(r.only_a); table.sort(r.only_b)
  r.differs = #r.only_a > 0 or #r.only_b > 0
  for d = 1, depth do
    local pa, pb = ba:perft(d), bb:perft(d)
    r.perft[d] = { d, pa, pb }
    if pa ~= pb then
      r.differs = true
      r.first_diff = r.first_diff or d
    end
  end
  for d = r.first_diff or depth + 1, r.first_diff and depth or 0 do
    if d > 1 then
      local da, db = ba:divide(d), bb:divide(d)
      local rows = {}
      for _, k in ipairs(sorted_keys(da, db)) do
        if da[k] ~= db[k] then rows[#rows + 1] = { k, da[k], db[k] } end
      end
      if #rows > 0 then r.divides[#r.divides + 1] = { depth = d, rows = rows } end
    end
    if not all then break end
  end
  return r
end

return M
