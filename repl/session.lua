-- repl.session: the interactive session of the cheskers program: the
-- Session object (one line at a time: a command, moves or Lua), the loop
-- that reads lines, and the `repl` table that start-up files and the
-- prompt see (repl.command, repl.settings, repl.draw, ...).
--
-- A session reads lines (GNU readline on a terminal, plain lines otherwise).
-- Each line is, in this order:
--   a command (repl/commands/*.lua: `help` lists them), when its first word names one;
--   moves ("d6-e5", "1. d6-e5 c3-d4"), played on the current board; a word
--   shaped like move text that is no move gets a move error;
--   Lua, run in the global state, where `cheskers` is the module and `board`
--   the current board (assigning another board to `board` makes it current).
-- Interactive sessions draw the board after each change. Batch sessions (input
-- not a terminal, or `cheskers -c`) print no prompts, colours or boards unless
-- asked (`show`: moves, undo and redo say "played d6-e5", "took back d6-e5"
-- instead), report errors on stderr
-- and end with status 1 if any line failed; with stop_on_error
-- (--stop-on-error) they stop at the first line that fails.
--
-- Extending, from ~/.cheskersrc.lua ($CHESKERS_RC) or at the prompt, where
-- `repl` is this module: repl.command { ... } (see repl/registry.lua),
-- repl.settings.flip = true (a setting nobody declared is refused: a
-- start-up file declares its own with repl.setting{name =, default =}).
-- In run: S.board is the board, S:set_board(b) replaces it, S:fail(msg) stops
-- with a one-line error, S:print(...) writes a line, S:show() draws the board,
-- S:changed() asks for a redraw after the line.

local cheskers = require "cheskers"
local rl = require "cheskers.readline"
local movetext = require "cheskers.movetext"
local registry = require "repl.registry"
local draw = require "repl.draw"
local complete = require "repl.complete"
require "repl.commands.help"
require "repl.commands.game"
require "repl.commands.engine"
require "repl.commands.files"
require "repl.commands.puzzle"
require "repl.commands.tb"

local trim, words_of, IS_KEYWORD = registry.trim, registry.words_of, registry.IS_KEYWORD
local COLOR = draw.COLOR

-- The module: what start-up files and the prompt see as `repl`.
local repl = {
  settings = registry.settings, setting = registry.setting, commands = registry.commands,
  command_list = registry.command_list, command = registry.command,
  command_names = registry.command_names, fail = registry.fail,
  draw = draw.board, pretty = draw.pretty, status = draw.status,
  result_text = movetext.result_text, is_board = draw.is_board, is_move = draw.is_move,
}

local Session = {}
Session.__index = Session

-- Whether the rest of a line after a command name makes it Lua instead:
-- `moves = 3`, `moves == x`, `history[1]`, `help.x`, `board:f`, `moves + 1`
-- (an operator and a blank), but not `load ./game.pgn` or `save /tmp/g`.
local function lua_after_name(rest)
  return rest:match("^=") or rest:match("^[%.:][%a_]") or rest:match("^[%[%(\"'{]")
    or rest:match("^[%+%-%*/%%^<>~&|]+=?%s") or rest:match("^%.%.%s")
    or rest:match("^[<>~]=") or false
end


-- A new session. opts: interactive (a terminal at both ends: prompts,
-- colours, history, boards), ascii, rc (load the start-up file; default
-- true), board, out and errout (files for results and errors; default
-- io.stdout and io.stderr), stop_on_error (a batch session stops at its
-- first error, exit status 1).
function repl.session(opts)
  opts = opts or {}
  local S = setmetatable({}, Session)
  S.out, S.errout = opts.out or io.stdout, opts.errout or io.stderr
  S.redo = {}
  S.tags = {}
  S.failed = false
  S.stop_on_error = opts.stop_on_error or false
  S.lineno = 0
  if opts.ascii then registry.settings.ascii = true end
  S:set_interactive(opts.interactive or false)
  S:set_board(opts.board or cheskers.new())
  S.dirty = false
  _G.cheskers = cheskers
  _G.repl = repl
  repl.current = S
  if opts.rc ~= false then S:load_rc() end
  return S
