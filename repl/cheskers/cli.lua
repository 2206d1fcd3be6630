-- cheskers.cli: what the subcommands of the cheskers program share: the
-- list of subcommands and loading one, the program's help, reading a
-- subcommand's arguments (parse_args, check_option, not_one_of, wants_help)
-- and reporting (report, report_error, no_subcommand). The program's start
-- (its options, -e/-l/-c, scripts, the REPL, dispatching `cheskers WORD`)
-- is repl/start.lua, above this module: nothing here requires repl.*.
--
-- A subcommand is a Lua module cheskers.cmd.WORD (repl/cheskers/cmd/WORD.lua,
-- or cheskers/cmd/WORD.lua in any folder of package.path) returning either a
-- function run(args, cli) or a table
--   { summary = "one line for the list", usage = "text for help WORD",
--     run = function(args, cli) ... end }
-- where args are the arguments after WORD. run returns the exit status:
-- nil, true or 0 for success, false for 1, or a number. An error raised
-- with error(msg, 0) is printed as one line; any other error is printed
-- with its traceback. Everything here works under stock lua5.4.

local cli = {}

cli.progname = "cheskers"

cli.usage = [==[
usage: cheskers [options] [FILE [args] | SUBCOMMAND [args]]

With no FILE or SUBCOMMAND: the interactive REPL (type help there).
When standard input is not a terminal, lines are read as a batch: no
prompts, colours or boards (moves, undo and redo say "played d6-e5",
"took back d6-e5"), errors on stderr, exit status 1 if any line failed.

  FILE [args]     run the Lua script FILE, with arg[1..] = args ('-' = stdin)
  SUBCOMMAND      run cheskers.cmd.SUBCOMMAND (see the list below)
  -e CODE         run the Lua code CODE
  -l NAME         require the module NAME into the global NAME
  -c 'CMD; CMD'   run REPL commands (moves, commands or Lua) and exit
  -i              enter the REPL after FILE / -e / -c
  --ascii         draw the board in plain ASCII, without colours
  --norc          do not load ~/.cheskersrc.lua (or $CHESKERS_RC)
  --stop-on-error a batch (-c, or lines from a pipe) stops at its first failing line
  -v, --version   print the version
  -h, --help      print this help
  --              stop handling options

Environment: CHESKERS_HISTORY (history file, default ~/.cheskers_history),
CHESKERS_RC (start-up file, default ~/.cheskersrc.lua), NO_COLOR.]==]

-- Writes "cheskers: msg" (or "cheskers WHO: msg") to stderr, each of its
-- lines escaped for the console (cheskers.escape.lines): a message quoting
-- a file or a bot cannot send the terminal an escape sequence.
function cli.report(msg, who)
  io.stderr:write(cli.progname, who and " " .. who or "", ": ",
                  require("cheskers.escape").lines(tostring(msg)), "\n")
  io.stderr:flush()
end

-- The failure of subcommand who: a function(msg) that reports msg
-- ("cheskers WHO: msg") and returns the exit status (default 1), for
-- `return fail(msg)`.
function cli.failure(who, status)
  return function(msg)
    cli.report(msg, who)
    return status or 1
  end
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

