-- repl.registry: what the REPL's parts share. The settings, the table of
-- commands (each concern under repl/commands/ registers its own through
-- registry.command), the one-line error of a command (registry.fail) and
-- the small text helpers the commands and the session both use.
--
-- A command is a table:
--   { name = "hello", args = "[NAME]", help = "Says hello.\nMore lines of help.",
--     summary = "for the list of `help`; default: the first sentence of help",
--     aliases = { "hi" },
--     complete = "moves" | "squares" | "files" | "commands" | function(S, token, words) -> list,
--     run = function(S, args, rest) S:print("hello " .. (args[1] or "you")) end }

local registry = {}

-- The settings: name -> { value, spec (cheskers.schema), what it does }.
-- registry.settings reads and writes the values; a name nobody declared or a
-- value of the wrong type is refused (with the nearest name), and a start-up
-- file adds its own with registry.setting.
local schema = require "cheskers.schema"
local declared, values = {}, {}

-- Declares a setting (repl.setting{name =, default =, spec =, help =}):
-- spec defaults to the type of default ("string", "boolean", ...).
function registry.setting(def)
  assert(type(def) == "table" and type(def.name) == "string" and def.name:match("^[%a_][%w_]*$"),
         "repl.setting: needs a name (letters, digits, _)")
  declared[def.name] = { spec = def.spec or (def.default == nil and "any" or type(def.default)),
                         help = def.help }
  values[def.name] = def.default
end

local function setting_names()
  local names = {}
  for k in pairs(declared) do names[#names + 1] = k end
  table.sort(names)
  return names
end

registry.settings = setmetatable({}, {
  __index = function(_, k) return values[k] end,
  __newindex = function(_, k, v)
    local d = declared[k]
    if not d then
      registry.fail(("unknown setting %s%s (repl.setting{name = ...} adds one)"):format(schema.show(k),
        type(k) == "string" and require("cheskers").did_you_mean(k, setting_names()) or ""))
    end
    if v ~= nil then
      local _, err = schema.read(v, d.spec, "setting " .. k)
      if err then registry.fail(err) end
    end
    values[k] = v
  end,
  __pairs = function() return next, values, nil end,
})

registry.setting { name = "prompt", default = "cheskers> ", spec = schema.either("string", "function"),
                   help = "a string, or a function(S) returning one" }
registry.setting { name = "prompt2", default = ">> ", spec = schema.either("string", "function"),
                   help = "continuation of an unfinished Lua statement" }
registry.setting { name = "ascii", default = false, help = "plain ASCII board even on a terminal" }
registry.setting { name = "flip", default = false, help = "draw the board from Black's side" }
registry.setting { name = "autoshow", spec = "boolean",
                   help = "draw after each change (nil: in interactive sessions)" }
registry.setting { name = "history_size", default = 1000, spec = require("cheskers.numbers").spec "history_size" }
registry.setting { name = "progress_after", default = 1.0, spec = require("cheskers.numbers").spec "progress_after",
                   help = "seconds of perft/divide before the progress line shows" }

registry.commands = {}         -- name -> command (aliases map to the same command)
registry.command_list = {}     -- commands in definition order (for help)

function registry.words_of(s)
  local t = {}
  for w in s:gmatch("%S+") do t[#t + 1] = w end
  return t
end

function registry.trim(s)
  return s:match("^%s*(.-)%s*$")
end

registry.KEYWORDS = require("cheskers.luadata").KEYWORDS
registry.IS_KEYWORD = {}
for _, k in ipairs(registry.KEYWORDS) do registry.IS_KEYWORD[k] = true end

-- Defines (or redefines) a command; see the top of this file.
function registry.command(def)
  assert(type(def) == "table", "repl.command: a table expected")
  assert(type(def.name) == "string" and def.name:match("^[%a_][%w_%-]*$"),
    "repl.command: name must be a word")
  assert(type(def.run) == "function", "repl.command: run must be a function")
  def.help = def.help or ""
  def.args = def.args or ""
  local old = registry.commands[def.name]
  if old then
    for i, c in ipairs(registry.command_list) do
      if c == old then table.remove(registry.command_list, i) break end
    end
  end
  registry.commands[def.name] = def
  for _, a in ipairs(def.aliases or {}) do registry.commands[a] = def end
  registry.command_list[#registry.command_list + 1] = def
  return def
end

function registry.command_names()
  local names = {}
  for name in pairs(registry.commands) do names[#names + 1] = name end
  table.sort(names)
  return names
end

-- A one-line error raised from a command (no traceback).
local UserError = {}
UserError.__index = UserError
UserError.__tostring = function(e) return e.message end

function registry.fail(msg)
  error(setmetatable({ message = msg }, UserError), 0)
end

function registry.is_user_error(e)
  return getmetatable(e) == UserError
end

-- The one line that reports error e of the command named name: a
-- command's own error (registry.fail) as it is; an argument error of the
-- binding ("bad argument #2 to '?' (depth must be 0..64)", which names
-- neither the argument nor the function as the user typed them) as
-- "name: depth must be 0..64"; any other error as its text.
function registry.failure_message(e, name)
  if registry.is_user_error(e) then return e.message end
  local msg = tostring(e)
  local inner = msg:match("^bad argument #%d+ to '[^']*' %((.*)%)$")
  if inner and name then return name .. ": " .. inner end
  return msg
end

-- Calls f(...) so that a command can report what it found before Ctrl-C
-- stopped it. Returns "done" and f's results, "interrupted", or raises
-- f's other errors. (After Ctrl-C the terminal module also raises
-- "interrupted" at the next Lua instruction: that one is absorbed here.)
function registry.catch_interrupt(f, ...)
  local code = require("cheskers").error_code
  local inner
  local ok, e = pcall(function(...) inner = table.pack(pcall(f, ...)) end, ...)
  if inner and inner[1] then return "done", table.unpack(inner, 2, inner.n) end
  local err = inner and inner[2] or e
  if inner == nil and ok then err = e end
  if code(err) == "interrupted" or (not ok and code(e) == "interrupted") then return "interrupted" end
  error(err, 0)
end

-- A number argument of a command, read by its declaration key in
-- cheskers.numbers ("perft", "undo", "go depth"...): the number, or
-- default when absent; else fails with "what must be a whole number from
-- 0 to 64, not '99'".
function registry.count_arg(S, s, what, default, key)
  if s == nil then return default end
  local n, err = require("cheskers.numbers").read(s, key, what)
  if n == nil then S:fail(err) end
  return n
end

return registry
