-- cheskers.match: bot against bot, game after game (the library behind
-- `cheskers match`).
--
--   match.load_bot(spec, options) -> bot   "greedy", "engine:level=3", "my/bot.lua:depth=2"
--                                          (options.sandbox: load the file in the sandbox)
--   match.run(cfg) -> summary               plays the match (fields of cfg below)
--   match.play_game(cfg, bots, game) -> result
--   match.elo(w, d, l) -> elo, lo, hi       Elo difference with a 95% interval
--   match.sprt(w, d, l, elo0, elo1, alpha, beta) -> llr, lower, upper, decision
--   match.table(summary) -> text            the final table
--
-- A bot is a Lua file returning
--   { name = "...", choose = function(board, limits) return move end,
--     new_game = function(rules) end,      -- optional
--     configure = function(options) end }  -- optional: "NAME:k=v,k=v" options
-- choose gets a copy of the board and limits = { nodes =, time = } (the
-- budget for this move, either may be nil); it returns a move object or a
-- move text. A bot that raises, returns no move or an illegal one, or
-- overruns its time loses that game; the reason is recorded and the match
-- goes on.
--
-- cfg: a, b (bot specs or bot tables), games (default 2), rules (what
-- cheskers.new accepts), seed (default 1), nodes, time (the per-move
-- budget), move_timeout (hard limit a move, seconds: default 3 * time + 1,
-- or 30), openings (array of {fen =, moves = {text...}}), opening_plies
-- (random plies when there are no openings: default 4), max_plies (default
-- 400), repetition (the N-th occurrence of a position is a draw: default 3,
-- 0 off), out (JSON lines file: a header line, then one line per game,
-- written as each game ends), records (game records file, appended),
-- resume (continue the match in out), sprt = {elo0, elo1, alpha, beta},
-- progress (function(summary, result) after each game), log (function(msg)),
-- sandbox (load the bot files in the sandbox: see "the bot sandbox" below).

local cheskers = require "cheskers"

local match = {}

local call_bot        -- defined with the games below

local function first_line(s)
  return (tostring(s):match("^[^\n]*"))
end


local ok_rl, rl = pcall(require, "cheskers.readline")
local clock = os.clock        -- CPU seconds: what a bot spends
match.wallclock = ok_rl and rl.now or os.time

-- ---- bots ----------------------------------------------------------------------

