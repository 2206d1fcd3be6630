-- repl.start: the start of the cheskers program. repl/main.c makes the Lua
-- state and calls start.main(progname, argv), argv[1..n] the arguments, and
-- exits with its result. What runs:
--   cheskers                      the REPL (batch mode when stdin is not a terminal)
--   cheskers FILE [args]          a Lua script, `arg` set as lua5.4 sets it
--   cheskers WORD [args]          the subcommand cheskers.cmd.WORD (when no file WORD exists)
--   cheskers -e CODE / -l MOD / -c 'CMD; CMD' / -i / --ascii / --norc / --stop-on-error / -v / -h
-- What subcommands share (their list, the help, reading their arguments,
-- reporting errors) is cheskers.cli, below this module; the REPL itself is
-- repl.session.

local cli = require "cheskers.cli"
local rl = require "cheskers.readline"

local start = {}

-- Normalises a run function's result to an exit status.
local function status_of(r)
  if r == nil or r == true then return 0 end
  if r == false then return 1 end
  if math.type(r) == "integer" then return r end
  return 0
end

-- Runs a loaded chunk with Ctrl-C armed; returns the exit status.
local function run_chunk(chunk, ...)
  local res = table.pack(rl.run(chunk, ...))
  if res[1] then return 0 end
  return cli.report_error(res[2], res[3])
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
  local res = table.pack(rl.run(mod.run, args, cli))
  if not res[1] then return cli.report_error(res[2], res[3], name) end
  return status_of(res[2])
end

-- Whether path names a readable regular file (not a directory, and not a
-- FIFO, which opening would wait on).
local function is_file(path)
  if require("lfs").attributes(path, "mode") ~= "file" then return false end
  local f = io.open(path, "r")
  if not f then return false end
  f:close()
  return true
end

-- The options before FILE: { actions = {{"e"|"l"|"c", value}...}, script =
-- index of FILE in argv or nil, interactive, version, ascii, rc, stop_on_error }, or nil
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
                      ["--ascii"] = "ascii", ["--stop-on-error"] = "stop_on_error" })[a]
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
    o.session = require("repl.session").session { ascii = o.ascii, rc = o.rc, interactive = interactive,
                                                  stop_on_error = o.stop_on_error }
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
      local ok, res, tb = rl.run(require, mod)
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

-- start.main(progname, argv) -> exit status.
function start.main(progname, argv)
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

return start
