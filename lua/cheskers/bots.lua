-- cheskers.bots - the one bot loader (match, experiment, mine, and later
-- tournaments and the REPL's bot mode): the bot-spec grammar, the bot
-- folders, the built-in fast bots, and the box every bot call runs in.
--
--   bots.parse_spec(spec) -> name, options | nil, message
--       "FILE_OR_NAME[:opt=value,...]": the options are name=value text read
--       by the core's grammar (cheskers.read_options, the same as rules
--       text): true/false -> booleans, whole numbers -> integers, 1.5 ->
--       numbers, "quoted" or 'quoted' -> the text inside, else the text;
--       separated by ',', ':' or spaces
--   bots.load(spec, opts) -> bot          raises "bot SPEC: what is wrong"
--       opts.sandbox: run the bot file in an untrusted box (--sandbox); a
--       table sets the box's limits: {instructions =, memory =, time =}
--       opts.dirs: folders searched first (an experiment's ../bots)
--       An unknown name gets the nearest known one ("did you mean").
--       A table spec is taken as a bot (tests, bots made in code).
--       Every load is a fresh instance (the file runs again).
--   bots.dirs(extra) -> { folder, ... }   where names are looked up
--   bots.names(extra) -> { name, ... }    the bots there, and the built-ins
--   bots.BUILTIN                          builtin-random, builtin-greedy
--   bots.call(bot, seconds, fn, ...) -> true, results... | false, reason, detail, traceback
--       fn run through the bot's box (cheskers.sandbox: reason "time",
--       "error" or "limit"); every call of a bot file, trusted or not
--
-- A bot is a Lua file returning
--   { name = "...", choose = function(board, limits) return move end,
--     new_game = function(rules) end,      -- optional
--     configure = function(options) end,   -- optional: the spec's options
--     options = { level = { type = "integer", min = 1, max = 10 },
--                 tb = "string", ... } }   -- optional: what configure takes
-- options declares the options as plain data (a sandboxed bot cannot
-- require cheskers.schema): each a type name ("integer", "number",
-- "boolean", "string") or a table {type =, min =, max =, above =, values =}.
-- The loader checks the spec's options against it before calling
-- configure (unknown option with "did you mean", a wrong value echoed with
-- what is allowed); a bot that declares none gets its options unchecked.
-- A loaded bot is { name, spec, path, choose, new_game, box, builtin }.
-- Built-in bots have choose(board, limits, moves) and no box: the game
-- loop calls them directly with the legal moves (no copy, no hook), which
-- keeps self-play experiments fast.
local cheskers = require "cheskers"
local sandbox = require "cheskers.sandbox"
local S = require "cheskers.schema"

local M = {}

local function fail(spec, fmt, ...)
  error("bot " .. tostring(spec) .. ": " .. string.format(fmt, ...), 0)
end

-- ---- the spec grammar --------------------------------------------------------

function M.parse_spec(spec)
  if type(spec) ~= "string" or spec == "" then return nil, "a bot spec is a non-empty text" end
  local name, rest = spec:match("^([^:]*):(.*)$")
  if not name then return spec, {} end
  if name == "" then return nil, "no bot name before ':'" end
  local opts, err = require("cheskers").read_options(rest)
  if not opts then return nil, err end
  return name, opts
end

-- ---- bot folders ---------------------------------------------------------------