-- Directories searched for bots by name: scripts/bots/ of the working
-- directory, then of the source tree this module belongs to.
function match.bot_dirs()
  local dirs = { "scripts/bots/" }
  local src = debug.getinfo(1, "S").source
  local here = src:sub(1, 1) == "@" and src:sub(2):match("^(.*)/[^/]*$")
  if here then
    dirs[#dirs + 1] = here .. "/../../scripts/bots/"   -- lua/cheskers/ -> repo
    dirs[#dirs + 1] = here .. "/../../../cheskers/bots/"  -- share/lua/5.4/cheskers/ -> share/cheskers/bots
  end
  return dirs
end

local function file_exists(path)
  local f = io.open(path, "r")
  if f then f:close() return true end
  return false
end

-- "engine:level=3,mobility=2" -> "engine", {level = "3", mobility = "2"}
local function split_spec(spec)
  local name, rest = spec:match("^(.-):([^/]*)$")
  if not name or name == "" or not rest:find("=") then return spec, {} end
  local opts = {}
  for k, v in rest:gmatch("([%w_]+)=([^,]*)") do opts[k] = v end
  return name, opts
end

-- The names of the bots in the bot directories.
function match.bot_names()
  local names, seen = {}, {}
  if ok_rl then
    for _, dir in ipairs(match.bot_dirs()) do
      for _, f in ipairs(rl.listdir(dir) or {}) do
        local n = f:match("^(.+)%.lua$")
        if n and not seen[n] then seen[n] = true; names[#names + 1] = n end
      end
    end
  end
  table.sort(names)
  return names
end

-- ---- the bot sandbox (--sandbox) ------------------------------------------------
--
-- A sandboxed bot file is compiled as text only into an environment of its
-- own: no io, os (but os.clock, os.time, os.difftime), require (but
-- require "cheskers"), package, load, loadfile, dofile, debug,
-- collectgarbage, print, coroutine, getmetatable of strings or userdata,
-- setmetatable with __gc, string patterns (find, match, gmatch, gsub: they
-- can run for ages in C, out of reach of the hook). The cheskers module is
-- there (a copy, without cheskers.engine.deadline and cheskers.interrupt).
-- Each call into the bot (the file itself, configure, new_game, choose)
-- runs under a count hook bounding its Lua instructions and under the
-- allocator cap of cheskers.sandbox (lua/lsandbox.c, as puzzle files). A
-- violation, even one the bot catches with pcall, loses the game: reason
-- "error", detail "sandbox: ...".

local has_sandbox, sandbox = pcall(require, "cheskers.sandbox")
if not has_sandbox then sandbox = nil end

match.SANDBOX = {
  max_source = 1024 * 1024,        -- bytes of bot file
  max_instructions = 1000000000,   -- Lua VM instructions per call (about 3-10 s)
  max_memory_kb = 128 * 1024,      -- memory growth per call
}

local SAFE_GLOBALS = { "assert", "error", "ipairs", "next", "pairs", "rawequal", "rawget",
                       "rawlen", "rawset", "select", "tonumber", "tostring", "type" }
local SAFE_LIBS = {
  math = { "abs", "ceil", "exp", "floor", "fmod", "huge", "log", "max", "maxinteger", "min",
           "mininteger", "modf", "pi", "random", "randomseed", "sqrt", "tointeger", "type",
           "ult", "sin", "cos", "tan", "asin", "acos", "atan" },
  string = { "byte", "char", "format", "len", "lower", "rep", "reverse", "sub", "upper" },
  table = { "concat", "insert", "move", "pack", "remove", "sort", "unpack" },
  utf8 = { "char", "charpattern", "codepoint", "len", "offset" },
  os = { "clock", "time", "difftime" },
}

local function copy_fields(src, names)
  local t = {}
  for _, k in ipairs(names) do t[k] = src[k] end
  return t
end

-- the string methods while a sandboxed bot runs (no patterns)
-- (runner code that runs meanwhile, the hook and the message handler, calls
-- string functions directly)
local active_box                 -- the box of the sandboxed call running
local SAFE_STRING = copy_fields(string, SAFE_LIBS.string)
setmetatable(SAFE_STRING, { __index = function(_, k)
  local msg = "sandbox: string method '" .. tostring(k) .. "' is not available"
  if active_box then active_box.why = active_box.why or msg end
  error(msg, 2)
end })

-- Records the first violation of a bot (it loses even if it catches the
-- error) and raises it.
local function violation(box, msg, level)
  box.why = box.why or msg
  error(msg, level and level + 1 or 0)
end

local function guard(box, lib, t)
  return setmetatable(t, { __metatable = false, __index = function(_, k)
    violation(box, "sandbox: '" .. lib .. tostring(k) .. "' is not available", 2)
  end })
end

-- The cheskers module as a bot sees it.
local function safe_cheskers(box)
  local c = {}
  for k, v in pairs(cheskers) do c[k] = v end
  c.interrupt = nil
  c.deadline = nil    -- the deadline that bounds the bot's own C calls
  local eng = {}
  for k, v in pairs(cheskers.engine or {}) do eng[k] = v end
  eng.deadline = nil
  c.engine = eng
  if type(cheskers.SQUARES) == "table" then
    c.SQUARES = {}
    for k, v in pairs(cheskers.SQUARES) do c.SQUARES[k] = v end
  end
  return c
end

local function new_env(box)
  local env = {}
  for _, k in ipairs(SAFE_GLOBALS) do env[k] = _G[k] end
  for lib, names in pairs(SAFE_LIBS) do
    env[lib] = guard(box, lib .. ".", copy_fields(_G[lib], names))
  end
  env.cheskers = safe_cheskers(box)
  env.require = function(name)
    if name == "cheskers" then return env.cheskers end
    violation(box, "sandbox: require('" .. tostring(name) .. "') is not available", 2)
  end
  env.getmetatable = function(v)
    if type(v) ~= "table" then
      violation(box, "sandbox: 'getmetatable' of a " .. type(v) .. " is not available", 2)
    end
    return getmetatable(v)
  end
  env.setmetatable = function(t, mt)
    if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
      violation(box, "sandbox: '__gc' is not available", 2)
    end
    return setmetatable(t, mt)
  end
  -- a caught violation (or the hook's limits) is not forgiven
  local function rethrow(ok, ...)
    if box.stop then error(box.stop, 0) end
    if not ok and (...) == "not enough memory" then
      box.why = box.why or box.memory_msg
      error(box.why, 0)
    end
    return ok, ...
  end
  env.pcall = function(f, ...) return rethrow(pcall(f, ...)) end
  env.xpcall = function(f, h, ...) return rethrow(xpcall(f, h, ...)) end
  env._G = env
  return guard(box, "", env)
end

local function new_box()
  local S = match.SANDBOX
  return {
    max_instructions = S.max_instructions, max_memory_kb = S.max_memory_kb,
    memory_msg = string.format("sandbox: memory limit (more than %d KiB)", S.max_memory_kb),
  }
end

-- Loads a bot file in the sandbox (see above): the bot table, or raises.
local function load_sandboxed(path, spec, name, opts)
  local f, err = io.open(path, "rb")
  if not f then error("bot " .. spec .. ": " .. tostring(err), 0) end
  local text = f:read(match.SANDBOX.max_source + 1) or ""
  f:close()
  if #text > match.SANDBOX.max_source then
    error(string.format("bot %s: file too large for --sandbox (more than %d bytes)", spec, match.SANDBOX.max_source), 0)
  end
  if text:byte(1) == 27 then error("bot " .. spec .. ": a binary chunk; sandboxed bots must be text", 0) end
  local box = new_box()
  local chunk, cerr = load(text, "@" .. path, "t", new_env(box))
  if not chunk then error("bot " .. spec .. ": " .. tostring(cerr), 0) end
  local r = call_bot(30, box, chunk)
  if not r[1] then error("bot " .. spec .. ": " .. first_line(r[2]), 0) end
  local t = r[2]
  if type(t) ~= "table" or type(rawget(t, "choose")) ~= "function" then
    error("bot " .. spec .. ": the file must return a table with a choose function", 0)
  end
  local fns = {}
  for _, k in ipairs({ "choose", "new_game", "configure" }) do
    local v = rawget(t, k)
    if v ~= nil and type(v) ~= "function" then error("bot " .. spec .. ": " .. k .. " must be a function", 0) end
    fns[k] = v
  end
  if next(opts) then
    if not fns.configure then error("bot " .. spec .. ": takes no options", 0) end
    local rc = call_bot(30, box, fns.configure, opts)
    if not rc[1] then error("bot " .. spec .. ": " .. first_line(rc[2]), 0) end
  end
  -- the name may be set by configure; only a plain short string is taken
  local bname = rawget(t, "name")
  bname = type(bname) == "string" and bname ~= "" and bname:sub(1, 60) or name
  return { name = bname, spec = spec, choose = fns.choose, new_game = fns.new_game,
           configure = fns.configure, box = box }
end

-- Loads a fresh instance of a bot (each load runs the file again, so two
-- instances never share state). Raises with a message when it cannot.
-- options.sandbox: load a bot file in the sandbox (a table is taken as it is).
function match.load_bot(spec, options)
  if type(spec) == "table" then return spec end
  local name, opts = split_spec(spec)
  local path
  if name:find("/") or name:match("%.lua$") then
    path = name
  else
    for _, dir in ipairs(match.bot_dirs()) do
      if file_exists(dir .. name .. ".lua") then path = dir .. name .. ".lua" break end
    end
    if not path then
      local known = match.bot_names()
      error(string.format("unknown bot '%s'%s", name,
        #known > 0 and (" (bots: " .. table.concat(known, ", ") .. ")") or ""), 0)
    end
  end
  if options and options.sandbox then return load_sandboxed(path, spec, name, opts) end
  local chunk, err = loadfile(path)
  if not chunk then error("bot " .. spec .. ": " .. err, 0) end
  local ok, bot = pcall(chunk)
  if not ok then error("bot " .. spec .. ": " .. tostring(bot), 0) end
  if type(bot) ~= "table" or type(bot.choose) ~= "function" then
    error("bot " .. spec .. ": the file must return a table with a choose function", 0)
  end
  if next(opts) then
    if type(bot.configure) ~= "function" then
      error("bot " .. spec .. ": takes no options", 0)
    end
    local okc, cerr = pcall(bot.configure, opts)
    if not okc then error("bot " .. spec .. ": " .. tostring(cerr), 0) end
  end
  bot.name = bot.name or name
  bot.spec = spec
  return bot
end

-- ---- statistics -------------------------------------------------------------------

local function expected(elo) return 1 / (1 + 10 ^ (-elo / 400)) end
local function elo_of(s)
  if s <= 0 then return -math.huge end
  if s >= 1 then return math.huge end
  return -400 * math.log(1 / s - 1, 10)
end

-- Elo difference for w wins, d draws, l losses, with its 95% interval.
function match.elo(w, d, l)
  local n = w + d + l
  if n == 0 then return 0, -math.huge, math.huge end
  local s = (w + d / 2) / n
  local var = (w * (1 - s) ^ 2 + d * (0.5 - s) ^ 2 + l * s ^ 2) / n
  if var == 0 then
    -- every game the same result: the variance of the counts with half a
    -- game added to each outcome, so that the interval has a finite end
    local rw, rd, rl_ = w + 0.5, d + 0.5, l + 0.5
    local rs = (rw + rd / 2) / (rw + rd + rl_)
    var = (rw * (1 - rs) ^ 2 + rd * (0.5 - rs) ^ 2 + rl_ * rs ^ 2) / (rw + rd + rl_)
  end
  local se = math.sqrt(var / n)
  return elo_of(s), elo_of(s - 1.96 * se), elo_of(s + 1.96 * se)
end

-- Sequential probability ratio test of H0: elo = elo0 against H1: elo =
-- elo1 (a normal approximation of the trinomial GSPRT). decision: "H1"
-- (accept elo1: the first bot is stronger), "H0", or nil (go on).
function match.sprt(w, d, l, elo0, elo1, alpha, beta)
  alpha, beta = alpha or 0.05, beta or 0.05
  local lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
  local n = w + d + l
  if n == 0 then return 0, lower, upper, nil end
  local s = (w + d / 2) / n
  -- the variance from counts with half a game added to each outcome, so
  -- that it is never 0 (all wins) early on
  local rw, rd, rl_ = w + 0.5, d + 0.5, l + 0.5
  local rn = rw + rd + rl_
  local rs = (rw + rd / 2) / rn
  local var = (rw * (1 - rs) ^ 2 + rd * (0.5 - rs) ^ 2 + rl_ * rs ^ 2) / rn
  local s0, s1 = expected(elo0), expected(elo1)
  local llr = (s1 - s0) * (2 * n * s - n * (s0 + s1)) / (2 * var)
  local decision = llr >= upper and "H1" or llr <= lower and "H0" or nil
  return llr, lower, upper, decision
end

-- ---- openings ------------------------------------------------------------------------

-- Reads an openings file: one opening a line, a position text (it has a
-- '/') or moves from the start position separated by spaces (move numbers
-- skipped). Blank lines and lines starting with # are skipped.
function match.read_openings(path)
  local f, err = io.open(path, "r")
  if not f then return nil, err end
  local list = {}
  local n = 0
  for line in f:lines() do
    n = n + 1
    line = line:gsub("^%s+", ""):gsub("%s+$", "")
    if line ~= "" and not line:match("^#") then
      if line:find("/") then
        list[#list + 1] = { fen = line, line = n }
      else
        local moves = {}
        for w in line:gmatch("%S+") do
          if not w:match("^%d+%.+$") then moves[#moves + 1] = w end
        end
        list[#list + 1] = { moves = moves, line = n }
      end
    end
  end
  f:close()
  if #list == 0 then return nil, path .. ": no openings" end
  return list
end

-- A small generator of its own (splitmix64), so that openings do not depend
-- on what bots do with math.random. Returns a function(n) -> 1..n.
local function rng(seed)
  local s = seed
  return function(n)
    s = s + 0x9E3779B97F4A7C15
    local z = s
    z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ~ (z >> 27)) * 0x94D049BB133111EB
    z = z ~ (z >> 31)
    return (z >> 1) % n + 1
  end
end

-- The board for game `game`: games 2k-1 and 2k share an opening.
function match.opening_board(cfg, game)
  local pair = (game - 1) // 2
  if cfg.openings and #cfg.openings > 0 then
    local o = cfg.openings[pair % #cfg.openings + 1]
    local b = cheskers.new(o.fen, cfg.rules)
    for _, t in ipairs(o.moves or {}) do
      local m, err = b:parse(t)
      if not m then error(string.format("opening line %d: %s", o.line or 0, err), 0) end
      b:play(m)
    end
    return b
  end
  local plies = cfg.opening_plies or 4
  local random = rng(((cfg.seed or 1) * 1000003 + pair) * 7919)
  for _ = 1, 20 do
    local b = cheskers.new(nil, cfg.rules)
    for _ = 1, plies do
      local moves = b:moves()
      if #moves == 0 then break end
      b:play(moves[random(#moves)])
    end
    if not b:result() then return b end
  end
  return cheskers.new(nil, cfg.rules)
end

-- ---- one game ---------------------------------------------------------------------------

local TIMEOUT = setmetatable({}, { __tostring = function() return "time budget exceeded" end })

local INTERRUPTED = {}

local function is_interrupt(e)
  return cheskers.error_code(e) == "interrupted"
end

-- Calls fn(...) protected, raising TIMEOUT from a count hook once `cap`
-- CPU seconds have passed (Lua code only; C work is measured afterwards).
-- Ctrl-C (an "interrupted" error) is not the bot's fault: it stops the match.
-- box: a sandboxed bot's limits (nil: none); then the call also runs under
-- the instruction budget, the memory cap and the safe string methods, and a
-- violation recorded in box.why makes it fail with that message.
-- Returns { ok, results or message... }.
function call_bot(cap, box, fn, ...)
  local deadline = clock() + cap
  -- C searches (b:search) cannot run the hook: they get a deadline instead
  local engine = cheskers.engine
  if engine and engine.deadline then engine.deadline(cap) end
  local count, max = 0, box and box.max_instructions // 1000
  if box then box.why, box.stop = nil, nil end
  debug.sethook(function()
    if box then
      count = count + 1
      if count > max then
        box.why = box.why or string.format("sandbox: instruction limit (more than %d)", box.max_instructions)
        box.stop = box.why
        error(box.stop, 0)
      end
      if clock() > deadline then box.stop = TIMEOUT error(TIMEOUT, 0) end
    elseif clock() > deadline then error(TIMEOUT, 0) end
  end, "", 1000)
  local function handler(e)
    if e == TIMEOUT or cheskers.error_code(e) == "timeout" then return TIMEOUT end
    if is_interrupt(e) then return INTERRUPTED end
    return debug.traceback(tostring(e), 2)
  end
  local res
  if box then
    local strmeta = getmetatable("")
    local saved = strmeta.__index
    strmeta.__index = SAFE_STRING
    active_box = box
    if sandbox then
      local r = table.pack(sandbox.run(box.max_memory_kb * 1024, xpcall, fn, handler, ...))
      strmeta.__index, active_box = saved, nil
      if r[1] then res = table.pack(table.unpack(r, 2, r.n)) else res = { false, r[2], n = 2 } end
    else
      res = table.pack(xpcall(fn, handler, ...))
      strmeta.__index, active_box = saved, nil
    end
  else
    res = table.pack(xpcall(fn, handler, ...))
  end
  debug.sethook()
  if engine and engine.deadline then engine.deadline(nil) end
  if res[2] == INTERRUPTED then error("interrupted", 0) end
  if box then
    if not res[1] and type(res[2]) == "string" and res[2]:find("not enough memory", 1, true) then
      box.why = box.why or box.memory_msg
    end
    if box.stop == TIMEOUT and not box.why then
      res = { false, TIMEOUT, n = 2 }
    elseif box.why then
      res = { false, box.why, n = 2 }
      collectgarbage()
    end
  end
  return res
end

-- Plays game number `game` between bots[1] (a) and bots[2] (b). Returns a
-- result table: game, white, black (bot names), a_color, winner ("white",
-- "black", "draw"), reason, detail (for faults), plies, moves (texts),
-- opening (its moves or position), score_a (1, 0.5, 0), time.
function match.play_game(cfg, bots, game)
  local t0 = match.wallclock()
  local a_white = game % 2 == 1
  local white, black = bots[1], bots[2]
  if not a_white then white, black = black, white end
  local board = match.opening_board(cfg, game)
  local rules = board:rules()
  local opening = {}
  for i, m in ipairs(board:history()) do opening[i] = tostring(m) end
  local res = {
    game = game, white = white.name, black = black.name,
    a_color = a_white and "white" or "black",
    opening = #opening > 0 and table.concat(opening, " ") or board:fen(),
  }
  local by_color = { white = white, black = black }
  local function forfeit(color, reason, detail)
    res.winner = color == "white" and "black" or "white"
    res.reason, res.detail = reason, detail and first_line(detail)
  end
  math.randomseed(cfg.seed or 1, game)
  for _, color in ipairs({ "white", "black" }) do
    local bot = by_color[color]
    if bot.new_game and not res.winner then
      local r = call_bot(cfg.move_timeout or 30, bot.box, bot.new_game, rules)
      if not r[1] then forfeit(color, r[2] == TIMEOUT and "time" or "error", r[2]) end
    end
  end
  local limits = { nodes = cfg.nodes, time = cfg.time }
  local cap = cfg.move_timeout or (cfg.time and cfg.time * 3 + 1) or 30
  local seen = {}
  local max_plies = cfg.max_plies or 400
  local repetition = cfg.repetition or 3
  local moves = {}
  while not res.winner do
    local winner, reason = board:result()
    if winner then
      res.winner, res.reason = winner, reason
      break
    end
    if #moves >= max_plies then
      res.winner, res.reason = "draw", "max plies"
      break
    end
    local h = board:hash()
    seen[h] = (seen[h] or 0) + 1
    if repetition > 0 and seen[h] >= repetition then
      res.winner, res.reason = "draw", "repetition"
      break
    end
    local color = board:turn()
    local bot = by_color[color]
    local c0 = clock()
    local r = call_bot(cap, bot.box, bot.choose, board:copy(), { nodes = limits.nodes, time = limits.time })
    local spent = clock() - c0
    if not r[1] then
      forfeit(color, r[2] == TIMEOUT and "time" or "error", r[2])
      break
    end
    if spent > cap then
      forfeit(color, "time", string.format("%.2f s for one move (limit %.2f s)", spent, cap))
      break
    end
    local mv = r[2]
    local tm = type(mv)
    if mv == nil then
      forfeit(color, "no move", "choose returned nothing")
      break
    end
    local text = (tm == "string" or tm == "userdata") and tostring(mv) or nil
    local m, err
    if text then m, err = board:parse(text) else err = "not a move (" .. tm .. ")" end
    if not m then
      forfeit(color, "illegal move", (text and (text .. ": ") or "") .. tostring(err))
      break
    end
    board:play(m)
    moves[#moves + 1] = tostring(m)
  end
  res.plies = #moves
  res.moves = moves
  res.score_a = res.winner == "draw" and 0.5 or ((res.winner == "white") == a_white and 1 or 0)
  res.time = match.wallclock() - t0
  res.board = board
  return res
end

-- ---- the match ------------------------------------------------------------------------

local RESULT_TOKEN = { white = "1-0", black = "0-1", draw = "1/2-1/2" }

local function new_summary(cfg, bots)
  return {
    a = bots[1].name, b = bots[2].name, games = cfg.games or 2, played = 0,
    wins = 0, draws = 0, losses = 0, reasons = {}, results = {},
  }
end

local function add_result(sum, r)
  sum.played = sum.played + 1
  if r.score_a == 1 then sum.wins = sum.wins + 1
  elseif r.score_a == 0 then sum.losses = sum.losses + 1
  else sum.draws = sum.draws + 1 end
  sum.reasons[r.reason] = (sum.reasons[r.reason] or 0) + 1
  sum.results[#sum.results + 1] = r
end

-- The header line of a results file: what must agree for --resume.
local function header(cfg, bots)
  return {
    match = {
      a = bots[1].spec or bots[1].name, b = bots[2].spec or bots[2].name,
      games = cfg.games, seed = cfg.seed or 1, nodes = cfg.nodes, time = cfg.time,
      rules = type(cfg.rules) == "string" and cfg.rules or nil,
      rules_text = cfg.rules_text,
      max_plies = cfg.max_plies or 400, repetition = cfg.repetition or 3,
      opening_plies = cfg.opening_plies or 4, openings = cfg.openings_file,
    },
  }
end

-- Reads a results file for --resume: the header and the complete result
-- lines (a line cut short by a kill is dropped). Returns header, results.
function match.read_results(path)
  local json = require "cjson.safe"
  local f = io.open(path, "r")
  if not f then return nil, nil end
  local head, results = nil, {}
  for line in f:lines() do
    local t = json.decode(line)
    if type(t) == "table" then
      if t.match then head = head or t
      elseif math.type(t.game) == "integer" and t.winner then results[#results + 1] = t end
    end
  end
  f:close()
  return head, results
end

-- Runs the match. Returns the summary: a, b (names), games, played, wins,
-- draws, losses (of a), reasons (reason -> count), results, elo, elo_lo,
-- elo_hi, sprt = {llr, lower, upper, decision} when asked.
function match.run(cfg)
  local json = require "cjson"
  local log = cfg.log or function() end
  local bopts = { sandbox = cfg.sandbox }
  local bots = { match.load_bot(cfg.a, bopts), match.load_bot(cfg.b, bopts) }
  if bots[1].name == bots[2].name then
    -- the same bot twice: tell them apart by their specs, else by number
    local s1, s2 = type(cfg.a) == "string" and cfg.a, type(cfg.b) == "string" and cfg.b
    local n1, n2 = bots[1].name .. "#1", bots[2].name .. "#2"
    if s1 and s2 and s1 ~= s2 then n1, n2 = s1, s2 end
    bots[1] = setmetatable({ name = n1 }, { __index = bots[1] })
    bots[2] = setmetatable({ name = n2 }, { __index = bots[2] })
  end
  local sum = new_summary(cfg, bots)
  local head = header(cfg, bots)
  local start = 1
  local out
  if cfg.out then
    local old_head, old = nil, {}
    if cfg.resume then old_head, old = match.read_results(cfg.out) end
    if cfg.resume and old_head then
      for _, k in ipairs({ "a", "b", "seed", "nodes", "time", "rules", "rules_text" }) do
        if old_head.match[k] ~= head.match[k] and not (old_head.match[k] == json.null and head.match[k] == nil) then
          error(string.format("--resume: %s differs from the results file (%s there, %s here)",
            k, tostring(old_head.match[k]), tostring(head.match[k])), 0)
        end
      end
      table.sort(old, function(x, y) return x.game < y.game end)
      for _, r in ipairs(old) do
        if r.game == start and r.game <= sum.games then
          add_result(sum, r)
          start = start + 1
        end
      end
      log(string.format("resuming after game %d", start - 1))
    end
    -- rewrite the file with what is kept (drops a line cut short)
    local tmp = cfg.out .. ".tmp"
    local f = assert(io.open(tmp, "w"))
    f:write(json.encode(cfg.resume and old_head or head), "\n")
    for _, r in ipairs(sum.results) do f:write(json.encode(r), "\n") end
    f:close()
    assert(os.rename(tmp, cfg.out))
    out = assert(io.open(cfg.out, "a"))
    out:setvbuf("line")
  end
  local records
  if cfg.records then records = assert(io.open(cfg.records, cfg.resume and "a" or "w")) end
  local record = require "cheskers.record"

  for game = start, sum.games do
    local r = match.play_game(cfg, bots, game)
    local board = r.board
    r.board = nil
    if out then
      out:write(json.encode(r), "\n")
      out:flush()
    end
    if records then
      local tags = {
        Event = "cheskers match", Round = game, White = r.white, Black = r.black,
        Result = RESULT_TOKEN[r.winner], Termination = r.reason,
      }
      if r.detail then tags.Annotator = r.detail end
      records:write(record.write(board, tags), "\n")
      records:flush()
    end
    add_result(sum, r)
    if cfg.sprt then
      local s = cfg.sprt
      local llr, lo, hi, decision = match.sprt(sum.wins, sum.draws, sum.losses, s.elo0, s.elo1, s.alpha, s.beta)
      sum.sprt = { llr = llr, lower = lo, upper = hi, decision = decision }
    end
    if cfg.progress then cfg.progress(sum, r) end
    if sum.sprt and sum.sprt.decision then break end
  end
  if out then out:close() end
  if records then records:close() end
  sum.elo, sum.elo_lo, sum.elo_hi = match.elo(sum.wins, sum.draws, sum.losses)
  return sum
end

-- ---- text ------------------------------------------------------------------------------

local function elo_text(e)
  if e == math.huge then return "+inf" end
  if e == -math.huge then return "-inf" end
  if math.abs(e) < 0.5 then return "0" end
  return string.format("%+.0f", e)
end

-- "game 12/100  engine +9 =1 -2  79.2%  Elo +230 [+120, +inf]"
function match.progress_line(sum, r)
  local n = sum.played
  local s = n > 0 and (sum.wins + sum.draws / 2) / n * 100 or 0
  local e, lo, hi = match.elo(sum.wins, sum.draws, sum.losses)
  local line = string.format("game %d/%d  %s +%d =%d -%d  %.1f%%  Elo %s [%s, %s]",
    n, sum.games, sum.a, sum.wins, sum.draws, sum.losses, s, elo_text(e), elo_text(lo), elo_text(hi))
  if r then
    local who = r.winner == "draw" and "draw" or (r.winner == "white" and r.white or r.black) .. " won"
    line = line .. string.format("  (last: %s, %s)", who, r.reason)
  end
  if sum.sprt then line = line .. string.format("  LLR %.2f [%.2f, %.2f]", sum.sprt.llr, sum.sprt.lower, sum.sprt.upper) end
  return line
end

-- The final table.
function match.table(sum)
  local n = sum.played
  local lines = {}
  local w = math.max(#sum.a, #sum.b, 3)
  local function row(name, wi, d, l)
    local s = n > 0 and (wi + d / 2) / n * 100 or 0
    return string.format("%-" .. w .. "s  %5d  %5d  %5d  %6d  %6.1f%%", name, n, wi, d, l, s)
  end
  lines[#lines + 1] = string.format("%-" .. w .. "s  %5s  %5s  %5s  %6s  %7s", "bot", "games", "wins", "draws", "losses", "score")
  lines[#lines + 1] = row(sum.a, sum.wins, sum.draws, sum.losses)
  lines[#lines + 1] = row(sum.b, sum.losses, sum.draws, sum.wins)
  local e, lo, hi = match.elo(sum.wins, sum.draws, sum.losses)
  lines[#lines + 1] = string.format("Elo difference (%s - %s): %s, 95%% interval [%s, %s]",
    sum.a, sum.b, elo_text(e), elo_text(lo), elo_text(hi))
  local reasons = {}
  for k, v in pairs(sum.reasons) do reasons[#reasons + 1] = string.format("%s %d", k, v) end
  table.sort(reasons)
  lines[#lines + 1] = "ended by: " .. table.concat(reasons, ", ")
  if sum.sprt then
    lines[#lines + 1] = string.format("SPRT: LLR %.2f, bounds [%.2f, %.2f]: %s", sum.sprt.llr, sum.sprt.lower,
      sum.sprt.upper, sum.sprt.decision == "H1" and "H1 accepted (" .. sum.a .. " is stronger)"
      or sum.sprt.decision == "H0" and "H0 accepted" or "no decision")
  end
  return table.concat(lines, "\n")
end

return match
