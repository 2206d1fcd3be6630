-- cheskers.cli: the command line of the cheskers program.
--
-- repl/main.c calls cli.main(progname, argv) with argv[1..n] the arguments
-- and exits with its result. What runs:
--   cheskers                      the REPL (batch mode when stdin is not a terminal)
--   cheskers FILE [args]          a Lua script, `arg` set as lua5.4 sets it
--   cheskers WORD [args]          the subcommand cheskers.cmd.WORD (when no file WORD exists)
--   cheskers -e CODE / -l MOD / -c 'CMD; CMD' / -i / --ascii / --norc / -v / -h
--
-- A subcommand is a Lua module lua/cheskers/cmd/WORD.lua returning either a
-- function run(args, cli) or a table
--   { summary = "one line for the list", usage = "text for help WORD",
--     run = function(args, cli) ... end }
-- where args are the arguments after WORD. run returns the exit status:
-- nil, true or 0 for success, false for 1, or a number. An error raised
-- with error(msg, 0) is printed as one line; any other error is printed
-- with its traceback.

-- The program's terminal module (repl/term.c), loaded when something runs:
-- the helpers above cli.main (wants_help, ...) work under stock lua5.4.
local function term() return require "cheskers.readline" end

local cli = {}

cli.progname = "cheskers"

cli.usage = [==[
usage: cheskers [options] [FILE [args] | SUBCOMMAND [args]]

With no FILE or SUBCOMMAND: the interactive REPL (type help there).
When standard input is not a terminal, lines are read as a batch: no
prompts or colours, errors on stderr, exit status 1 if any line failed.

  FILE [args]     run the Lua script FILE, with arg[1..] = args ('-' = stdin)
  SUBCOMMAND      run cheskers.cmd.SUBCOMMAND (see the list below)
  -e CODE         run the Lua code CODE
  -l NAME         require the module NAME into the global NAME
  -c 'CMD; CMD'   run REPL commands (moves, commands or Lua) and exit
  -i              enter the REPL after FILE / -e / -c
  --ascii         draw the board in plain ASCII, without colours
  --norc          do not load ~/.cheskersrc.lua (or $CHESKERS_RC)
  -v, --version   print the version
  -h, --help      print this help
  --              stop handling options

Environment: CHESKERS_HISTORY (history file, default ~/.cheskers_history),
CHESKERS_RC (start-up file, default ~/.cheskersrc.lua), NO_COLOR.]==]

-- Writes "cheskers: msg" (or "cheskers WHO: msg") to stderr.
function cli.report(msg, who)
  io.stderr:write(cli.progname, who and " " .. who or "", ": ", tostring(msg), "\n")
  io.stderr:flush()
end

-- The version line.
function cli.version()
  local ok, cheskers = pcall(require, "cheskers")
  local v = ok and type(cheskers) == "table" and cheskers.VERSION or "?"
  return string.format("cheskers %s (%s)", v, _VERSION)
end

-- The names in folder dir (none when it cannot be read).
local function cmd_files(dir)
  local lfs = require "lfs"
  if lfs.attributes(dir, "mode") ~= "directory" then return function() end end
  return lfs.dir(dir)
end