end

-- Whether the locale says UTF-8 (or says nothing, as in many containers).
local function utf8_locale()
  for _, name in ipairs({ "LC_ALL", "LC_CTYPE", "LANG" }) do
    local v = os.getenv(name)
    if v and v ~= "" then return v:lower():gsub("-", ""):find("utf8") ~= nil end
  end
  return true
end

-- Interactive sessions on a terminal draw in colour (unless NO_COLOR is set
-- and not empty, TERM is dumb or settings.ascii), with Unicode pieces when
-- the locale is UTF-8.
function Session:set_interactive(on)
  self.interactive = on
  self.tty_out = io.type(self.out) == "file" and cheskers.isatty(self.out)
  local no_color = os.getenv("NO_COLOR")
  self.fancy = on and self.tty_out and not registry.settings.ascii
    and (no_color == nil or no_color == "") and os.getenv("TERM") ~= "dumb"
  self.unicode = self.fancy and utf8_locale()
end

-- The drawing options of this session.
function Session:draw_options()
  local fancy = self.fancy and not registry.settings.ascii
  return { unicode = fancy and self.unicode, color = fancy, flip = registry.settings.flip,
           camel_glyph = registry.settings.camel_glyph }
end

function Session:autoshow()
  local a = registry.settings.autoshow
  if a == nil then return self.interactive end
  return a
end

function Session:print(...)
  local n = select("#", ...)
  local t = {}
  for i = 1, n do t[i] = tostring((select(i, ...))) end
  self.out:write(table.concat(t, "\t"), "\n")
  self.out:flush()
end

function Session:fail(msg)
  registry.fail(msg)
end

-- Prints an error line (or lines): red on a terminal; in batch sessions
-- "cheskers: line N: " first, and the end of the session when it stops
-- on errors.
function Session:error(msg)
  self.failed = true
  self.out:flush()
  msg = require("cheskers.escape").lines(tostring(msg))   -- (it may quote a file or a bot)
  if self.fancy then
    self.errout:write(COLOR.red, msg, COLOR.reset, "\n")
  elseif not self.interactive then
    local where = self.lineno > 0 and string.format("line %d: ", self.lineno) or ""
    self.errout:write("cheskers: ", where, msg, "\n")
  else
    self.errout:write(msg, "\n")
  end
  self.errout:flush()
  if self.stop_on_error and not self.interactive then
    self.done = true
    self.exit_status = self.exit_status or 1
  end
end

-- After a Ctrl-C in a command or Lua code: one line (over the "^C" the
-- terminal echoed), and the prompt again. A batch session stops there
-- (exit status 130, as for a shell).
function Session:interrupted()
  if self.interactive then
    if self.tty_out then
      self.out:write("\r\27[K")
      self.out:flush()
    end
    self.errout:write("interrupted\n")
    self.errout:flush()
  else
    self:error("interrupted")
    self.done = true
    self.exit_status = 130
  end
end

function Session:clear_progress()
  if self.progress_shown then
    self.out:write("\r\27[K")
    self.out:flush()
    self.progress_shown = false
  end
end

function Session:show()
  self:print(draw.board(self.board, self:draw_options()))
end

function Session:changed()
  self.dirty = true
end

-- The identity of the shown state: which board, which position, how much history.
function Session:state_key()
  return self.board:fen() .. "|" .. #self.board:history()
end

-- Notes a change made by a command (so the board is drawn and the redo
-- list kept).
function Session:sync_key()
  self.key = self:state_key()
  self.dirty = true
end

function Session:set_board(b)
  self.board = b
  _G.board = b
  self.redo = {}
  self.tags = {}
  self.dirty = true
  self:sync_key()
end