-- Folders searched for bots by name: extra (first), scripts/bots/ of the
-- working directory, then of the source tree this module belongs to, then
-- the installed share folder.
function M.dirs(extra)
  local dirs = {}
  for _, d in ipairs(extra or {}) do dirs[#dirs + 1] = d:gsub("/*$", "/") end
  dirs[#dirs + 1] = "scripts/bots/"
  local src = debug.getinfo(1, "S").source
  local here = src:sub(1, 1) == "@" and require("cheskers.files").dirname(src:sub(2))
  if here then
    dirs[#dirs + 1] = here .. "/../../scripts/bots/"      -- lua/cheskers/ -> repo
    dirs[#dirs + 1] = here .. "/../../../cheskers/bots/"  -- share/lua/5.4/cheskers/ -> share/cheskers/bots
  end
  return dirs
end

M.BUILTIN = {}

-- The names of the bots in the folders, and the built-in ones.
function M.names(extra)
  local lfs = require "lfs"
  local names, seen = {}, {}
  for _, dir in ipairs(M.dirs(extra)) do
    if lfs.attributes(dir, "mode") == "directory" then
      for f in lfs.dir(dir) do
        local n = f:match("^(.+)%.lua$")
        if n and not seen[n] then seen[n] = true; names[#names + 1] = n end
      end
    end
  end
  table.sort(names)
  for _, n in ipairs({ "builtin-greedy", "builtin-random" }) do names[#names + 1] = n end
  return names
end

-- Whether something is at path (not opened: a FIFO there must not block;
-- cheskers.files refuses what is not a file when it is read).
local function readable(path)
  return require("cheskers.files").exists(path)
end

local function find_file(spec, name, extra)
  if name:find("/", 1, true) or name:match("%.lua$") then
    if not readable(name) then fail(spec, "no file %s", name) end
    return name
  end
  for _, dir in ipairs(M.dirs(extra)) do
    if readable(dir .. name .. ".lua") then return dir .. name .. ".lua" end
  end
  local names = M.names(extra)
  local hint = cheskers.did_you_mean(name, names)
  if hint ~= "" then fail(spec, "no such bot%s", hint) end
  fail(spec, "no such bot (bots: %s)", table.concat(names, ", "))
end

-- ---- built-in bots -------------------------------------------------------------

local function random_choice(list) return list[math.random(#list)] end

M.BUILTIN["builtin-random"] = function()
  return { name = "builtin-random", builtin = true,
           choose = function(_, _, moves) return random_choice(moves) end }
end

M.BUILTIN["builtin-greedy"] = function()
  return { name = "builtin-greedy", builtin = true,
    choose = function(_, _, moves)
      local best, most = {}, -1
      for _, m in ipairs(moves) do
        local n = #m.captures
        if n > most then best, most = { m }, n
        elseif n == most then best[#best + 1] = m end
      end
      return random_choice(best)
    end }
end

-- ---- loading a bot file ---------------------------------------------------------

-- The text of a bot file (size-limited).
local function read_source(spec, path, limit)
  local text, err = require("cheskers.files").read(path, "bot")
  if not text then fail(spec, "%s", tostring(err)) end
  if #text > limit then fail(spec, "%s is too large (more than %d bytes)", path, limit) end
  if text:byte(1) == 27 then fail(spec, "%s is a binary chunk; bots must be text", path) end
  return text
end

-- "path:12: message" as "line 12 of path: message" (one line, and not the
-- shape of a Lua error position, which the program shows with a traceback).
local function where(msg, prefix)
  msg = tostring(msg):match("^[^\n]*")
  local file, line, text = msg:match("^(.-):(%d+): (.*)$")
  if file and file ~= "" then return string.format("%sline %s of %s: %s", prefix or "", line, file, text) end
  return msg
end

-- One line for a failed call: the reason's detail.
local function call_failed(spec, what, reason, detail)
  if reason == "time" then fail(spec, "%s took too long: %s", what, detail) end
  fail(spec, "%s", where(detail, "error at "))
end

-- Checks the table a bot file returned; returns the functions.
local function check_table(spec, t)
  if type(t) ~= "table" or type(rawget(t, "choose")) ~= "function" then
    fail(spec, "the file must return a table with a choose function")
  end
  for _, k in ipairs({ "new_game", "configure" }) do
    local v = rawget(t, k)
    if v ~= nil and type(v) ~= "function" then fail(spec, "%s must be a function", k) end
  end
  if rawget(t, "options") ~= nil and rawget(t, "configure") == nil then
    fail(spec, "it declares options but has no configure function")
  end
end

-- ---- the options a bot declares -----------------------------------------------

local OPTION_TYPE = S.one_of { "integer", "number", "boolean", "string" }

-- What a bot file's options field may hold (see the header).
M.DECLARATION = S.map(S.either(OPTION_TYPE, S.record {
  what = "a table {type =, min =, max =, above =, values =}",
  fields = { type = OPTION_TYPE, min = "number", max = "number", above = "number",
             values = S.list(S.either("string", "number", "boolean"), { min = 1 }) },
  required = { "type" },
}))

-- The schema of one declared option.
local function option_spec(d)
  if type(d) == "string" then return d == "integer" and S.int() or d == "number" and S.num() or d end
  if d.values then return S.one_of(d.values) end
  local range = { min = d.min, max = d.max, above = d.above }
  if d.type == "integer" then return S.int(range) end
  if d.type == "number" then return S.num(range) end
  return d.type
end

-- The record schema of the options a bot file declares (decl: its options
-- field, read raw: no metamethod of a sandboxed bot runs here); raises
-- "bot SPEC: options: ..." for a bad declaration.
local function declared_options(spec, decl)
  local d, err = S.read(decl, M.DECLARATION, "options")
  if not d then fail(spec, "%s", err) end
  local fields = {}
  for name, x in pairs(d) do fields[name] = option_spec(x) end
  return S.record { noun = "option", fields = fields }
end

-- The spec's options as configure gets them: checked against the schema
-- of what the bot declares, when it declares something.
local function checked_options(spec, opts, t, schema)
  if not rawget(t, "configure") then fail(spec, "takes no options") end
  if not schema then return opts end
  if #S.fields(schema) == 0 then fail(spec, "takes no options") end
  local checked, err = S.read(opts, schema)
  if not checked then fail(spec, "%s", err) end
  return checked
end

local function load_file(spec, name, opts, lopts)
  local path = find_file(spec, name, lopts.dirs)
  local limits = type(lopts.sandbox) == "table" and lopts.sandbox or {}
  local box = sandbox.new { name = spec, trusted = not lopts.sandbox, instructions = limits.instructions,
                            memory = limits.memory, time = limits.time }
  local text = read_source(spec, path, box.limits.source)
  local chunk, err = box:load(text, "@" .. path)   -- (messages name the file in full)
  if not chunk then
    err = tostring(err)
    if err:sub(1, #spec + 2) == spec .. ": " then err = err:sub(#spec + 3) end   -- the box's name
    fail(spec, "%s", where(err, "syntax error at "))
  end
  local ok, t, detail = box:call(30, chunk)
  if not ok then call_failed(spec, "loading the file", t, detail) end
  check_table(spec, t)
  local schema = rawget(t, "options") ~= nil and declared_options(spec, rawget(t, "options"))
  if next(opts) then
    opts = checked_options(spec, opts, t, schema)
    local okc, reason, d = box:call(30, rawget(t, "configure"), opts)
    if not okc then call_failed(spec, "configure", reason, d) end
  end
  -- the name may be set by configure; only a plain short string is taken
  local bname = rawget(t, "name")
  bname = type(bname) == "string" and bname ~= "" and bname:sub(1, 60) or name
  return { name = bname, spec = spec, path = path, choose = rawget(t, "choose"),
           new_game = rawget(t, "new_game"), box = box }
end

-- The options of bots.load.
local LOAD_OPTIONS = S.record { noun = "option", what = "a table of options", fields = {
  sandbox = S.either("boolean", S.record { noun = "limit", what = "a table of limits", fields = {
    instructions = S.int { min = 1 }, memory = S.int { min = 1 },
    time = require("cheskers.numbers").spec "sandbox time" } }),   -- (past it the box's clocks would cut it)
  dirs = S.list("string"),
} }

-- Loads a fresh instance of a bot (see the header).
function M.load(spec, lopts)
  lopts = lopts or {}
  S.check(lopts, LOAD_OPTIONS, "bots.load")
  if type(spec) == "table" then
    if type(spec.choose) ~= "function" then fail(spec.name or "?", "has no choose function") end
    if not spec.builtin and not spec.box then spec.box = sandbox.new { name = spec.name, trusted = true } end
    return spec
  end
  local name, opts = M.parse_spec(spec)
  if not name then fail(spec, "%s", opts) end
  if M.BUILTIN[name] then
    if next(opts) then fail(spec, "takes no options") end
    local bot = M.BUILTIN[name]()
    bot.spec = spec
    return bot
  end
  return load_file(spec, name, opts, lopts)
end

-- The entry of a call: fn not tail-called, so that the box's traceback
-- stops at this frame even when fn tail-calls (its own frame is gone then).
local function entry(fn, ...)
  local r = table.pack(fn(...))
  return table.unpack(r, 1, r.n)
end

-- The traceback without the frames of the runner (this file and below).
local function bot_frames(tb)
  if not tb then return nil end
  local lines = {}
  for line in tb:gmatch("[^\n]+") do
    if line:find("cheskers/bots.lua:", 1, true) then break end
    lines[#lines + 1] = line
  end
  return table.concat(lines, "\n")
end

local function answer(ok, ...)
  if ok then return true, ... end
  local reason, detail, tb = ...
  return false, reason, detail, bot_frames(tb)
end

-- Calls fn(...) for bot through its box (see the header).
function M.call(bot, seconds, fn, ...)
  return answer(bot.box:call(seconds, entry, fn, ...))
end

return M
