-- cheskers.experiment - rule experiments: variants played in self-play by
-- bots, one JSON line per game, in shards that can run anywhere; and the
-- statistics that `cheskers report` prints.
--
-- An experiment file (scripts/experiments/*.lua) returns a table:
--   name        = "majority",           -- default: the file name
--   description = "what is compared",
--   games       = 200,                  -- games per variant (--games overrides)
--   seed        = 1,                    -- default seed (--seed overrides)
--   max_plies   = 300,                  -- longer games end as a draw, reason "max_plies"
--   bots        = { white = "builtin-greedy", black = "builtin-greedy" },
--                                        -- or one name for both sides
--   limits      = { nodes = 2000 },     -- passed to every bot's choose()
--   swap_colors = false,                -- true: even games swap the two bots
--   random_plies = 0,                   -- the first N plies are random moves (varied
--                                        -- openings for deterministic bots)
--   branching_every = 1,                -- sample the branching factor every N plies
--   base        = { draw_repetition = 3 },  -- rules shared by every variant
--   variants    = {                     -- compared in this order
--     { name = "majority-on",  rules = { majority = true } },
--     { name = "majority-off", rules = { majority = false }, bots = ..., games = ... },
--   },
--   measures    = { "result", "plies", "reason", "branching", "captures",
--                   "promotions", camel_share = function(game) return ... end },
-- Rules are what cheskers.new accepts (a table, which may hold pieces,
-- start and the filter/result hooks, or a preset name); a variant's rules
-- are laid over `base`. `measures` names what the report shows first; a
-- function entry is a measure of its own: called with the game record and
-- the final board at the end of each game, it returns a number the report
-- averages.
--
-- Bots: "builtin-random" (uniform over the legal moves) and
-- "builtin-greedy" (the moves capturing the most pieces, ties at random)
-- are built in and fast. Any other name is a bot file: NAME.lua in the
-- experiment's ../bots folder, then where cheskers.match looks (scripts/bots
-- of the current folder and of the source tree, the installed bot folder),
-- or a path to a .lua file, optionally with options as the match
-- command takes them: "alphabeta:depth=2", "engine:level=3,mobility=0"
-- (passed to the bot's configure(opts) as strings). A bot file returns
-- { name = "...", choose = function(board, limits) return move end,
--   new_game = function(rules) end (optional) }, the move a move object or
-- its text; choose() gets a copy of the board. new_game is called before
-- every game: a bot must not carry state from one game into the next, or
-- games would depend on the order they are played in.
--
-- Determinism: game g of variant v seeds math.random from (seed, v, g)
-- before it starts, and bots draw from math.random, so a game depends on
-- nothing else: not the shard that plays it nor the games before it. Bots
-- limited by time rather than depth or nodes are not deterministic.
--
-- Shards: the games are numbered 1, 2, ... variant by variant, game by
-- game; shard I of N plays games I, I + N, I + 2N, ... Each shard
-- appends to its own file in the output folder,
-- <experiment>.seed<S>.shard<I>of<N>.jsonl, one line per finished game,
-- written in one write and flushed. A run first reads every .jsonl file of
-- the folder and skips the games already there (so resuming, or re-running
-- with another shard count, never plays a game twice); a torn last line
-- left by a killed run is dropped from its file. A lock folder beside the
-- shard file keeps two runs of one shard from writing it at once.
local cheskers = require "cheskers"
local cjson = require "cjson"

local M = {}

M.FILE_VERSION = 1
M.DEFAULTS = {
  games = 100, seed = 1, max_plies = 300, branching_every = 1,
  bots = { white = "builtin-greedy", black = "builtin-greedy" },
}
M.STANDARD_MEASURES = { "result", "plies", "reason", "branching", "captures",
                        "captured", "promotions" }

-- ---- small helpers ----------------------------------------------------------

local function errorf(fmt, ...) error(string.format(fmt, ...), 0) end

local function copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = copy(v) end
  return c
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  return keys
end

local function basename(path) return (path:match("([^/]+)$") or path) end
local function dirname(path) return path:match("^(.*)/[^/]*$") or "." end

local function file_exists(path)
  local f = io.open(path, "r")
  if f then f:close() return true end
  return false
end

-- 64-bit FNV-1a of a string, as a Lua integer (wrapping arithmetic).
local function fnv1a(s)
  local h = -3750763034362895579   -- 0xcbf29ce484222325
  for i = 1, #s do
    h = h ~ s:byte(i)
    h = h * 1099511628211
  end
  return h
end

-- The seed of one game: a function of (seed, variant name, game number).
function M.game_seed(seed, variant, game)
  return fnv1a(("%d\0%s\0%d"):format(seed, variant, game))
end

-- ---- JSON lines with a stable key order -------------------------------------

local LINE_KEYS = { "v", "experiment", "seed", "variant", "vindex", "game",
                    "white", "black", "first", "result", "reason", "plies",
                    "captures", "captured", "promotions", "branching",
                    "branching_n", "branching_sum", "measures", "start", "moves" }

local function is_array(t)
  local n = #t
  if n == 0 then return false end
  local count = 0
  for _ in pairs(t) do count = count + 1 end
  return count == n
end

local function encode_value(v)
  if type(v) == "table" and is_array(v) then
    local parts = {}
    for i = 1, #v do parts[i] = encode_value(v[i]) end
    return "[" .. table.concat(parts, ",") .. "]"
  elseif type(v) == "table" then
    local parts = {}
    for _, k in ipairs(sorted_keys(v)) do
      parts[#parts + 1] = cjson.encode(tostring(k)) .. ":" .. encode_value(v[k])
    end
    return "{" .. table.concat(parts, ",") .. "}"
  end
  return cjson.encode(v)
end

-- One game record as a JSON object on one line (no newline), keys in the
-- order of LINE_KEYS, nested objects sorted by key.
function M.encode_record(rec)
  local parts = {}
  for _, k in ipairs(LINE_KEYS) do
    if rec[k] ~= nil then parts[#parts + 1] = '"' .. k .. '":' .. encode_value(rec[k]) end
  end
  return "{" .. table.concat(parts, ",") .. "}"
end

-- The identity of a game across files and runs.
function M.record_key(rec)
  return ("%s\0%s\0%s\0%s"):format(rec.experiment, tostring(rec.seed),
                                   rec.variant, tostring(rec.game))
end

-- ---- bots ---------------------------------------------------------------------

local function random_choice(list) return list[math.random(#list)] end

local BUILTIN = {
  ["builtin-random"] = {
    name = "builtin-random", builtin = true,
    choose = function(_, _, moves) return random_choice(moves) end,
  },
  ["builtin-greedy"] = {
    name = "builtin-greedy", builtin = true,
    choose = function(_, _, moves)
      local best, most = {}, -1
      for _, m in ipairs(moves) do
        local n = #m.captures
        if n > most then best, most = { m }, n
        elseif n == most then best[#best + 1] = m end
      end
      return random_choice(best)
    end,
  },
}
M.BUILTIN_BOTS = BUILTIN

-- "alphabeta:depth=3,nodes=500" -> "alphabeta", {depth = "3", nodes = "500"}
-- (options also separated by ':'; the match command's NAME:key=value form).
function M.parse_bot_spec(spec)
  local name, rest = spec:match("^([^:]+):(.*)$")
  if not name then return spec, nil end
  local opts = {}
  for item in rest:gmatch("[^,:]+") do
    local k, v = item:match("^([%w_]+)=(.*)$")
    if not k then errorf("bot %s: option '%s' is not written key=value", spec, item) end
    opts[k] = v
  end
  return name, opts
end

-- Finds and loads a bot by name (see the header): a fresh instance each
-- call, configured with the options of NAME:key=value,... search: folders
-- tried first (the experiment's ../bots). Bot files are loaded by
-- cheskers.match (the loader of `cheskers match`, which also knows the
-- installed bot folder) when it is there.
function M.load_bot(spec, search)
  if BUILTIN[spec] then return BUILTIN[spec] end
  local name = M.parse_bot_spec(spec)
  local candidates = {}
  if name:match("%.lua$") or name:find("/", 1, true) then
    candidates[1] = name
  else
    for _, dir in ipairs(search or {}) do candidates[#candidates + 1] = dir .. "/" .. name .. ".lua" end
  end
  local path
  for _, c in ipairs(candidates) do
    if file_exists(c) then path = c break end
  end
  local full = path and (path .. spec:sub(#name + 1)) or spec
  local okm, match = pcall(require, "cheskers.match")
  if okm and type(match) == "table" and match.load_bot then
    local ok, bot = pcall(match.load_bot, full)
    if not ok then errorf("%s; built in: builtin-random, builtin-greedy", tostring(bot)) end
    return { name = spec, choose = bot.choose, new_game = bot.new_game, path = path }
  end
  -- without cheskers.match: scripts/bots under the current folder
  if not path then
    local c = "scripts/bots/" .. name .. ".lua"
    candidates[#candidates + 1] = c
    if file_exists(c) then path = c end
  end
  if not path then
    errorf("no bot '%s' (built in: builtin-random, builtin-greedy; looked for %s)",
           spec, table.concat(candidates, ", "))
  end
  local _, opts = M.parse_bot_spec(spec)
  local chunk, err = loadfile(path, "t")
  if not chunk then errorf("bot %s: %s", spec, err) end
  local ok, bot = pcall(chunk)
  if not ok then errorf("bot %s (%s): %s", spec, path, tostring(bot)) end
  if type(bot) ~= "table" or type(bot.choose) ~= "function" then
    errorf("bot %s (%s) must return {name = ..., choose = function(board, limits)}", spec, path)
  end
  if opts then
    if type(bot.configure) ~= "function" then errorf("bot %s (%s) takes no options", spec, path) end
    local okc, cerr = pcall(bot.configure, opts)
    if not okc then errorf("bot %s: %s", spec, tostring(cerr)) end
  end
  return { name = spec, choose = bot.choose, new_game = bot.new_game, path = path }
end

-- ---- experiment files ----------------------------------------------------------

local function merge_rules(base, rules)
  if rules == nil then rules = {} end
  if type(rules) == "string" then
    if base and next(base) then
      -- a preset over a base: the preset's full table, then the base under it
      local full = cheskers.rules(rules)
      for k, v in pairs(base) do if full[k] == nil then full[k] = v end end
      return full
    end
    return rules
  end
  local r = copy(base or {})
  for k, v in pairs(rules) do r[k] = copy(v) end
  return r
end

local function normalize_bots(spec, where)
  if spec == nil then return nil end
  if type(spec) == "string" then return { white = spec, black = spec } end
  if type(spec) ~= "table" then errorf("%s: bots must be a name or {white=, black=}", where) end
  local w, b = spec.white or spec[1], spec.black or spec[2]
  if type(w) ~= "string" or type(b) ~= "string" then
    errorf("%s: bots needs a white and a black bot name", where)
  end
  return { white = w, black = b }
end

local function positive_int(v, what, allow_zero)
  if math.type(v) ~= "integer" or v < (allow_zero and 0 or 1) then
    errorf("%s must be a whole number >= %d, not %s", what, allow_zero and 0 or 1, tostring(v))
  end
  return v
end

-- Checks and completes an experiment table. path: for messages and the
-- default name and bot folder.
function M.normalize(exp, path)
  local where = path or "experiment"
  if type(exp) ~= "table" then errorf("%s: must return a table", where) end
  local e = {}
  e.path = path
  e.name = exp.name or (path and basename(path):gsub("%.lua$", "")) or "experiment"
  if type(e.name) ~= "string" or not e.name:match("^[%w_%-%.]+$") then
    errorf("%s: name '%s' must be letters, digits, '_', '-' or '.'", where, tostring(e.name))
  end
  e.description = exp.description or ""
  e.games = positive_int(exp.games or M.DEFAULTS.games, where .. ": games", true)
  e.seed = exp.seed or M.DEFAULTS.seed
  if math.type(e.seed) ~= "integer" then errorf("%s: seed must be an integer", where) end
  e.max_plies = positive_int(exp.max_plies or M.DEFAULTS.max_plies, where .. ": max_plies")
  e.branching_every = positive_int(exp.branching_every or M.DEFAULTS.branching_every,
                                   where .. ": branching_every")
  e.bots = normalize_bots(exp.bots, where) or copy(M.DEFAULTS.bots)
  e.limits = exp.limits or {}
  e.swap_colors = exp.swap_colors and true or false
  e.random_plies = positive_int(exp.random_plies or 0, where .. ": random_plies", true)
  e.base = exp.base
  if e.base ~= nil and type(e.base) ~= "table" then errorf("%s: base must be a rule table", where) end
  e.measures, e.custom = {}, {}
  local m = exp.measures or M.STANDARD_MEASURES
  local standard = {}
  for _, name in ipairs(M.STANDARD_MEASURES) do standard[name] = true end
  for _, name in ipairs(m) do
    if not standard[name] then
      errorf("%s: unknown measure '%s' (recorded for every game: %s; add your own as name = function)",
             where, tostring(name), table.concat(M.STANDARD_MEASURES, ", "))
    end
    e.measures[#e.measures + 1] = name
  end
  for _, name in ipairs(sorted_keys(m)) do
    if math.type(name) ~= "integer" then
      if type(m[name]) ~= "function" then
        errorf("%s: measure '%s' must be a function(game) returning a number", where, tostring(name))
      end
      e.custom[#e.custom + 1] = { name = name, fn = m[name] }
      e.measures[#e.measures + 1] = name
    end
  end
  if type(exp.variants) ~= "table" or #exp.variants == 0 then
    errorf("%s: needs a list of variants", where)
  end
  e.variants = {}
  local seen = {}
  for i, v in ipairs(exp.variants) do
    local vw = ("%s: variant %d"):format(where, i)
    if type(v) ~= "table" or type(v.name) ~= "string" or v.name == "" then
      errorf("%s needs a name", vw)
    end
    if seen[v.name] then errorf("%s: two variants named '%s'", where, v.name) end
    seen[v.name] = true
    local rules = v.rules
    if rules ~= nil and type(rules) ~= "table" and type(rules) ~= "string" then
      errorf("%s (%s): rules must be a table or a preset name", vw, v.name)
    end
    e.variants[i] = {
      name = v.name, index = i,
      description = v.description,
      rules = merge_rules(e.base, rules),
      bots = normalize_bots(v.bots, vw) or e.bots,
      games = v.games and positive_int(v.games, vw .. ": games", true) or e.games,
      limits = v.limits or e.limits,
    }
  end
  return e
end

-- Reads an experiment file.
function M.load(path)
  local chunk, err = loadfile(path, "t")
  if not chunk then errorf("%s", err) end
  local ok, exp = pcall(chunk)
  if not ok then errorf("%s: %s", path, tostring(exp)) end
  return M.normalize(exp, path)
end

-- Raises unless every variant's rules make a board.
function M.check_rules(e)
  for _, v in ipairs(e.variants) do
    local ok, err = pcall(cheskers.new, nil, v.rules)
    if not ok then errorf("variant %s: %s", v.name, tostring(err)) end
  end
end

-- ---- the schedule ---------------------------------------------------------------

-- "2/4" -> 2, 4 (raises on a bad shard).
function M.parse_shard(text)
  local i, n = tostring(text):match("^(%d+)/(%d+)$")
  i, n = tonumber(i), tonumber(n)
  if not i or n < 1 or i < 1 or i > n then
    errorf("shard must be I/N with 1 <= I <= N, not '%s'", tostring(text))
  end
  return math.tointeger(i), math.tointeger(n)
end

-- The games of shard i of n: list of {variant = v, game = g}, in order.
function M.schedule(e, shard, nshards)
  shard, nshards = shard or 1, nshards or 1
  local list, k = {}, 0
  for _, v in ipairs(e.variants) do
    for g = 1, v.games do
      k = k + 1
      if (k - 1) % nshards == shard - 1 then list[#list + 1] = { variant = v, game = g } end
    end
  end
  return list
end

-- ---- one game --------------------------------------------------------------------

local function bump(t, k, n) t[k] = (t[k] or 0) + (n or 1) end

-- The legal move a bot's answer names, on board b.
local function resolve_move(b, answer, bot)
  if answer == nil then errorf("bot %s returned no move", bot.name) end
  local text = type(answer) == "string" and answer or tostring(answer)
  local m, err = b:parse(text)
  if not m then errorf("bot %s chose '%s': %s", bot.name, text, tostring(err)) end
  return m
end

-- Plays game g of variant v (normalized, bots loaded into v.botobj) and
-- returns its record (see LINE_KEYS). The game is a function of
-- (e.seed, v.name, g) alone.
function M.play_game(e, v, g, seed, with_moves)
  seed = seed or e.seed
  math.randomseed(M.game_seed(seed, v.name, g))
  local b = cheskers.new(nil, v.rules)
  local names = { white = v.bots.white, black = v.bots.black }
  local bots = { white = v.botobj.white, black = v.botobj.black }
  if e.swap_colors and g % 2 == 0 then
    names.white, names.black = names.black, names.white
    bots.white, bots.black = bots.black, bots.white
  end
  local rec = {
    v = M.FILE_VERSION, experiment = e.name, seed = seed, variant = v.name,
    vindex = v.index, game = g, white = names.white, black = names.black,
    first = b:turn(), captures = {}, captured = {}, promotions = {},
  }
  if with_moves then rec.start, rec.moves = b:fen(), {} end
  -- bots that keep state between games start afresh (a game must not
  -- depend on the games before it)
  for _, side in ipairs({ "white", "black" }) do
    local bot = bots[side]
    if bot.new_game and not (side == "black" and bots.black == bots.white) then
      bot.new_game(v.rules)
    end
  end
  local plies, bsum, bn = 0, 0, 0
  local every = e.branching_every
  local winner, reason
  while true do
    winner, reason = b:result()
    if winner then break end
    if plies >= e.max_plies then winner, reason = "draw", "max_plies"; break end
    local bot = bots[b:turn()]
    local m, moves
    if plies < e.random_plies then
      -- an opening move drawn at random, so that deterministic bots do not
      -- play the same game over and over
      moves = b:moves()
      if plies % every == 0 then bsum, bn = bsum + #moves, bn + 1 end
      m = random_choice(moves)
    elseif bot.builtin then
      moves = b:moves()
      if #moves == 0 then errorf("no legal move but no result in %s", b:fen()) end
      if plies % every == 0 then bsum, bn = bsum + #moves, bn + 1 end
      m = bot.choose(b, v.limits, moves)
    else
      if plies % every == 0 then bsum, bn = bsum + b:count(), bn + 1 end
      m = resolve_move(b, bot.choose(b:copy(), v.limits), bot)
    end
    for _, sq in ipairs(m.captures) do
      local piece = b:get(sq)
      bump(rec.captured, piece and piece:upper() or "?")
    end
    if #m.captures > 0 then bump(rec.captures, m.piece:upper(), #m.captures) end
    if m.promotion then bump(rec.promotions, m.promotion) end
    if with_moves then rec.moves[#rec.moves + 1] = tostring(m) end
    b:play(m)
    plies = plies + 1
  end
  rec.result, rec.reason, rec.plies = winner, tostring(reason), plies
  rec.branching_n, rec.branching_sum = bn, bsum
  rec.branching = bn > 0 and math.floor(bsum / bn * 1000 + 0.5) / 1000 or 0
  if #e.custom > 0 then
    rec.measures = {}
    for _, c in ipairs(e.custom) do
      local ok, val = pcall(c.fn, rec, b)
      if not ok then errorf("measure %s: %s", c.name, tostring(val)) end
      if type(val) ~= "number" then errorf("measure %s returned %s, not a number", c.name, type(val)) end
      rec.measures[c.name] = val
    end
  end
  return rec
end

-- ---- output folders ----------------------------------------------------------------

local function list_dir(dir)
  local names = {}
  local ok, lfs = pcall(require, "lfs")
  if ok then
    if not lfs.attributes(dir, "mode") then return names end
    for name in lfs.dir(dir) do names[#names + 1] = name end
  else
    local p = io.popen("ls -1A -- '" .. dir:gsub("'", "'\\''") .. "' 2>/dev/null")
    for name in p:lines() do names[#names + 1] = name end
    p:close()
  end
  table.sort(names)
  return names
end

-- The .jsonl files of a folder, sorted.
function M.result_files(dir)
  local files = {}
  for _, name in ipairs(list_dir(dir)) do
    if name:match("%.jsonl$") then files[#files + 1] = dir .. "/" .. name end
  end
  return files
end

-- cjson reads every number as a float: integral values back to integers.
local function integers(t)
  for k, v in pairs(t) do
    if type(v) == "table" then integers(v)
    elseif math.type(v) == "float" and v == math.floor(v) and math.abs(v) < 2^53 then
      t[k] = math.tointeger(v)
    end
  end
  return t
end

-- Reads the records of one file: list of records, number of unreadable
-- lines, whether the file ends with a torn line (no final newline).
function M.read_file(path)
  local f = io.open(path, "rb")
  if not f then return {}, 0, false end
  local data = f:read("a")
  f:close()
  local recs, bad = {}, 0
  local torn = #data > 0 and data:sub(-1) ~= "\n"
  for line in data:gmatch("([^\n]*)\n") do
    if line ~= "" then
      local ok, rec = pcall(cjson.decode, line)
      if ok and type(rec) == "table" and rec.experiment and rec.variant and rec.game then
        recs[#recs + 1] = integers(rec)
      else
        bad = bad + 1
      end
    end
  end
  if torn then bad = bad + 1 end
  return recs, bad, torn
end

-- Rewrites a file keeping only its complete, readable lines (through a
-- temporary file and a rename, so a crash leaves one or the other).
local function repair_file(path, recs)
  local tmp = path .. ".tmp"
  local f = assert(io.open(tmp, "wb"))
  for _, rec in ipairs(recs) do f:write(M.encode_record(rec), "\n") end
  assert(f:close())
  assert(os.rename(tmp, path))
end

local function mkdir_p(dir)
  local ok, lfs = pcall(require, "lfs")
  if ok and lfs.attributes(dir, "mode") == "directory" then return true end
  local rc = os.execute("mkdir -p -- '" .. dir:gsub("'", "'\\''") .. "'")
  return rc == true or rc == 0
end

function M.shard_file(dir, e, seed, shard, nshards)
  return ("%s/%s.seed%d.shard%dof%d.jsonl"):format(dir, e.name, seed, shard, nshards)
end

-- Checks the variants' rules and loads their bots (into v.botobj): what
-- play_game needs.
function M.prepare(e)
  M.check_rules(e)
  local search = e.path and { dirname(e.path) .. "/../bots" } or {}
  for _, v in ipairs(e.variants) do
    v.botobj = { white = M.load_bot(v.bots.white, search), black = M.load_bot(v.bots.black, search) }
  end
  return e
end

-- ---- one writer per shard file ----------------------------------------------

local function read_first_line(path)
  local f = io.open(path, "r")
  if not f then return nil end
  local l = f:read("l")
  f:close()
  return l
end

-- "pid@host" of this process (Linux /proc; "?" elsewhere).
local function owner_id()
  local stat = read_first_line("/proc/self/stat")
  local pid = stat and stat:match("^(%d+)") or "?"
  local host = read_first_line("/proc/sys/kernel/hostname") or os.getenv("HOSTNAME") or "?"
  return pid .. "@" .. host
end

local function make_dir(path)
  local ok, lfs = pcall(require, "lfs")
  if ok then return lfs.mkdir(path) == true end
  local rc = os.execute("mkdir -- '" .. path:gsub("'", "'\\''") .. "' 2>/dev/null")
  return rc == true or rc == 0
end

local function release(lock)
  os.remove(lock .. "/owner")
  os.remove(lock)
end

-- Takes the lock folder of a shard file (mkdir is atomic), so that two runs
-- of the same shard never write the same file at once. A lock left by a
-- dead process of this machine is taken over. Raises when another live
-- run holds it.
local function acquire(lock)
  local me = owner_id()
  for _ = 1, 2 do
    if make_dir(lock) then
      local f = io.open(lock .. "/owner", "w")
      if f then f:write(me, "\n") f:close() end
      return true
    end
    local owner = read_first_line(lock .. "/owner") or "?"
    local pid, host = owner:match("^(%d+)@(.*)$")
    local myhost = me:match("@(.*)$")
    local dead = pid and host == myhost and not io.open("/proc/" .. pid .. "/stat", "r")
    if not dead then
      errorf("%s is in use by another run (%s); if no such run is alive, remove that folder",
             lock, owner)
    end
    release(lock)
  end
  errorf("cannot take the lock %s", lock)
end

-- Runs shard `shard` of `nshards` of experiment e into folder dir.
-- opts: seed, games (overrides every variant's count), moves (record the
-- start position and the moves of each game), progress (function
-- (done, total, rec) or nil), stop (function returning true to stop early).
-- Returns a summary {played =, skipped =, total =, file =}. An error
-- (an interruption included) leaves every finished game recorded.
function M.run(e, dir, shard, nshards, opts)
  opts = opts or {}
  local seed = opts.seed or e.seed
  if opts.games then
    for _, v in ipairs(e.variants) do v.games = opts.games end
  end
  M.prepare(e)
  if not mkdir_p(dir) then errorf("cannot create folder %s", dir) end
  local out = M.shard_file(dir, e, seed, shard, nshards)
  local lock = out .. ".lock"
  acquire(lock)
  local f
  local ok, res = pcall(function()
    -- what is done already, in any file of the folder
    local done = {}
    for _, path in ipairs(M.result_files(dir)) do
      local recs, bad, torn = M.read_file(path)
      if path == out and (torn or bad > 0) then repair_file(path, recs) end
      for _, rec in ipairs(recs) do done[M.record_key(rec)] = true end
    end

    local todo = {}
    local list = M.schedule(e, shard, nshards)
    for _, item in ipairs(list) do
      local key = M.record_key({ experiment = e.name, seed = seed, variant = item.variant.name,
                                 game = item.game })
      if not done[key] then todo[#todo + 1] = item end
    end
    local summary = { total = #list, skipped = #list - #todo, played = 0, file = out }
    if #todo == 0 then return summary end

    local err
    f, err = io.open(out, "ab")
    if not f then errorf("cannot write %s: %s", out, tostring(err)) end
    f:setvbuf("full", 1 << 20)
    for _, item in ipairs(todo) do
      if opts.stop and opts.stop() then break end
      local okg, rec = pcall(M.play_game, e, item.variant, item.game, seed, opts.moves)
      if not okg then
        if cheskers.error_code(rec) == "interrupted" then error(rec, 0) end
        errorf("variant %s, game %d: %s", item.variant.name, item.game, tostring(rec))
      end
      -- one write of the whole line, then flush: a crash leaves at most one
      -- torn line at the end, which the next run drops
      f:write(M.encode_record(rec) .. "\n")
      f:flush()
      summary.played = summary.played + 1
      if opts.progress then opts.progress(summary.skipped + summary.played, summary.total, rec) end
    end
    return summary
  end)
  if f then f:close() end
  release(lock)
  if not ok then error(res, 0) end
  return res
end

-- ---- statistics ------------------------------------------------------------------------

M.Z95 = 1.959963984540054

-- Wilson score interval for k successes in n trials: low, high (0, 0 for n = 0).
function M.wilson(k, n, z)
  z = z or M.Z95
  if n == 0 then return 0, 0 end
  local p = k / n
  local z2 = z * z
  local denom = 1 + z2 / n
  local center = (p + z2 / (2 * n)) / denom
  local half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
  return math.max(0, center - half), math.min(1, center + half)
end

-- Difference of two proportions k1/n1 - k2/n2 with its 95% interval by
-- Newcombe's hybrid score method (method 10 of Newcombe 1998, built on
-- Wilson intervals): d, low, high. nil when a sample is empty.
function M.newcombe(k1, n1, k2, n2, z)
  if n1 == 0 or n2 == 0 then return nil end
  local p1, p2 = k1 / n1, k2 / n2
  local l1, u1 = M.wilson(k1, n1, z)
  local l2, u2 = M.wilson(k2, n2, z)
  local d = p1 - p2
  return d, d - math.sqrt((p1 - l1) ^ 2 + (u2 - p2) ^ 2), d + math.sqrt((u1 - p1) ^ 2 + (p2 - l2) ^ 2)
end

-- Quantile q (0..1) of a sorted list, linear interpolation between order
-- statistics (the "type 7" of Hyndman and Fan, R's default).
function M.quantile(sorted, q)
  local n = #sorted
  if n == 0 then return 0 end
  local h = (n - 1) * q + 1
  local lo = math.floor(h)
  if lo >= n then return sorted[n] end
  return sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo])
end

-- All records of a folder, one per game (duplicates dropped), sorted by
-- experiment, seed, variant order and game. Also returns warnings.
function M.read_dir(dir)
  local seen, recs, warnings = {}, {}, {}
  local files = M.result_files(dir)
  if #files == 0 then warnings[#warnings + 1] = "no .jsonl files in " .. dir end
  local conflicts = 0
  for _, path in ipairs(files) do
    local list, bad = M.read_file(path)
    if bad > 0 then
      warnings[#warnings + 1] = ("%s: %d unreadable line(s) skipped"):format(path, bad)
    end
    for _, rec in ipairs(list) do
      local key = M.record_key(rec)
      local prev = seen[key]
      if not prev then
        seen[key] = rec
        recs[#recs + 1] = rec
      elseif prev.result ~= rec.result or prev.plies ~= rec.plies then
        conflicts = conflicts + 1
      end
    end
  end
  if conflicts > 0 then
    warnings[#warnings + 1] = ("%d game(s) recorded twice with different outcomes "
                               .. "(non-deterministic bots?): the first kept"):format(conflicts)
  end
  table.sort(recs, function(a, b)
    if a.experiment ~= b.experiment then return a.experiment < b.experiment end
    if a.seed ~= b.seed then return a.seed < b.seed end
    if (a.vindex or 0) ~= (b.vindex or 0) then return (a.vindex or 0) < (b.vindex or 0) end
    if a.variant ~= b.variant then return a.variant < b.variant end
    return a.game < b.game
  end)
  return recs, warnings
end

local function add_counts(acc, t)
  for k, n in pairs(t or {}) do acc[k] = (acc[k] or 0) + n end
end

-- Per-variant statistics of sorted records: a list in order of appearance of
-- {experiment, variant, seeds, games, white, black, draw (counts),
--  rates = {white = {p, lo, hi}, ...}, plies = {mean, q1, median, q3, min, max},
--  lengths (sorted), branching, reasons (list of {reason, count}),
--  captures, captured, promotions (totals by kind), measures (means), bots}.
function M.summarize(recs)
  local groups, order = {}, {}
  for _, r in ipairs(recs) do
    local key = r.experiment .. "\0" .. r.variant
    local g = groups[key]
    if not g then
      g = { experiment = r.experiment, variant = r.variant, seeds = {}, games = 0,
            white = 0, black = 0, draw = 0, lengths = {}, bsum = 0, bn = 0,
            reasons = {}, captures = {}, captured = {}, promotions = {},
            msum = {}, mn = {}, bots = {}, first = {} }
      groups[key] = g
      order[#order + 1] = g
    end
    g.seeds[r.seed] = true
    g.games = g.games + 1
    if r.result == "white" or r.result == "black" or r.result == "draw" then
      g[r.result] = g[r.result] + 1
    end
    g.lengths[#g.lengths + 1] = r.plies
    g.bsum = g.bsum + (r.branching_sum or 0)
    g.bn = g.bn + (r.branching_n or 0)
    bump(g.reasons, r.reason or "?")
    add_counts(g.captures, r.captures)
    add_counts(g.captured, r.captured)
    add_counts(g.promotions, r.promotions)
    for k, x in pairs(r.measures or {}) do
      g.msum[k] = (g.msum[k] or 0) + x
      g.mn[k] = (g.mn[k] or 0) + 1
    end
    g.bots[(r.white or "?") .. " vs " .. (r.black or "?")] = true
    if r.first then g.first[r.first] = true end
  end
  for _, g in ipairs(order) do
    local n = g.games
    g.rates = {}
    for _, side in ipairs({ "white", "black", "draw" }) do
      local lo, hi = M.wilson(g[side], n)
      g.rates[side] = { p = n > 0 and g[side] / n or 0, lo = lo, hi = hi }
    end
    table.sort(g.lengths)
    local sum, sq = 0, 0
    for _, x in ipairs(g.lengths) do sum = sum + x end
    for _, x in ipairs(g.lengths) do sq = sq + (x - sum / n) ^ 2 end
    g.plies_var = n > 1 and sq / (n - 1) or 0
    g.plies = { mean = n > 0 and sum / n or 0, q1 = M.quantile(g.lengths, 0.25),
                median = M.quantile(g.lengths, 0.5), q3 = M.quantile(g.lengths, 0.75),
                min = g.lengths[1] or 0, max = g.lengths[#g.lengths] or 0 }
    g.branching = g.bn > 0 and g.bsum / g.bn or 0
    local reasons = {}
    for reason, count in pairs(g.reasons) do reasons[#reasons + 1] = { reason = reason, count = count } end
    table.sort(reasons, function(a, b)
      if a.count ~= b.count then return a.count > b.count end
      return a.reason < b.reason
    end)
    g.reasons = reasons
    g.measures = {}
    for _, k in ipairs(sorted_keys(g.msum)) do g.measures[k] = g.msum[k] / g.mn[k] end
    g.seed_list = sorted_keys(g.seeds)
    g.bot_list = sorted_keys(g.bots)
    g.first_list = sorted_keys(g.first)
  end
  return order
end

-- ---- the text report --------------------------------------------------------------------

local function pct(x) return ("%5.1f%%"):format(100 * x) end
local function rate_text(r)
  return ("%s [%4.1f, %5.1f]"):format(pct(r.p), 100 * r.lo, 100 * r.hi)
end
local function pad(s, n) return s .. string.rep(" ", math.max(0, n - #s)) end
local function diff_text(d, lo, hi)
  local sig = (lo > 0 or hi < 0) and "*" or " "
  return ("%+5.1f [%+5.1f, %+5.1f]%s"):format(d, lo, hi, sig)
end
local function num(x)
  if math.type(x) == "integer" or x == math.floor(x) then return ("%d"):format(math.floor(x)) end
  return ("%.1f"):format(x)
end

local function counts_text(t, games)
  local parts = {}
  for _, k in ipairs(sorted_keys(t)) do
    parts[#parts + 1] = ("%s %.2f"):format(k, games > 0 and t[k] / games or 0)
  end
  return #parts > 0 and table.concat(parts, "  ") or "-"
end

-- The report text for summarize()'s list.
function M.format_report(stats)
  local out = {}
  local function say(fmt, ...) out[#out + 1] = fmt:format(...) end
  local w = 12
  for _, g in ipairs(stats) do w = math.max(w, #g.variant, 3 + #g.variant) end
  local current
  for _, g in ipairs(stats) do
    if g.experiment ~= current then
      current = g.experiment
      local n, games = 0, 0
      for _, h in ipairs(stats) do
        if h.experiment == current then n, games = n + 1, games + h.games end
      end
      if #out > 0 then say("") end
      say("experiment %s: %d variant%s, %d games", current, n, n == 1 and "" or "s", games)
      say("")
      say("%s %6s  %-22s  %-22s  %s", pad("variant", w), "games",
          "white wins [95% CI]", "black wins [95% CI]", "draws [95% CI]")
      for _, h in ipairs(stats) do
        if h.experiment == current then
          say("%s %6d  %-22s  %-22s  %s", pad(h.variant, w), h.games,
              rate_text(h.rates.white), rate_text(h.rates.black), rate_text(h.rates.draw))
        end
      end
      local base
      for _, h in ipairs(stats) do
        if h.experiment == current then
          if not base then
            base = h
            say("")
            say("%s %6s  %-22s  %-22s  %-22s  %s", pad("vs " .. h.variant, w), "", "white wins",
                "black wins", "draws", "mean plies")
          else
            local cells = {}
            for _, side in ipairs({ "white", "black", "draw" }) do
              local d, lo, hi = M.newcombe(h[side], h.games, base[side], base.games)
              cells[#cells + 1] = d and diff_text(100 * d, 100 * lo, 100 * hi) or "-"
            end
            local dm = h.plies.mean - base.plies.mean
            local se = math.sqrt(h.plies_var / math.max(1, h.games) + base.plies_var / math.max(1, base.games))
            cells[#cells + 1] = (h.games > 1 and base.games > 1)
              and diff_text(dm, dm - M.Z95 * se, dm + M.Z95 * se) or ("%+5.1f"):format(dm)
            say("%s %6s  %-22s  %-22s  %-22s  %s", pad(h.variant, w), "", cells[1], cells[2], cells[3], cells[4])
          end
        end
      end
      if base then
        local nv = 0
        for _, h in ipairs(stats) do if h.experiment == current then nv = nv + 1 end end
        if nv > 1 then
          say("(differences from %s: rates in points, Newcombe 95%% CI; mean length in plies,", base.variant)
          say(" Welch 95%% CI; * when the interval excludes 0)")
        else
          out[#out] = nil   -- one variant: no comparison header
          out[#out] = nil
        end
      end
      say("")
      say("%s %7s %6s %6s %6s %6s %6s  %9s", pad("plies", w), "mean", "q1", "median", "q3",
          "min", "max", "branching")
      for _, h in ipairs(stats) do
        if h.experiment == current then
          local p = h.plies
          say("%s %7.1f %6s %6s %6s %6d %6d  %9.2f", pad(h.variant, w), p.mean, num(p.q1),
              num(p.median), num(p.q3), p.min, p.max, h.branching)
        end
      end
      say("")
      say("how games ended (games), pieces per game (captured by / lost / promoted to)")
      for _, h in ipairs(stats) do
        if h.experiment == current then
          local parts = {}
          for _, r in ipairs(h.reasons) do parts[#parts + 1] = ("%s %d"):format(r.reason, r.count) end
          say("%s ended: %s", pad(h.variant, w), table.concat(parts, ", "))
          say("%s captures by: %s", pad("", w), counts_text(h.captures, h.games))
          say("%s lost:        %s", pad("", w), counts_text(h.captured, h.games))
          say("%s promoted to: %s", pad("", w), counts_text(h.promotions, h.games))
          if next(h.measures) then
            local ms = {}
            for _, k in ipairs(sorted_keys(h.measures)) do ms[#ms + 1] = ("%s %.3f"):format(k, h.measures[k]) end
            say("%s measures:    %s", pad("", w), table.concat(ms, "  "))
          end
          say("%s bots %s; moves first: %s; seed %s", pad("", w), table.concat(h.bot_list, ", "),
              table.concat(h.first_list, ", "), table.concat(h.seed_list, ", "))
        end
      end
    end
  end
  if #out == 0 then out[1] = "no games" end
  return table.concat(out, "\n") .. "\n"
end

return M