-- Registers reply(session) to run after every line, before the board is
-- looked at: how a bot or a puzzle answers the moves typed. It runs with
-- Ctrl-C armed; an error or Ctrl-C prints "...; NAME off" and calls
-- off(session). Registering a name twice keeps the first.
function Session:answer_after_lines(name, reply, off)
  self.responders = self.responders or {}
  for _, r in ipairs(self.responders) do
    if r.name == name then return end
  end
  table.insert(self.responders, 1, { name = name, reply = reply, off = off })
end

-- After a line: runs the registered replies, picks up a board assigned to
-- the global `board`, notices changes made through it, redraws when
-- something changed. Returns false when `board` had to be put back.
function Session:after_line()
  for _, r in ipairs(self.responders or {}) do
    local ok, e = rl.run(r.reply, self)
    if not ok then
      r.off(self)
      local why = cheskers.error_code(e) == "interrupted" and "interrupted" or tostring(e)
      self:error(why .. "; " .. r.name .. " off")
    end
  end
  local good = true
  local g = rawget(_G, "board")
  if g ~= self.board then
    if draw.is_board(g) then
      self.board = g
      self.redo = {}
      self.tags = {}
      self.dirty = true
    else
      _G.board = self.board
      self:error("board must stay a board (cheskers.new() makes one); it is the current board again")
      good = false
    end
  end
  local key = self:state_key()
  if key ~= self.key then
    self.redo = {}
    self.dirty = true
  end
  self.key = key
  if self.dirty then
    self.dirty = false
    if self:autoshow() then self:show() end
  end
  return good
end

function Session:load_rc()
  local path = os.getenv("CHESKERS_RC")
  local explicit = path ~= nil and path ~= ""
  if not explicit then
    local home = os.getenv("HOME")
    if not home then return end
    path = home .. "/.cheskersrc.lua"
  end
  local files = require("cheskers.files")
  if not explicit and not files.exists(path) then return end
  local readable = require("cheskers.luadata").readable   -- (the path in full)
  local chunk, err, reason = files.load_lua(path, "script")
  if not chunk then
    self:error(reason and "cannot read the start-up file: " .. err or readable(err, "@" .. path))
    return
  end
  local ok, e, tb = rl.run(chunk)
  if not ok then self:error("in " .. path .. ": " .. readable(tb or tostring(e), "@" .. path)) end
  local g = rawget(_G, "board")
  if draw.is_board(g) then self.board = g else _G.board = self.board end
  self:sync_key()
  self.dirty = false
end

-- Cuts the frames of the REPL itself off a traceback.
local function user_traceback(tb)
  return require("cheskers.cli").trim_traceback(tb)
end

local function is_interrupt(e)
  return cheskers.error_code(e) == "interrupted"
end

-- Prints results of Lua code: boards drawn, other values pretty.
function Session:print_values(res)
  for i = 1, res.n do
    local v = res[i]
    if draw.is_board(v) then
      self:print(draw.board(v, self:draw_options()))
    elseif type(v) == "table" then
      self:print(draw.pretty(v))
    else
      self:print(tostring(v))
    end
  end
end

function Session:unknown_command_message(word)
  local hint = cheskers.did_you_mean(word, registry.command_names())
  if hint ~= "" then return string.format("unknown command '%s'%s", word, hint) end
  return string.format("unknown command '%s' (help lists the commands; other lines are Lua)", word)
end

