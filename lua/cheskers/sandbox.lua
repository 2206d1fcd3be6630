-- cheskers.sandbox: the one sandbox for untrusted Lua (puzzle files, --sandbox
-- bots, rule-spec literals). It owns the environment a box sees, the budget
-- (instructions, memory held, time: lua/binding/lsandbox.c), the string-metatable
-- guard, text-only loading with size and nesting checks, data copying, and
-- the names of loaded files in messages.
--
-- Time is CPU time: a call's `time` (or `seconds`) is CPU seconds of the
-- process (os.clock's clock), so a loaded machine does not shorten it, and
-- a wall-clock backstop (sandbox.backstop: 3 times that, at least 2 s)
-- stops a call that waits without using CPU (a sleep, a pipe, a child
-- process: their CPU is not the process's own). A call that passed either
-- one fails even when it returned (its time was spent in a C function the
-- hook cannot interrupt).
--
--   sandbox.load_data(text, name [, limits]) -> value | nil, message
--       text that must evaluate to plain data, run in an empty environment
--       (table constructors and literals only) under small limits; returns a
--       deep copy of plain tables/strings/numbers/booleans. limits: source,
--       nesting, instructions, memory, time, values (defaults sandbox.DATA).
--   sandbox.new{ name=, trusted=, instructions=, memory=, time= } -> box
--       (defaults sandbox.BOX)
--   box.env                                   the environment (untrusted)
--   box:load(text, chunkname) -> fn | nil, message
--   box:call(seconds|nil, fn, ...) -> true, results... | false, reason, detail, traceback
--       reason "time" | "error" | "limit"; Ctrl-C ("interrupted") is re-raised.
--       seconds: CPU seconds (default the box's time); reason "time" has
--       the detail "used 3.10 s of CPU time (limit 3 s)" or, past the
--       backstop, "wall-clock backstop: 9.00 s of wall time (...)".
--   box:held() -> bytes the box holds (untrusted boxes)
--   box:capped() -> nil | "time" | "backstop" | "instructions" | "memory"
--       the budget cap the last call passed (not a forbidden function)
--   sandbox.hook_failures(board) -> n, message | nil
--       how many times a rule hook of the board's rule set raised when the
--       core called it (cheskers.budget.hook_failures: a box cannot forge
--       one); the runner tells the rules' fault from a bot's with it
--   box:wrap(fn, what [, capped]) -> function
--       a function of the runner that calls the box's fn through the box:
--       with capped, box:call under every limit (for calls that never come
--       from inside another box: an experiment's measures); else a light
--       call, under the hook limits (hook_instructions, hook_time: no
--       memory cap, so that it can run inside another box's call and
--       costs no collection; what it allocates there is charged to that
--       box). Its results must be nil, booleans, numbers or texts. A
--       failure raises "WHAT: detail" (what nil: the detail alone).
--       cheskers.luadata.original(wrapper) -> fn.
--   sandbox.load_file(path, opts) -> value, box | nil, message
--       runs a Lua file (an experiment file given with --sandbox) in a new
--       untrusted box (opts: the box's limits) and copies what it returns
--       out as plain data, each function replaced by box:wrap(fn,
--       opts.label(keys), opts.capped(keys)), keys the table keys leading
--       to it (default label: the keys as a Lua path, "variants[1].rules.filter")
-- Details and messages are cut to one line by cheskers.luadata.truncate, and
-- file names Lua cut to "..." are written in full by cheskers.luadata.readable.
--
-- What an untrusted box gets of the standard library, and why (the audit of
-- string.*, table.*, utf8.*, math.*: a C function runs out of reach of the
-- count hook, so each must be bounded by the memory cap or wrapped):
--
--   base     assert error ipairs next pairs rawequal rawget rawlen rawset select
--            tonumber tostring type: O(1) or Lua metamethods (counted).
--            pcall xpcall: wrapped, a passed cap is raised again at once.
--            getmetatable: tables only. setmetatable: no __gc (finalizers
--            would run outside the box). require: "cheskers" only.
--            dropped: load loadfile dofile print collectgarbage (global GC
--            state) coroutine (a coroutine runs without the hook) debug io
--            os package.
--   string   byte char format len lower reverse sub upper: linear in text the
--            box already holds (memory cap); byte's results are stack-limited.
--            rep: wrapped (empty pieces loop n times without allocating; the
--            size is checked before the copy).
--            dropped: find match gmatch gsub (patterns backtrack for ages in
--            one call), pack unpack packsize (not needed), dump (bytecode).
--   table    concat pack unpack: bounded by the values that exist (memory)
--            and the stack. insert remove move sort: wrapped, their C loops
--            run over #t (which __len can make huge) or the given range,
--            charged to the instruction budget before they start.
--   utf8     char charpattern codepoint len offset codes: linear in held text,
--            codepoint's results stack-limited.
--   math     all but randomseed (the random state is the process's: a box
--            must not steer another's draws): O(1).
--   os       clock time difftime: O(1).
--   cheskers its own copy: new rules error_code START VERSION SQUARES and an
--            engine table whose weights are the box's own (swapped in while
--            it runs); not interrupt, deadline, puzzle, svg, tb. Core calls
--            (search, perft, divide, solve) get the call's deadlines (CPU
--            and backstop). Boards' probe and tb_moves see no tables
--            (run_inside).
--
-- Trusted boxes run in _G under the time cap only: one path for every bot call.
--
-- What box:call returns on success are the box's own values: the caller
-- checks their types (rawget, type) and never lets a metamethod of theirs run
-- outside a box:call (a __tostring, __index or __len could loop for ever).

local cheskers = require "cheskers"
local budget = require "cheskers.budget"
local luadata = require "cheskers.luadata"
local truncate, readable = luadata.truncate, luadata.readable

local sandbox = {}

sandbox.DATA = {
  source = 256 * 1024,          -- bytes of text
  nesting = 40,                 -- brackets ({ ( [) deep
  instructions = 1000000,       -- Lua VM instructions to run it
  memory = 4 * 2^20,            -- bytes
  time = 2,                     -- CPU seconds (and the wall-clock backstop: sandbox.backstop)
  values = 200000,              -- values copied out
}

sandbox.BOX = {
  source = 1024 * 1024,         -- bytes of text box:load takes
  instructions = 1000000000,    -- per call (about 3-10 s of Lua)
  memory = 128 * 2^20,          -- bytes held over the box's whole life
  time = 30,                    -- CPU seconds per call
  hook_instructions = 10000000, -- per call of a wrapped function (box:wrap): 0.03-0.1 s of Lua
  hook_time = 2,                -- CPU seconds per call of a wrapped function
}

-- The wall-clock backstop of every time limit of T CPU seconds:
-- max(BACKSTOP * T, BACKSTOP_MIN) seconds of wall time (the floor keeps a
-- short limit on a loaded machine from ending on the wall clock).
sandbox.BACKSTOP = 3
sandbox.BACKSTOP_MIN = 2

-- The wall-clock backstop of a limit of seconds of CPU.
function sandbox.backstop(seconds)
  return math.max(seconds * sandbox.BACKSTOP, sandbox.BACKSTOP_MIN)
end

-- (Runner code that runs while a box's string guard is on calls string
-- functions directly, never as methods.)

-- An error value as text, without running a metamethod of the box's.
local function error_text(e)
  local t = type(e)
  if t == "string" then return e end
  if t == "number" then return tostring(e) end
  local code = cheskers.error_code(e)
  if code then return rawget(e, "message") or code end
  return "(error object is a " .. t .. " value)"
end

-- The long core calls a box makes (search, perft, divide, solve ...) stop
-- at this share of the call's CPU and wall-clock caps (the budget sets their
-- deadlines, the earlier of its own and of a call it runs inside), so that
-- a search cut short there still leaves the bot time to answer with its move.
local CORE_SHARE = budget.CORE_SHARE

-- ---- text only, not too deep ------------------------------------------------

-- The deepest nesting of brackets ({ ( [) in Lua source text, strings and
-- comments skipped; stops counting past limit. Deep nesting would make the
-- compiler itself run out of C stack.
local function nesting(text, limit)
  local i, n, depth, max = 1, #text, 0, 0
  local find, byte = string.find, string.byte
  while i <= n do
    local c = byte(text, i)
    if c == 45 and byte(text, i + 1) == 45 then                 -- --
      local _, e, eq = find(text, "^%[(=*)%[", i + 2)
      if e then
        local _, close = find(text, "]" .. eq .. "]", e + 1, true)
        i = (close or n) + 1
      else
        i = (find(text, "\n", i, true) or n) + 1
      end
    elseif c == 34 or c == 39 then                              -- " '
      i = i + 1
      while i <= n do
        local d = byte(text, i)
        if d == 92 then i = i + 2
        elseif d == c or d == 10 then i = i + 1 break
        else i = i + 1 end
      end
    elseif c == 91 and find(text, "^%[=*%[", i) then            -- [[ [==[
      local _, e, eq = find(text, "^%[(=*)%[", i)
      local _, close = find(text, "]" .. eq .. "]", e + 1, true)
      i = (close or n) + 1
    else
      if c == 123 or c == 40 or c == 91 then
        depth = depth + 1
        if depth > max then
          max = depth
          if max > limit then return max end
        end
      elseif c == 125 or c == 41 or c == 93 then
        depth = depth - 1
      end
      i = i + 1
    end
  end
  return max
end

-- Compiles untrusted text: text only, at most `source` bytes, brackets at
-- most `depth` deep (nil: not checked). fn or nil, message.
local function compile(text, chunkname, env, source, depth)
  if type(text) ~= "string" then return nil, "not a text" end
  if #text > source then
    return nil, string.format("rejected: too large (%d bytes, at most %d)", #text, source)
  end
  if text:byte(1) == 27 then return nil, "rejected: a binary chunk (only text is accepted)" end
  if depth and nesting(text, depth) > depth then
    return nil, string.format("rejected: brackets nested too deeply (more than %d levels)", depth)
  end
  local fn, err
  if env then fn, err = load(text, chunkname, "t", env) else fn, err = load(text, chunkname, "t") end
  if not fn then return nil, truncate(err) end
  return fn
end

-- ---- the string-metatable guard ----------------------------------------------

local STRING_META = getmetatable("")

-- Runs f(...) with the string methods being `methods`; restores them whatever
-- happens (f is a protected call, so it returns).
local function with_string_methods(methods, f, ...)
  local saved = STRING_META.__index
  STRING_META.__index = methods
  local r = table.pack(f(...))
  STRING_META.__index = saved
  return table.unpack(r, 1, r.n)
end

-- ---- plain data ---------------------------------------------------------------

-- Copies plain data (strings, numbers, booleans, tables of them); nil,
-- message for anything else, for cycles or for excess. A table shared by
-- two places is copied twice (left bounds the work); seen holds the tables
-- on the path from the root. next, not pairs: no metamethod runs. With
-- fn, a function is copied as fn(function, keys), keys the table keys on
-- the path (seen's list).
local function copy_data(v, depth, seen, left, fn)
  local t = type(v)
  if t == "string" or t == "number" or t == "boolean" then return v end
  if t == "function" and fn then return fn(v, seen.keys) end
  if t ~= "table" then return nil, "only data is accepted, found a " .. t end
  if depth > 20 then return nil, "tables nested too deeply" end
  if seen[v] then return nil, "a table appears twice on one path (a cycle)" end
  seen[v] = true
  local out = {}
  for k, x in next, v do
    left.n = left.n - 1
    if left.n < 0 then return nil, "too many values" end
    local kt = type(k)
    if kt ~= "string" and kt ~= "number" then return nil, "a table key that is a " .. kt end
    if fn then seen.keys[depth + 1] = k end
    local c, err = copy_data(x, depth + 1, seen, left, fn)
    if fn then seen.keys[depth + 1] = nil end
    if c == nil then return nil, err end
    out[k] = c
  end
  seen[v] = nil
  return out
end

local function limit_text(why, lim)
  if why == "instructions" then
    return string.format("too many instructions (more than %d): a loop that does not end?", lim.instructions)
  elseif why == "memory" then
    return string.format("too much memory (more than %d KiB)", lim.memory // 1024)
  end
  if why == "backstop" then
    return string.format("too slow (more than %g s of wall time: the wall-clock backstop)",
                         sandbox.backstop(lim.time))
  end
  return string.format("too slow (more than %g s of CPU time)", lim.time)
end

local NO_STRING_METHODS = setmetatable({}, { __index = function(_, k)
  error("string methods are not available in data ('" .. truncate(k, 40) .. "')", 2)
end, __metatable = false })

function sandbox.load_data(text, name, limits)
  local lim = {}
  for k, v in pairs(sandbox.DATA) do lim[k] = limits and limits[k] or v end
  local env = setmetatable({}, { __index = function(_, k)
    error("'" .. truncate(k, 40) .. "' is not available (only data: tables, texts, numbers, booleans)", 2)
  end, __newindex = function(_, k)
    error("cannot set '" .. truncate(k, 40) .. "' (only data)", 2)
  end, __metatable = false })
  local chunkname = "=" .. name
  local fn, err = compile(text, chunkname, env, lim.source, lim.nesting)
  if not fn then return nil, name .. ": " .. readable(err, chunkname) end
  local b = budget.new(math.tointeger(lim.memory), math.tointeger(lim.instructions))
  local ok, res = with_string_methods(NO_STRING_METHODS, b.run, b, lim.time, sandbox.backstop(lim.time), nil, fn)
  local why = b:why()
  if not ok or why then
    if cheskers.error_code(res) == "interrupted" then error(res, 0) end
    return nil, name .. ": rejected: "
      .. (why and limit_text(why, lim) or truncate(readable(error_text(res), chunkname)))
  end
  if res == nil then return nil, name .. ": it returns nothing (it must return a table)" end
  local data, cerr = copy_data(res, 0, {}, { n = lim.values })
  if data == nil then return nil, name .. ": rejected: " .. cerr end
  return data
end

-- ---- boxes --------------------------------------------------------------------

local Box = {}
Box.__index = Box

local SAFE_GLOBALS = { "assert", "error", "ipairs", "next", "pairs", "rawequal", "rawget",
                       "rawlen", "rawset", "select", "tonumber", "tostring", "type" }
local SAFE_LIBS = {
  math = { "abs", "ceil", "exp", "floor", "fmod", "huge", "log", "max", "maxinteger", "min",
           "mininteger", "modf", "pi", "random", "sqrt", "tointeger", "type",
           "ult", "sin", "cos", "tan", "asin", "acos", "atan" },
  string = { "byte", "char", "format", "len", "lower", "reverse", "sub", "upper" },
  table = { "concat", "pack", "unpack" },
  utf8 = { "char", "charpattern", "codepoint", "codes", "len", "offset" },
  os = { "clock", "time", "difftime" },
}

local function copy_fields(src, names)
  local t = {}
  for _, k in ipairs(names) do t[k] = src[k] end
  return t
end

-- Records the box's first violation (it fails even if it catches the error)
-- and raises it.
local function violation(box, msg)
  box.why = box.why or msg
  error(msg, 3)
end

local function guard(box, lib, t)
  return setmetatable(t, { __metatable = false, __index = function(_, k)
    violation(box, "sandbox: '" .. lib .. truncate(k, 40) .. "' is not available")
  end })
end

-- Charges n instructions of a C loop to the call running (n a float: no
-- integer wrap-around); raises past the cap.
local function charge(box, n)
  n = n + 0.0
  if n ~= n or n > box.limits.instructions - box.charged then
    violation(box, string.format("sandbox: instruction limit (a table operation over %.0f elements)", n))
  end
  box.charged = box.charged + n
end

-- The wrapped string.rep and table.insert/remove/move/sort (see the audit).
local function bounded_functions(box)
  local s, t = {}, {}
  function s.rep(str, n, sep)
    str, sep = tostring(str), sep == nil and "" or tostring(sep)
    n = math.tointeger(n) or error("bad argument #2 to 'rep' (number has no integer representation)", 2)
    if n <= 0 or #str + #sep == 0 then return "" end
    if n > box.limits.memory // (#str + #sep) then
      violation(box, "sandbox: memory limit (string.rep of more than the box may hold)")
    end
    charge(box, n // 64)
    return string.rep(str, n, sep)
  end
  -- (lengths and positions as floats: #t may be math.maxinteger)
  function t.insert(list, ...)
    if select("#", ...) == 2 then
      local pos = tonumber((...)) or 0
      charge(box, math.abs((#list + 1.0) - pos))
    end
    return table.insert(list, ...)
  end
  function t.remove(list, pos)
    local n = #list + 0.0
    charge(box, math.abs(n - (tonumber(pos) or n)))
    if pos == nil then return table.remove(list) end
    return table.remove(list, pos)
  end
  function t.move(a1, f, e, tpos, a2)
    local fi, ei = tonumber(f), tonumber(e)
    if fi and ei and ei >= fi then charge(box, (ei + 0.0) - fi + 1) end
    return table.move(a1, f, e, tpos, a2)
  end
  function t.sort(list, comp)
    local n = #list + 0.0
    if n > 1 then charge(box, n * math.ceil(math.log(n, 2))) end
    return table.sort(list, comp)
  end
  return s, t
end

-- The box's own copy of the cheskers module: its engine table works on the
-- box's weights (swapped into the engine while the box runs: Box:call).
local function own_cheskers()
  local c = {}
  for _, k in ipairs({ "new", "rules", "error_code", "START", "VERSION" }) do c[k] = cheskers[k] end
  c.SQUARES = {}
  for k, v in pairs(cheskers.SQUARES or {}) do c.SQUARES[k] = v end
  local eng = {}
  for k, v in pairs(cheskers.engine) do
    if k ~= "deadline" then eng[k] = v end
  end
  eng.names = {}
  for i, v in ipairs(cheskers.engine.names) do eng.names[i] = v end
  c.engine = eng
  return c
end

-- The environment of an untrusted box.
local function new_env(box)
  local env = {}
  for _, k in ipairs(SAFE_GLOBALS) do env[k] = _G[k] end
  local rep, tables = bounded_functions(box)
  for lib, names in pairs(SAFE_LIBS) do
    local t = copy_fields(_G[lib], names)
    for k, v in pairs(lib == "string" and rep or lib == "table" and tables or {}) do t[k] = v end
    env[lib] = guard(box, lib .. ".", t)
  end
  env.cheskers = guard(box, "cheskers.", own_cheskers())
  env.require = function(name)
    if name == "cheskers" then return env.cheskers end
    violation(box, "sandbox: require('" .. truncate(name, 40) .. "') is not available")
  end
  env.getmetatable = function(v)
    if type(v) ~= "table" then
      violation(box, "sandbox: 'getmetatable' of a " .. type(v) .. " is not available")
    end
    return getmetatable(v)
  end
  env.setmetatable = function(t, mt)
    if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
      violation(box, "sandbox: '__gc' is not available")
    end
    return setmetatable(t, mt)
  end
  -- A caught violation, cap or interrupt is not forgiven. The box's message
  -- handler does not run once a cap is passed: an error raised by the hook
  -- leaves hooks off until the pcall returns, so a handler that loops would
  -- never be stopped.
  local function stopped() return box.why or box.budget:why() end
  local function rethrow(ok, ...)
    if stopped() then error(box.why or "sandbox: stopped", 0) end
    if not ok and cheskers.error_code((...)) == "interrupted" then error((...), 0) end
    return ok, ...
  end
  env.pcall = function(f, ...) return rethrow(pcall(f, ...)) end
  env.xpcall = function(f, h, ...)
    return rethrow(xpcall(f, function(e)
      if stopped() or cheskers.error_code(e) == "interrupted" then return e end
      return h(e)
    end, ...))
  end
  env._G = env
  box.string_methods = env.string
  return guard(box, "", env)
end

-- fn (running in box.env) or nil, message naming the box.
-- The box remembers the chunkname: its messages and tracebacks name the
-- file in full (cheskers.luadata.readable).
function Box:load(text, chunkname)
  chunkname = chunkname or "=" .. self.name
  self.chunkname = chunkname
  local env = not self.trusted and self.env or nil
  local fn, err = compile(text, chunkname, env, self.limits.source, nil)
  if not fn then return nil, self.name .. ": " .. readable(err, chunkname) end
  return fn
end

function Box:held()
  return self.budget:used()
end

function Box:capped()
  return self.budget:why()
end

sandbox.hook_failures = budget.hook_failures

-- The budget's run (one C function for every budget): where the box's stack
-- ends and the runner's begins.
local RUN = budget.new().run

-- The box's own traceback: the frames from the error down to the budget's
-- run (not the runner's frames below it).
local function own_traceback()
  local lines = { "stack traceback:" }
  for level = 3, 40 do          -- 1: this function, 2: the handler
    local info = debug.getinfo(level, "Slnft")
    if not info or info.func == RUN then break end
    local what = info.name and ("function '" .. info.name .. "'")
      or info.what == "main" and "main chunk"
      or ("function <" .. info.short_src .. ":" .. info.linedefined .. ">")
    lines[#lines + 1] = string.format("\t%s:%d: in %s", info.short_src, info.currentline, what)
    if info.istailcall then lines[#lines + 1] = "\t(...tail calls...)" end
  end
  return table.concat(lines, "\n")
end

-- The message handler (it runs inside the box's budget): the message and
-- the box's own traceback.
local function handler(e)
  local code = cheskers.error_code(e)
  if code == "interrupted" or code == "timeout" then return e end
  -- truncated here, so that a huge message is the box's garbage, not held
  return { message = truncate(error_text(e)), traceback = own_traceback() }
end

-- Runs the protected call under budget b with the box's weights in the
-- engine, its string methods in the string metatable and no default
-- tablebases (untrusted boxes: b:probe() and b:tb_moves() cover nothing
-- there, so a box reads no table file and learns no folder).
local function run_inside(box, b, seconds, wall, fn, ...)
  if box.trusted then return b:run(seconds, wall, handler, fn, ...) end
  local engine = cheskers.engine
  local saved = engine.weights()
  engine.weights(box.weights)
  local tables = cheskers.tb.set_default(false)
  local r = table.pack(with_string_methods(box.string_methods, b.run, b, seconds, wall, handler, fn, ...))
  cheskers.tb.set_default(tables)
  box.weights = engine.weights()
  engine.weights(saved)
  return table.unpack(r, 1, r.n)
end

-- The detail of a time cap passed (why: "time", "backstop", or "core": a
-- core call stopped at its deadline): cpu and spent, the CPU and wall time
-- the call used; seconds and wall, its caps.
local function time_text(why, cpu, spent, seconds, wall)
  if why == "core" then       -- the clock nearer its limit is the one that stopped it
    if cpu / seconds >= spent / wall then
      return string.format("used %.2f s of CPU time (limit %g s; a core call stopped at %g s)",
                           cpu, seconds, seconds * CORE_SHARE)
    end
    return string.format("wall-clock backstop: %.2f s of wall time (limit %g s; a core call stopped at %g s)",
                         spent, wall, wall * CORE_SHARE)
  elseif why == "time" then
    return string.format("used %.2f s of CPU time (limit %g s)", cpu, seconds)
  end
  return string.format("wall-clock backstop: %.2f s of wall time (limit %g s; %.2f s of CPU time used, limit %g s)",
                       spent, wall, cpu, seconds)
end

-- The detail of a call that passed a time cap, from the budget's own
-- figures. A call made inside another call (a box's hook under a bot's
-- search) ends by that one's caps too: then the detail says what was left.
local function time_detail(why, b, seconds, wall)
  local cpu, spent = b:spent()
  local left_cpu, left_wall = b:limits()
  left_cpu, left_wall = left_cpu or seconds, left_wall or wall
  local outer = ""
  if left_cpu < seconds - 1e-3 or left_wall < wall - 1e-3 then
    outer = string.format("; the call it ran inside had %.2f s of CPU and %.2f s of wall time left",
                          left_cpu, left_wall)
  end
  return time_text(why, cpu, spent, seconds, wall) .. outer
end

-- Turns what the runs returned into box:call's answer (b: the budget,
-- instructions: its cap, seconds and wall: its time caps).
local function outcome(box, b, instructions, seconds, wall, r)
  -- r: ok, results... | false, error
  local why = b:why()
  if r[1] and (why == "time" or why == "backstop") then   -- returned, but too late
    return false, "time", time_detail(why, b, seconds, wall)
  end
  if r[1] then return true, table.unpack(r, 2, r.n) end
  local err = r[2]
  local interrupted = cheskers.error_code(err) == "interrupted"
  if interrupted and budget.interrupted() then error(err, 0) end
  if interrupted then      -- a box that rewrote a caught error value's code
    return false, "error", "sandbox: a forged interrupt"
  end
  if why == "time" or why == "backstop" then
    return false, "time", time_detail(why, b, seconds, wall)
  elseif why == "instructions" then
    return false, "limit", string.format("sandbox: instruction limit (more than %d)", instructions)
  elseif why == "memory" then
    return false, "limit", string.format("sandbox: memory limit (more than %d KiB held)", box.limits.memory // 1024)
  elseif box.why then
    return false, "limit", truncate(box.why)
  elseif cheskers.error_code(err) == "timeout" then
    return false, "time", time_detail("core", b, seconds, wall)
  end
  local name = box.chunkname
  if type(err) == "table" and getmetatable(err) == nil and err.traceback then
    return false, "error", truncate(readable(err.message, name)),
      readable(err.traceback, name)
  end
  return false, "error", truncate(readable(error_text(err), name))
end

-- One call under budget b (instructions: its cap) with seconds of CPU and
-- the backstop, the core's deadlines set a little before the call's own.
local function call_with(box, b, instructions, seconds, fn, ...)
  -- (0 would mean no limit below; past three years the clocks' arguments end)
  seconds = math.min(math.max(tonumber(seconds) or box.limits.time, 0.001), 1e8)
  local wall = sandbox.backstop(seconds)
  box.why, box.charged = nil, 0
  local r = table.pack(run_inside(box, b, seconds, wall, fn, ...))
  return outcome(box, b, instructions, seconds, wall, r)
end

function Box:call(seconds, fn, ...)
  return call_with(self, self.budget, self.limits.instructions, seconds, fn, ...)
end

-- ---- functions of a box called by the runner ------------------------------------

-- The wrapper's answer: the results when they are plain values, else raises.
local function wrapped_results(what, ok, ...)
  if not ok then
    local reason, detail = ...
    detail = tostring(detail or reason)
    error(what and what .. ": " .. detail or detail, 0)
  end
  for i = 1, select("#", ...) do
    local t = type((select(i, ...)))
    if t ~= "nil" and t ~= "boolean" and t ~= "number" and t ~= "string" then
      cheskers.errorf("%s: returned a %s (only nil, booleans, numbers, texts)", what, t)
    end
  end
  return ...
end

-- The light budget of a box's wrapped calls: instructions and time only.
local function light_budget(box)
  box.light = box.light or budget.new(nil, math.tointeger(box.limits.hook_instructions))
  return box.light
end

-- See the header.
function Box:wrap(fn, what, capped)
  local box = self
  local w
  if capped then
    w = function(...) return wrapped_results(what, box:call(nil, fn, ...)) end
  else
    w = function(...)
      return wrapped_results(what, call_with(box, light_budget(box), box.limits.hook_instructions,
                                             box.limits.hook_time, fn, ...))
    end
  end
  return luadata.wrap(w, fn)   -- the box's function behind w (for fingerprints)
end

-- keys as a Lua path: { "variants", 1, "rules", "filter" } -> "variants[1].rules.filter"
local function lua_path(keys)
  local t = {}
  for i, k in ipairs(keys) do
    t[i] = math.type(k) == "integer" and "[" .. k .. "]" or (i > 1 and "." or "") .. tostring(k)
  end
  return table.concat(t)
end

-- See the header.
function sandbox.load_file(path, opts)
  opts = opts or {}
  local box = sandbox.new { name = path, instructions = opts.instructions, memory = opts.memory,
                            time = opts.time, hook_instructions = opts.hook_instructions,
                            hook_time = opts.hook_time }
  local text, rerr = require("cheskers.files").read(path, "experiment")   -- (box:load caps its size)
  if not text then return nil, rerr end
  local chunk, err = box:load(text, "@" .. path)
  if not chunk then return nil, err end
  local ok, value, detail = box:call(nil, chunk)
  if not ok then return nil, path .. ": " .. truncate(tostring(detail or value)) end
  local capped = opts.capped or function() return false end
  local label = opts.label or lua_path
  local function wrap(fn, keys) return box:wrap(fn, label(keys), capped(keys)) end
  local data, cerr = copy_data(value, 0, { keys = {} }, { n = sandbox.DATA.values }, wrap)
  if data == nil then return nil, path .. ": " .. cerr end
  return data, box
end

function sandbox.new(opts)
  opts = opts or {}
  local box = setmetatable({ name = tostring(opts.name or "box"), trusted = opts.trusted == true,
                             limits = {} }, Box)
  for k, v in pairs(sandbox.BOX) do box.limits[k] = opts[k] or v end
  if box.trusted then
    box.env = _G
    box.budget = budget.new(nil, nil)
  else
    box.budget = budget.new(math.tointeger(box.limits.memory), math.tointeger(box.limits.instructions))
    box.env = new_env(box)
    box.weights = cheskers.engine.defaults()
  end
  return box
end

return sandbox