-- The subcommands found on package.path: sorted array of names.
function cli.subcommands()
  local seen, names = {}, {}
  for template in package.path:gmatch("[^;]+") do
    local dir = template:match("^(.-)%?%.lua$")
    if dir then
      for f in cmd_files((dir == "" and "./" or dir) .. "cheskers/cmd/") do
        local name = f:match("^([%w_][%w_%-]*)%.lua$")
        if name and not seen[name] then
          seen[name] = true
          names[#names + 1] = name
        end
      end
    end
  end
  table.sort(names)
  return names
end

-- A command as typed, for records of how results were made: "cheskers
-- WORD" and args, each word with a blank or a quote in it quoted for sh.
function cli.command_line(word, args)
  local words = { "cheskers " .. word }
  for _, a in ipairs(args) do
    words[#words + 1] = a:match("^[%w%-_./=:,@]+$") and a or ("'" .. a:gsub("'", "'\\''") .. "'")
  end
  return table.concat(words, " ")
end

-- Loads a subcommand module: its table (run, summary, usage) or nil, message.
function cli.subcommand(name)
  local ok, mod = pcall(require, "cheskers.cmd." .. name)
  if not ok then return nil, mod end
  if type(mod) == "function" then mod = { run = mod } end
  if type(mod) ~= "table" or type(mod.run) ~= "function" then
    return nil, "cheskers.cmd." .. name .. " does not return a run function"
  end
  return mod
end

-- The full help text: usage and the subcommands with their summaries.
function cli.help()
  local lines = { cli.usage, "", "Subcommands (cheskers help SUBCOMMAND):" }
  local names = cli.subcommands()
  for _, name in ipairs(names) do
    local mod = cli.subcommand(name)
    lines[#lines + 1] = string.format("  %-12s %s", name, mod and mod.summary or "")
  end
  if #names == 0 then lines[#lines + 1] = "  (none installed)" end
  return table.concat(lines, "\n")
end

-- Cuts the frames of the program itself (from the protected call down)
-- off a traceback.
function cli.trim_traceback(tb)
  local out = {}
  for line in tb:gmatch("[^\n]+") do
    if line:find("'cheskers.readline.run'", 1, true) then break end
    out[#out + 1] = line
  end
  return table.concat(out, "\n")
end

-- Prints an error caught by rl.run: one line for a message without a
-- source position (error(msg, 0), errors from C), else with the traceback.
-- Returns the exit status for it (130 after Ctrl-C, else 1).
function cli.report_error(err, traceback, who)
  if require("cheskers").error_code(err) == "interrupted" then
    cli.report("interrupted", who)
    return 130
  end
  if type(err) == "string" and err:match("^[^\n]-:%d+: ") and traceback then
    cli.report(cli.trim_traceback(traceback), who)
  else
    cli.report(tostring(err), who)
  end
  return 1
end

-- Normalises a run function's result to an exit status.
local function status_of(ok, ...)
  if not ok then return nil end
  local r = ...
  if r == nil or r == true then return 0 end
  if r == false then return 1 end
  if math.type(r) == "integer" then return r end
  return 0
end

-- Runs a loaded chunk with Ctrl-C armed; returns the exit status.
local function run_chunk(chunk, ...)
  local res = table.pack(term().run(chunk, ...))
  if res[1] then return 0 end
  return cli.report_error(res[2], res[3])
end

-- The one message for an unknown subcommand word: "no subcommand 'x' (did
-- you mean 'y'?). Subcommands: a, b." (noun: what the word could have
-- been; known: the subcommands, default cli.subcommands()).
function cli.no_subcommand(word, noun, known)
  known = known or cli.subcommands()
  return string.format("no %s '%s'%s. Subcommands: %s.", noun or "subcommand", word,
    require("cheskers").did_you_mean(word, known), #known > 0 and table.concat(known, ", ") or "none")
end

-- ---- reading a subcommand's arguments ---------------------------------------

-- What argparse converters a subcommand uses allow, in words.
local CONVERTERS = { [math.tointeger] = "a whole number", [tonumber] = "a number" }

-- The names of parser p's options ("--games", "-n", ...).
local function option_names(p)
  local names = {}
  for _, o in ipairs(p._options or {}) do
    for _, a in ipairs(o._aliases or {}) do names[#names + 1] = a end
  end
  return names
end

-- Makes every converter of p's options name its option and echo the value
-- it refused ("--games must be a whole number, not '1.5'") instead of
-- argparse's "malformed argument '1.5'"; once per parser.
local function name_converters(p)
  if p._cheskers_named then return end
  p._cheskers_named = true
  for _, o in ipairs(p._options or {}) do
    local f = o._convert
    if type(f) == "function" then
      local name = o._name or (o._aliases or {})[1] or "option"
      o._convert = function(x)
        local v, err = f(x)
        if v ~= nil then return v end
        local what = err or ("must be " .. (CONVERTERS[f] or "something else"))
        return nil, ("%s %s, not '%s'"):format(name, what, x)
      end
    end
  end
end

-- The one reading of a subcommand's arguments by its argparse parser p:
-- the options table, or raises one line: "unknown option '--gmaes' (did you
-- mean '--games'?); see cheskers match --help", "--games must be a whole
-- number, not '1.5'; see ...".
function cli.parse_args(p, args)
  name_converters(p)
  local ok, opts = p:pparse(args)
  if ok then return opts end
  local msg = tostring(opts):gsub("\nDid you mean.*$", "")
  local bad = msg:match("^unknown option '([^']*)'$")
  if bad then msg = msg .. require("cheskers").did_you_mean(bad, option_names(p)) end
  error(("%s; see %s --help"):format(msg, p._name or cli.progname), 0)
end

-- Checks the value of option name against a cheskers.schema spec; raises
-- one line ("--theme must be 'stalemate' or 'kings', not 'stalmate' (did
-- you mean 'stalemate'?)"). Returns the value.
function cli.check_option(name, value, spec)
  local v, err = require("cheskers.schema").read(value, spec, name)
  if v == nil and err then error(err, 0) end
  return v
end

-- The one message for a word that is none of choices (a subcommand's
-- action): "unknown action 'shwo' (did you mean 'show'?); choose show or diff".
function cli.not_one_of(word, noun, choices)
  local list = #choices == 2 and (choices[1] .. " or " .. choices[2]) or table.concat(choices, ", ")
  return ("unknown %s '%s'%s; choose %s"):format(noun, word,
    require("cheskers").did_you_mean(word, choices), list)
end

-- Dispatches to cheskers.cmd.<name>.
local function run_subcommand(name, args)
  local mod, err = cli.subcommand(name)
  if not mod then
    if not package.searchpath("cheskers.cmd." .. name, package.path) then
      cli.report(cli.no_subcommand(name, "file or subcommand") .. " See " .. cli.progname .. " --help.")
      return 1
    end
    cli.report(err)
    return 1
  end
  local res = table.pack(term().run(mod.run, args, cli))
  if not res[1] then return cli.report_error(res[2], res[3], name) end
  return status_of(true, table.unpack(res, 2, res.n))
end

-- Whether path names a readable regular file (not a directory).
-- Whether a subcommand's arguments ask for its help (-h or --help before
-- any "--"), so that it can print its usage before parsing the rest.
function cli.wants_help(args)
  for _, a in ipairs(args) do
    if a == "-h" or a == "--help" then return true end
    if a == "--" then break end
  end
  return false
end

local function is_file(path)
  local f = io.open(path, "r")
  if not f then return false end
  local _, err = f:read(0)
  f:close()
  return err == nil
end

-- The options before FILE: { actions = {{"e"|"l"|"c", value}...}, script =
-- index of FILE in argv or nil, interactive, version, ascii, rc }, or nil
-- and the exit status when the options end the program (--help, a mistake).
local function parse_options(argv)
  local o = { actions = {}, rc = true }
  local i, n = 1, #argv
  while i <= n do
    local a = argv[i]
    if a == "--" then
      if i + 1 <= n then o.script = i + 1 end
      break
    elseif a == "-" or a:sub(1, 1) ~= "-" then
      o.script = i
      break
    elseif a:match("^%-[elc]") then
      local value = a:sub(3)
      if value == "" then
        i = i + 1
        value = argv[i]
        if not value then
          cli.report(string.format("'%s' needs an argument (see %s --help)", a, cli.progname))
          return nil, 1
        end
      end
      o.actions[#o.actions + 1] = { a:sub(2, 2), value }
    elseif a == "-h" or a == "--help" then
      io.stdout:write(cli.help(), "\n")
      return nil, 0
    else
      local flag = ({ ["-i"] = "interactive", ["-v"] = "version", ["--version"] = "version",
                      ["--ascii"] = "ascii" })[a]
      if flag then o[flag] = true
      elseif a == "--norc" then o.rc = false
      else
        cli.report(string.format("unrecognized option '%s' (see %s --help)", a, cli.progname))
        return nil, 1
      end
    end
    i = i + 1
  end
  return o
end

-- The global arg, as lua.c makes it: arg[0] the script, arg[1..] its arguments.
local function set_arg(progname, argv, script)
  local full = { [0] = progname }
  for k = 1, #argv do full[k] = argv[k] end
  local s = script or 0
  local argt = {}
  for k = 0, #argv do argt[k - s] = full[k] end
  _G.arg = argt
end

-- The REPL session of this run (made once, for -c and for the REPL).
local function session_of(o, interactive)
  if not o.session then
    o.session = require("repl.session").session { ascii = o.ascii, rc = o.rc, interactive = interactive }
  end
  return o.session
end

-- Runs -e, -l and -c in order. Returns the exit status and whether to stop.
local function run_actions(o)
  local status = 0
  for _, act in ipairs(o.actions) do
    local kind, value = act[1], act[2]
    if kind == "e" then
      local chunk, err = load(value, "=(command line)")
      if not chunk then cli.report(err) return 1, true end
      status = run_chunk(chunk)
      if status ~= 0 then return status, true end
    elseif kind == "l" then
      local glob, mod = value:match("^([^=]+)=(.+)$")
      glob, mod = glob or value, mod or value
      local ok, res, tb = term().run(require, mod)
      if not ok then return cli.report_error(res, tb), true end
      _G[glob] = res
    else -- "c": REPL commands separated by ';'
      local session = session_of(o, false)
      if not session:run_commands(value) then status = session.exit_status or 1 end
      if session.exit_status then return status, true end
    end
  end
  return status, false
end

-- Runs FILE (argv[o.script]) with its arguments; returns the exit status.
local function run_script(o, argv)
  local fname = argv[o.script]
  if fname == "-" and argv[o.script - 1] ~= "--" then fname = nil end
  local chunk, err = loadfile(fname)
  if not chunk then cli.report(err) return 1 end
  return run_chunk(chunk, table.unpack(argv, o.script + 1, #argv))
end

-- Whether the REPL runs after the rest: -i, or nothing but -l given.
local function wants_repl(o)
  if o.interactive then return true end
  if o.script then return false end
  for _, act in ipairs(o.actions) do
    if act[1] ~= "l" then return false end
  end
  return true
end

-- cli.main(progname, argv) -> exit status.
function cli.main(progname, argv)
  cli.progname = (progname or "cheskers"):match("[^/]*$")
  -- a first argument that is a plain word and no file: a subcommand
  if #argv >= 1 and argv[1]:match("^%a[%w_%-]*$") and not is_file(argv[1]) then
    return run_subcommand(argv[1], table.move(argv, 2, #argv, 1, {}))
  end
  local o, exit = parse_options(argv)
  if not o then return exit end
  set_arg(progname, argv, o.script)
  if o.version then
    io.stdout:write(cli.version(), "\n")
    if #o.actions == 0 and not o.script and not o.interactive then return 0 end
  end
  local status, stop = run_actions(o)
  if stop then return status end
  if o.script then
    status = run_script(o, argv)
    if status ~= 0 then return status end
  end
  if wants_repl(o) then
    local rs = session_of(o, require("cheskers").isatty(io.stdin)):loop()
    if rs ~= 0 then status = rs end
  end
  return status
end

return cli