-- Whether an error caught with its traceback is a bug of running code: its
-- message starts with the position of a frame of the traceback ("f.lua:12:
-- attempt to index a nil value" raised at f.lua:12). A position a message
-- only reports ("exp.lua:3: unexpected symbol", a syntax error of a file
-- the program read, raised by error(msg, 0)) is not one of its frames: it
-- is input, and gets one line. This is the policy of the whole program
-- (subcommands, scripts, the REPL): tracebacks for bugs in code, one line
-- for mistakes in what was read.
function cli.is_bug(err, traceback)
  if type(err) ~= "string" or type(traceback) ~= "string" then return false end
  local at = err:match("^([^\n]-:%d+): ")
  if not at then return false end
  return traceback:find("\n\t" .. at .. ": ", 1, true) ~= nil
end

-- Prints an error caught by rl.run: the trimmed traceback for a bug
-- (cli.is_bug), else one line: the message (multi-line messages are a
-- program's own, each line shown). Every line is escaped for the console
-- (cli.report). Returns the exit status for it (130 after Ctrl-C, else 1).
function cli.report_error(err, traceback, who)
  if require("cheskers").error_code(err) == "interrupted" then
    cli.report("interrupted", who)
    return 130
  end
  if cli.is_bug(err, traceback) then
    cli.report(cli.trim_traceback(traceback), who)
  else
    cli.report(tostring(err), who)
  end
  return 1
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

-- The argparse parser of subcommand name ("cheskers match"): -h/--help is
-- declared (cli.parse_args answers it), argparse's own help is off.
function cli.parser(name, description, epilog)
  local p = require("argparse")(name, description, epilog)
  p:add_help(false)
  p:flag("-h --help", "this help")
  return p
end

-- The progress of a subcommand on stderr, its one owner (no other file
-- writes "\r": tests/tools/layers_test.sh): on a terminal one line rewritten in
-- place, else a line each. Returns show(line [, note [, force]]) (note: a
-- line printed above it, that stays) and done() (ends the line). opts:
-- every (seconds: a line shown sooner after the last is skipped, unless
-- force or note), terminal (only on a terminal: nothing elsewhere).
function cli.progress(opts)
  opts = opts or {}
  local cheskers = require "cheskers"
  local tty = cheskers.isatty(io.stderr)
  local shown, last = false, nil
  local function show(line, note, force)
    if opts.terminal and not tty then return end
    local now = opts.every and cheskers.clock()
    if opts.every and not force and not note and last and now - last < opts.every then return end
    last = now
    if note then io.stderr:write(shown and tty and "\r\27[K" or "", note, "\n") end
    if line then
      if tty then io.stderr:write("\r\27[K", line) else io.stderr:write(line, "\n") end
      shown = true
    elseif tty and shown then
      io.stderr:write("\r\27[K")
      shown = false
    end
    io.stderr:flush()
  end
  return show, function() if tty and shown then io.stderr:write("\n") shown = false end end
end

-- Declares the option names (e.g. "--games -n") of parser p that takes a
-- number: its converter is the one reader of numbers, by the declaration
-- key (default: the first name; cheskers.numbers.DECLARED).
function cli.number(p, names, description, default, key)
  local numbers = require "cheskers.numbers"
  local key_ = key or names:match("^%S+")
  return p:option(names, ("%s [%s]"):format(description, numbers.range_text(key_)), default)
    :convert(numbers.converter(key_))
end

-- The command-line options of how games are played, shared by `cheskers
-- match`, `tournament` and `tune` (repl/cheskers/cmd/): added to their
-- argparse parser p, then checked and copied into a cfg by
-- cheskers.match.game_options (games each command declares with its own
-- default).
-- defaults: {opening_plies =} for a command whose own default differs.
function cli.game_options(p, defaults)
  p:option("--rules", "rules: a preset, name=value options or a {...} table")
  local number = cli.number
  number(p, "--seed", "seed of the openings and of math.random", "1")
  number(p, "--nodes", "node budget per move (limits.nodes)")
  number(p, "--time", "CPU seconds per move, handed to the bots (limits.time); not deterministic. A move "
         .. "using more than 3T + 1 s of CPU (or --move-timeout) loses the game")
  number(p, "--move-timeout", "hard limit of one move in CPU seconds (default 3T + 1 with --time, "
         .. "else 30), so a busy machine does not decide games; a move that takes 3 times as long "
         .. "in wall-clock time (at least 2 s: a bot that waits) loses too")
  p:option("--openings", "openings file: a position text, or moves from the start position, per line")
  number(p, "--opening-plies", "random opening plies", tostring(defaults and defaults.opening_plies or 4))
  number(p, "--max-plies", "longer games are drawn", "400")
  number(p, "--repetition", "the N-th occurrence of a position is a draw (0: off)", "3")
  p:flag("--sandbox", "run the bot files in a sandbox: no io, os, require (but \"cheskers\"), "
         .. "load, debug, string patterns; instruction and memory limits. A bot that breaks them "
         .. "loses the game (reason error, detail \"sandbox: ...\")")
end

-- The argparse converter of every option and argument that names a file or
-- a folder (p:option("--out"):convert(cli.path)): refuses an empty path,
-- which "" .. "/results.jsonl" would turn into the root folder
-- (cheskers.files.check_path).
function cli.path(x)
  if require("cheskers.files").check_path(x) then return x end
  return nil, "must name a file or folder"
end

-- The names of parser p's options ("--games", "-n", ...).
local function option_names(p)
  local names = {}
  for _, o in ipairs(p._options or {}) do
    for _, a in ipairs(o._aliases or {}) do names[#names + 1] = a end
  end
  return names
end

-- Makes every converter of p's options (cheskers.numbers.converter: the
-- one reader of numbers) name its option and echo the value it refused
-- ("--games must be a whole number from 1 to 1000000, not '1.5'") instead
-- of argparse's "malformed argument '1.5'"; once per parser. The value is
-- echoed as cheskers.schema shows it: clipped, escaped for the console.
local function name_converters(p)
  if p._cheskers_named then return end
  p._cheskers_named = true
  local all = {}
  for _, o in ipairs(p._options or {}) do all[#all + 1] = o end
  for _, a in ipairs(p._arguments or {}) do all[#all + 1] = a end
  for _, o in ipairs(all) do
    local f = o._convert
    if type(f) == "function" then
      local name = o._name or (o._aliases or {})[1] or "option"
      o._convert = function(x)
        local v, err = f(x)
        if v ~= nil then return v end
        return nil, ("%s %s, not %s"):format(name, err or "must be something else", require("cheskers.schema").show(x))
      end
    end
  end
end

-- The one reading of a subcommand's arguments by its argparse parser p:
-- the options table; or nil when they ask for help (cli.wants_help), after
-- printing usage (default: p's help) even where the rest is wrong; or
-- raises one line: "unknown option '--gmaes' (did you mean '--games'?); see
-- cheskers match --help", "--games must be a whole number, not '1.5'; see ...".
-- So a subcommand's run starts
--   local opts = cli.parse_args(parser(), args)
--   if not opts then return 0 end
-- A negative number after an option that takes one value ("--sprt -25,0",
-- "--min -1.5") is that option's value, as if written "--sprt=-25,0":
-- argparse alone would read "-25,0" as an unknown option.
local function join_negative_values(p, args)
  local takes = {}
  for _, o in ipairs(p._options or {}) do
    if o._minargs == 1 and o._maxargs == 1 then
      for _, a in ipairs(o._aliases or {}) do takes[a] = true end
    end
  end
  local out, i = {}, 1
  while i <= #args do
    local a, nxt = args[i], args[i + 1]
    if a == "--" then
      table.move(args, i, #args, #out + 1, out)
      break
    end
    if takes[a] and nxt and nxt:match("^%-%.?%d") then
      out[#out + 1] = a:match("^%-%-") and (a .. "=" .. nxt) or (a .. nxt)
      i = i + 2
    else
      out[#out + 1] = a
      i = i + 1
    end
  end
  return out
end

function cli.parse_args(p, args, usage)
  if cli.wants_help(args) then
    io.stdout:write(usage or p:get_help(), "\n")
    return nil
  end
  name_converters(p)
  local ok, opts = p:pparse(join_negative_values(p, args))
  if ok then return opts end
  local msg = tostring(opts):gsub("\nDid you mean.*$", "")
  local bad = msg:match("^unknown option '([^']*)'$")
  if bad then msg = msg .. require("cheskers").did_you_mean(bad, option_names(p)) end
  error(("%s; see %s --help"):format(msg, p._name or cli.progname), 0)
end

-- The options of a run that writes a results folder (cheskers.store): --restart
-- (start over: remove what of holds first) and --steal-lock, the same for
-- match, tournament, experiment and tune.
function cli.add_run_options(p, what)
  p:flag("--restart", "start over: remove " .. what .. " first")
  p:flag("--steal-lock", "take over the lock of the results file even when its owner looks alive (a run "
         .. "on another machine that is gone; a dead process here or an ended Slurm job is taken over anyway)")
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

-- Whether a subcommand's arguments ask for its help (-h or --help before
-- any "--"), so that it can print its usage before parsing the rest.
function cli.wants_help(args)
  for _, a in ipairs(args) do
    if a == "-h" or a == "--help" then return true end
    if a == "--" then break end
  end
  return false
end

return cli