-- Reports an error caught by rl.run: Ctrl-C, a command's one-line error,
-- else the message, with the traceback (cut to the user's frames) for Lua
-- code, or for a command's bug (cheskers.cli.is_bug).
function Session:report_failure(e, tb, lua_code)
  self:clear_progress()
  if is_interrupt(e) then
    self:interrupted()
  elseif registry.is_user_error(e) then
    self:error(e.message)
  elseif tb and (lua_code or require("cheskers.cli").is_bug(e, tb)) then
    self:error(user_traceback(tb))
  else
    -- (a binding's argument error in the words of the command that failed)
    self:error(registry.failure_message(e, not lua_code and self.command_running))
  end
end

-- A name that is more likely a mistyped command than Lua: "perf 3",
-- "plya d6-e5", a lone unknown name.
local function mistyped_command(code, continued)
  local word = code:match("^%s*([%a_][%w_%-]*)%s+[%w_%-]") or code:match("^%s*([%a_][%w_]*%-[%w_%-]*)%s*$")
    or trim(code):match("^[%a_][%w_]*$")
  if word and not continued and rawget(_G, word) == nil and not IS_KEYWORD[word] then return word end
end

-- Compiles code: first as `return code` (so expressions print), else as a
-- statement. Returns the function, or "more" (unfinished), or false after
-- reporting the error.
function Session:compile(code, continued)
  local f, err
  if not continued then
    local expr = code:match("^=(.*)$")
    f = load("return " .. (expr or code), "=stdin", "t")
  end
  if f then return f end
  f, err = load(code, "=stdin", "t")
  if f then return f end
  if err:match("<eof>$") then return "more" end
  local word = mistyped_command(code, continued)
  self:error(word and self:unknown_command_message(word) or err)
  return false
end

-- Runs code as Lua and prints its values. Returns true, false (failed)
-- or "more" (unfinished).
function Session:lua(code, continued)
  local f = self:compile(code, continued)
  self.pending = f == "more" and code or nil
  if type(f) ~= "function" then return f end
  -- a lone unknown name is more likely a mistyped command than a nil variable
  local word = trim(code):match("^[%a_][%w_]*$") and mistyped_command(code, continued)
  if word then
    self:error(self:unknown_command_message(word))
    return false
  end
  local res = table.pack(rl.run(f))
  if not res[1] then
    self:report_failure(res[2], res[3], true)
    return false
  end
  table.remove(res, 1)
  res.n = res.n - 1
  if res.n > 0 then self:print_values(res) end
  return true
end

function Session:run_command(cmd, rest)
  self.command_running = cmd.name
  local ok, e, tb = rl.run(cmd.run, self, words_of(rest), rest)
  if ok then
    self.command_running = nil
    return true
  end
  self:report_failure(e, tb, false)
  self.command_running = nil
  return false
end

-- What a word of a line is (movetext.word_kind under the board's rules):
-- "move" for move text, good or bad (played, or refused with its reason),
-- "square", "number", or nil (Lua). A word that starts with the name of a
-- Lua global that is set is Lua: `a1 = 3` then `a1-b2`.
local function word_kind(b, w)
  local name = w:match("^[%a_][%w_]*")
  if name and rawget(_G, name) ~= nil then return nil end
  local kind = movetext.word_kind(b, w)
  return kind == "bad" and "move" or kind
end

-- Sorts a line by its words: the move texts of a line of moves (and move
-- numbers); or nil and an error for a line that is moves with something
-- else in it (its first word move text), or squares alone ("e5 c3"); or
-- nil for Lua.
local function move_words(b, text)
  local moves, squares, other, lua_word, first = {}, {}, nil, false, nil
  for w in text:gmatch("%S+") do
    local kind = word_kind(b, w)
    first = first or kind or "lua"
    if kind == "move" then
      moves[#moves + 1] = w
    elseif kind ~= "number" then
      other = other or w
      if kind == "square" then squares[#squares + 1] = w:lower() else lua_word = true end
    end
  end
  if #moves == 0 then
    if not lua_word and #squares > 1 then
      return nil, string.format("'%s' is not a move: write %s", text, table.concat(squares, "-"))
    end
    return nil
  end
  if other and first ~= "move" then return nil end
  if other then
    return nil, string.format("'%s' is not a move (a line of moves holds only moves and move numbers)", other)
  end
  return moves
end

-- A line that is no command: a square (its moves), moves, or Lua.
function Session:words_line(text)
  if word_kind(self.board, text) == "square" then
    return self:run_command(registry.commands.moves, text:lower())
  end
  local moves, err = move_words(self.board, text)
  if err then
    self:error(err)
    return false
  end
  if not moves then return self:lua(text) end
  return self:run_command(registry.commands.play, table.concat(moves, " "))
end

-- Handles one input line. Returns true, false (it failed) or "more".
function Session:feed(line)
  local result
  if self.pending then
    result = self:lua(self.pending .. "\n" .. line, true)
  else
    local text = trim(line)
    if text == "" then return true end
    local word, rest = text:match("^(%S+)%s*(.*)$")
    local cmd = registry.commands[word]
    if cmd and not lua_after_name(rest) then
      result = self:run_command(cmd, rest)
    else
      result = self:words_line(text)
    end
  end
  if result ~= "more" and not self:after_line() then result = false end
  return result
end

-- Tab completion (repl/complete.lua): candidates for the word
-- line[start+1..stop] and a kind ("files", "nospace" or nil).
function Session:complete(line, start, stop)
  return complete.line(self, line, start, stop)
end

-- Runs "cmd; cmd; ..." (cheskers -c). Returns true when every one succeeded.
function Session:run_commands(text)
  local all = true
  for piece in (text .. ";"):gmatch("([^;]*);") do
    self.lineno = 0
    if self.pending or trim(piece) ~= "" then
      if self:feed(piece) == false then all = false end
      if self.done then break end
    end
  end
  if self.pending then
    self.pending = nil
    self:error("unfinished Lua statement at the end of the commands")
    all = false
  end
  return all
end

-- ---- the loop -------------------------------------------------------------

function Session:history_path()
  local p = os.getenv("CHESKERS_HISTORY")
  if p then return p ~= "" and p or nil end
  local home = os.getenv("HOME")
  return home and home .. "/.cheskers_history" or nil
end

function Session:prompt()
  local p = self.pending and registry.settings.prompt2 or registry.settings.prompt
  if type(p) == "function" then
    local ok, s = pcall(p, self)
    p = ok and tostring(s) or "cheskers> "
  end
  return p
end

-- Start of an interactive loop: history read, completion on, greeting
-- and board.
function Session:begin_interactive()
  self.hist = self:history_path()
  if self.hist then rl.read_history(self.hist, registry.settings.history_size) end
  rl.set_completer(function(line, start, stop) return self:complete(line, start, stop) end)
  self:print(string.format("Cheskers %s. Type help for the commands, a move to play it, or Lua.",
    cheskers.VERSION or ""))
  self:show()
end

-- Adds a line typed at the terminal to the history (not blank lines, not
-- the same line twice in a row).
function Session:remember(line)
  if line:match("%S") and line ~= self.last_line then
    rl.add_history(line)
    if self.hist then rl.append_history(self.hist) end
    self.last_line = line
  end
end

-- Handles what readline returned: a line, nil (end of input) or false
-- (Ctrl-C at the prompt). Returns false when the loop ends.
function Session:take(line, interactive)
  if line == nil then
    if interactive then self.out:write("\n") end
    if self.pending and not interactive then self:error("unfinished Lua statement at the end of the input") end
    self.pending = nil
    return false
  elseif line == false then
    self.pending = nil
    if interactive then return true end
    self:error("interrupted")
    self.exit_status = 130
    return false
  end
  self.lineno = self.lineno + 1
  line = line:gsub("\r$", "")
  local nul = line:find("\0", 1, true)
  if nul then     -- no command, move or Lua reads it right: said, not guessed at
    self:error(("a NUL byte (at column %d) in the line: it is skipped"):format(nul))
    return true
  end
  if interactive then self:remember(line) end
  self:feed(line)
  return true
end

-- Reads and handles lines until the end of input or quit. Interactive when
-- standard input is a terminal. Returns the exit status.
function Session:loop()
  local interactive = cheskers.isatty(io.stdin)
  self:set_interactive(interactive)
  if interactive then self:begin_interactive() end
  while not self.done do
    if not self:take(rl.readline(interactive and self:prompt() or ""), interactive) then break end
  end
  if interactive then
    rl.set_completer(nil)
    if self.hist then rl.truncate_history(self.hist, registry.settings.history_size) end
    return 0
  end
  return self.exit_status or (self.failed and 1 or 0)
end

return repl
