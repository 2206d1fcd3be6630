-- cheskers.botbox - runs bot code under a time cap and, for untrusted bots
-- (--sandbox), in a restricted environment under an instruction budget and
-- a memory cap. Interim owner of the box contract that cheskers.sandbox
-- (branch rules) provides as sandbox.new; once that lands, this file is
-- replaced by it and cheskers.bots calls sandbox.new directly.
--
--   local box = botbox.new{ name =, trusted = }
--   box:load(text, chunkname) -> fn | nil, message   (text only; fn runs in box.env)
--   box:call(seconds, fn, ...) -> true, results... | false, reason, detail, traceback
--     reason: "time" | "error" | "limit"; detail: one line (at most 300
--     characters); traceback: the bot's own frames, for Lua errors.
--     Ctrl-C (cheskers.error_code(e) == "interrupted") is re-raised.
--
-- An untrusted environment: no io, os (but os.clock, os.time, os.difftime),
-- require (but "cheskers"), package, load, loadfile, dofile, debug,
-- collectgarbage, print, coroutine, getmetatable of strings or userdata,
-- setmetatable with __gc, string patterns. A violation, even one the bot
-- catches with pcall, fails the call: reason "limit", detail "sandbox: ...".
local cheskers = require "cheskers"

local M = {}

M.LIMITS = {
  max_source = 1024 * 1024,        -- bytes of bot file
  max_instructions = 1000000000,   -- Lua VM instructions per call (about 3-10 s)
  max_memory_kb = 128 * 1024,      -- memory growth per call
}
local MAX_DETAIL = 300

local has_alloc, alloc = pcall(require, "cheskers.sandbox")
if not has_alloc or type(alloc) ~= "table" or not alloc.run then alloc = nil end

local clock = os.clock        -- CPU seconds: what a bot spends

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

-- the string methods while an untrusted box runs (no patterns)
local active_box
local SAFE_STRING = copy_fields(string, SAFE_LIBS.string)
setmetatable(SAFE_STRING, { __index = function(_, k)
  local msg = "sandbox: string method '" .. tostring(k) .. "' is not available"
  if active_box then active_box.why = active_box.why or msg end
  error(msg, 2)
end })

-- Records the first violation (the call fails even if the bot catches it).
local function violation(box, msg, level)
  box.why = box.why or msg
  error(msg, level and level + 1 or 0)
end

local function guard(box, lib, t)
  return setmetatable(t, { __metatable = false, __index = function(_, k)
    violation(box, "sandbox: '" .. lib .. tostring(k) .. "' is not available", 2)
  end })
end

-- The cheskers module as an untrusted bot sees it.
local function safe_cheskers()
  local c = {}
  for k, v in pairs(cheskers) do c[k] = v end
  c.interrupt = nil
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

local function guarded_functions(box, env)
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
end

local function new_env(box)
  local env = {}
  for _, k in ipairs(SAFE_GLOBALS) do env[k] = _G[k] end
  for lib, names in pairs(SAFE_LIBS) do
    env[lib] = guard(box, lib .. ".", copy_fields(_G[lib], names))
  end
  env.cheskers = safe_cheskers()
  guarded_functions(box, env)
  env._G = env
  return guard(box, "", env)
end

local Box = {}
Box.__index = Box

function M.new(o)
  local box = setmetatable({
    name = o.name, trusted = o.trusted and true or false,
    max_source = M.LIMITS.max_source,
    max_instructions = o.instructions or M.LIMITS.max_instructions,
    max_memory_kb = o.memory and o.memory // 1024 or M.LIMITS.max_memory_kb,
    time = o.time or 30,
  }, Box)
  box.memory_msg = string.format("sandbox: memory limit (more than %d KiB)", box.max_memory_kb)
  if not box.trusted then box.env = new_env(box) end
  return box
end

function Box:load(text, chunkname)
  if #text > self.max_source then return nil, "the text is too large" end
  return load(text, chunkname, "t", self.env or _G)
end

local TIMEOUT = setmetatable({}, { __tostring = function() return "time budget exceeded" end })

-- One line of at most MAX_DETAIL characters.
local function one_line(s)
  s = tostring(s):match("^[^\n]*")
  if #s > MAX_DETAIL then s = s:sub(1, MAX_DETAIL - 3) .. "..." end
  return s
end

-- The bot's own frames of a traceback (the runner's, from xpcall on, cut).
local function own_traceback(tb)
  local lines = {}
  for line in tb:gmatch("[^\n]+") do
    if line:find("in function 'xpcall'", 1, true) or line:find("in function <[^>]*botbox") then break end
    if not line:find("botbox.lua", 1, true) then lines[#lines + 1] = line end
  end
  return table.concat(lines, "\n")
end

local function set_hook(self, deadline)
  local count, max = 0, self.max_instructions // 1000
  local untrusted = not self.trusted
  debug.sethook(function()
    if untrusted then
      count = count + 1
      if count > max then
        self.why = self.why or string.format("sandbox: instruction limit (more than %d)", self.max_instructions)
        self.stop = self.why
        error(self.stop, 0)
      end
      if clock() > deadline then self.stop = TIMEOUT error(TIMEOUT, 0) end
    elseif clock() > deadline then error(TIMEOUT, 0) end
  end, "", 1000)
end

local function handler(e)
  if e == TIMEOUT then return e end
  if cheskers.error_code(e) == "interrupted" then return { interrupted = e } end
  return { msg = e, tb = debug.traceback("", 2):gsub("^\n", "") }
end

-- Runs fn in the untrusted environment: safe string methods, memory cap.
local function run_untrusted(self, fn, ...)
  local strmeta = getmetatable("")
  local saved = strmeta.__index
  strmeta.__index = SAFE_STRING
  active_box = self
  local res
  if alloc then
    local r = table.pack(alloc.run(self.max_memory_kb * 1024, xpcall, fn, handler, ...))
    if r[1] then res = table.pack(table.unpack(r, 2, r.n)) else res = { false, { msg = r[2] }, n = 2 } end
  else
    res = table.pack(xpcall(fn, handler, ...))
  end
  strmeta.__index, active_box = saved, nil
  return res
end

-- The failure of a call as reason, detail, traceback.
local function failure(self, err)
  if self.why then collectgarbage() return "limit", one_line(self.why) end
  if err == TIMEOUT or self.stop == TIMEOUT then return "time", "time budget exceeded" end
  local msg = type(err) == "table" and err.msg or err
  if not self.trusted and type(msg) == "string" and msg:find("not enough memory", 1, true) then
    return "limit", one_line(self.memory_msg)
  end
  return "error", one_line(msg), type(err) == "table" and err.tb and own_traceback(err.tb) or nil
end

function Box:call(seconds, fn, ...)
  seconds = seconds or self.time
  local deadline = clock() + seconds
  -- C searches (b:search) cannot run the hook: they get a deadline instead
  local engine = cheskers.engine
  if engine and engine.deadline then engine.deadline(seconds) end
  self.why, self.stop = nil, nil
  set_hook(self, deadline)
  local res
  if self.trusted then res = table.pack(xpcall(fn, handler, ...))
  else res = run_untrusted(self, fn, ...) end
  debug.sethook()
  if engine and engine.deadline then engine.deadline(nil) end
  local err = res[2]
  if not res[1] and type(err) == "table" and err.interrupted then error(err.interrupted, 0) end
  if res[1] and not self.why and self.stop ~= TIMEOUT then return table.unpack(res, 1, res.n) end
  return false, failure(self, err)
end

return M
