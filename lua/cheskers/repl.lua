-- cheskers.repl: the interactive session of the cheskers program.
--
-- A session reads lines (GNU readline on a terminal, plain lines otherwise).
-- Each line is, in this order:
--   a command (repl.commands: `help` lists them), when its first word names one;
--   moves ("d6-e5", "1. d6-e5 c3-d4"), played on the current board;
--   Lua, run in the global state, where `cheskers` is the module and `board`
--   the current board (assigning another board to `board` makes it current).
-- Interactive sessions draw the board after each change. Batch sessions (input
-- not a terminal, or `cheskers -c`) print no prompts, colours or boards unless
-- asked (`show`), report errors on stderr and end with status 1 if any line
-- failed.
--
-- Extending, from ~/.cheskersrc.lua ($CHESKERS_RC) or at the prompt, where
-- `repl` is this module:
--   repl.command {
--     name = "hello", args = "[NAME]", help = "Says hello.\nMore lines of help.",
--     summary = "for the list of `help`; default: the first sentence of help",
--     aliases = { "hi" },
--     complete = "moves" | "squares" | "files" | "commands" | function(S, token, words) -> list,
--     run = function(S, args, rest) S:print("hello " .. (args[1] or "you")) end,
--   }
--   repl.settings.flip = true
-- In run: S.board is the board, S:set_board(b) replaces it, S:fail(msg) stops
-- with a one-line error, S:print(...) writes a line, S:show() draws the board,
-- S:changed() asks for a redraw after the line.

local cheskers = require "cheskers"
local rl = require "cheskers.readline"
local record = require "cheskers.record"

local repl = {}

repl.settings = {
  prompt = "cheskers> ",   -- a string, or a function(S) returning one
  prompt2 = ">> ",         -- continuation of an unfinished Lua statement
  ascii = false,           -- plain ASCII board even on a terminal
  flip = false,            -- draw the board from Black's side
  autoshow = nil,          -- draw after each change (nil: in interactive sessions)
  history_size = 1000,
  progress_after = 1.0,    -- seconds of perft/divide before the progress line shows
}

repl.commands = {}         -- name -> command (aliases map to the same command)
repl.command_list = {}     -- commands in definition order (for help)

local Session = {}
Session.__index = Session

-- ---- small helpers --------------------------------------------------------

local function words_of(s)
  local t = {}
  for w in s:gmatch("%S+") do t[#t + 1] = w end
  return t
end

local function trim(s)
  return s:match("^%s*(.-)%s*$")
end

local KEYWORDS = {
  "and", "break", "do", "else", "elseif", "end", "false", "for", "function",
  "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then",
  "true", "until", "while",
}
local IS_KEYWORD = {}
for _, k in ipairs(KEYWORDS) do IS_KEYWORD[k] = true end

local board_mt, move_mt
local function metatables()
  if not board_mt then
    local b = cheskers.new()
    board_mt = getmetatable(b)
    local ms = b:moves()
    move_mt = ms[1] and getmetatable(ms[1])
  end
end

function repl.is_board(v)
  metatables()
  return type(v) == "userdata" and getmetatable(v) == board_mt
end

function repl.is_move(v)
  metatables()
  return type(v) == "userdata" and move_mt ~= nil and getmetatable(v) == move_mt
end

-- A move token as typed: optional piece letter, a square, a separator, a square...
local function is_move_token(t)
  return t:match("^[KBCPkbcp]?[a-h][1-8][%-x:][a-h][1-8][a-h1-8x%-:]*=?[KBCkbc]?$") ~= nil
end

local function is_number_token(t)
  return t:match("^%d+%.+$") ~= nil
end

-- Whether the rest of a line after a command name makes it Lua instead:
-- `moves = 3`, `moves == x`, `history[1]`, `help.x`, `board:f`, `moves + 1`
-- (an operator and a blank), but not `load ./game.pgn` or `save /tmp/g`.
local function lua_after_name(rest)
  return rest:match("^=") or rest:match("^[%.:][%a_]") or rest:match("^[%[%(\"'{]")
    or rest:match("^[%+%-%*/%%^<>~&|]+=?%s") or rest:match("^%.%.%s")
    or rest:match("^[<>~]=") or false
end

-- Splits a line into move texts when it is only moves (and move numbers).
local function moves_of_line(line)
  local moves = {}
  for w in line:gmatch("%S+") do
    if is_move_token(w) then
      moves[#moves + 1] = w
    elseif not is_number_token(w) then
      return nil
    end
  end
  if #moves > 0 then return moves end
end

-- ---- drawing --------------------------------------------------------------

local GLYPHS = {
  P = "⛀", K = "♔", B = "♗", C = "♘",
  p = "⛂", k = "♚", b = "♝", c = "♞",
}
local FILES = "abcdefgh"
local COLOR = {
  light = "\27[48;5;223m", dark = "\27[48;5;137m", mark = "\27[48;5;179m",
  white = "\27[1;38;5;231m", black = "\27[38;5;232m",
  reset = "\27[0m", dim = "\27[2m", red = "\27[31m", bold = "\27[1m",
}

local function side_name(s) return s:sub(1, 1):upper() .. s:sub(2) end

-- "White wins: Black has no king left", "Draw: repetition", ...
function repl.result_text(winner, reason)
  local loser = winner == "white" and "Black" or "White"
  local why = ({
    kings = loser .. " has no king left", stalemate = loser .. " cannot move",
    repetition = "repetition", quiet = "quiet moves",
  })[reason] or tostring(reason)
  if winner == "draw" then return "Draw: " .. why end
  return side_name(tostring(winner)) .. " wins: " .. why
end

-- The status line of a board: side to move and move number, or the result;
-- the last move.
function repl.status(board)
  local parts = {}
  local winner, reason = board:result()
  if winner then
    parts[1] = "Game over. " .. repl.result_text(winner, reason)
  else
    parts[1] = string.format("%s to move, move %d", side_name(board:turn()), board:moveno())
  end
  local hist = board:history()
  if #hist > 0 then parts[#parts + 1] = "last move " .. tostring(hist[#hist]) end
  local rules = record.rules_text(board:rules())
  if rules ~= "golomb" then parts[#parts + 1] = "rules " .. rules end
  return table.concat(parts, "; ")
end

-- Draws a board as text. opts: unicode (glyphs), color (ANSI colours),
-- flip (Black's side at the bottom), last (a move to highlight; default the
-- last move of the history; false for none), status (false: no status line).
function repl.draw(board, opts)
  opts = opts or {}
  local last = opts.last
  if last == nil then
    local hist = board:history()
    last = hist[#hist]
  end
  local marked = {}
  if last then
    marked[last.from] = true
    for _, sq in ipairs(last.path or { last.to }) do marked[sq] = true end
  end
  local ranks, files = {}, {}
  for r = 8, 1, -1 do ranks[#ranks + 1] = r end
  for f = 1, 8 do files[#files + 1] = f end
  if opts.flip then
    local rr, ff = {}, {}
    for i = 8, 1, -1 do rr[#rr + 1] = ranks[i]; ff[#ff + 1] = files[i] end
    ranks, files = rr, ff
  end
  local out = {}
  if opts.unicode or opts.color then
    local header = "   "
    for _, f in ipairs(files) do header = header .. " " .. FILES:sub(f, f) .. " " end
    out[#out + 1] = header
    for _, r in ipairs(ranks) do
      local row = { " " .. r .. " " }
      for _, f in ipairs(files) do
        local sq = FILES:sub(f, f) .. r
        local darksq = (f - 1 + r - 1) % 2 == 0
        local piece = darksq and board:get(sq) or nil
        local glyph = piece and (opts.unicode and GLYPHS[piece] or piece) or " "
        if opts.color then
          local bg = not darksq and COLOR.light or marked[sq] and COLOR.mark or COLOR.dark
          local fg = piece and (piece:match("%u") and COLOR.white or COLOR.black) or ""
          row[#row + 1] = bg .. fg .. " " .. glyph .. " " .. COLOR.reset
        else
          local l, rgt = " ", " "
          if marked[sq] then l, rgt = "[", "]" end
          if not darksq then glyph = " " elseif not piece then glyph = opts.unicode and "·" or "." end
          row[#row + 1] = l .. glyph .. rgt
        end
      end
      row[#row + 1] = " " .. r
      out[#out + 1] = table.concat(row)
    end
    out[#out + 1] = header
  else
    local header = "    "
    for _, f in ipairs(files) do header = header .. FILES:sub(f, f) .. " " end
    out[#out + 1] = header
    out[#out + 1] = "  +-----------------+"
    for _, r in ipairs(ranks) do
      local row = { r .. " |" }
      local prev_marked = false
      for _, f in ipairs(files) do
        local sq = FILES:sub(f, f) .. r
        local darksq = (f - 1 + r - 1) % 2 == 0
        local piece = darksq and board:get(sq) or nil
        local sep = marked[sq] and darksq and "[" or prev_marked and "]" or " "
        row[#row + 1] = sep .. (piece or (darksq and "." or " "))
        prev_marked = marked[sq] and darksq
      end
      row[#row + 1] = (prev_marked and "]" or " ") .. "| " .. r
      out[#out + 1] = table.concat(row)
    end
    out[#out + 1] = "  +-----------------+"
    out[#out + 1] = header
  end
  if opts.status ~= false then
    local status = repl.status(board)
    if opts.color then status = COLOR.bold .. status .. COLOR.reset end
    out[#out + 1] = status
  end
  return table.concat(out, "\n")
end

-- ---- printing values ------------------------------------------------------

local function is_identifier(k)
  return type(k) == "string" and k:match("^[%a_][%w_]*$") and not IS_KEYWORD[k]
end

local function key_order(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  if ta == "number" or ta == "string" then return a < b end
  return tostring(a) < tostring(b)
end

-- A readable one-value text: strings quoted inside tables, tables as
-- constructors (sorted keys, nested up to depth 3, at most 200 items), moves
-- and boards by their text.
function repl.pretty(v, indent, seen, depth)
  indent, seen, depth = indent or "", seen or {}, depth or 0
  local t = type(v)
  if t == "string" then return (string.format("%q", v):gsub("\\\n", "\\n")) end
  if t ~= "table" then
    if repl.is_board(v) then return "<board " .. v:fen() .. ">" end
    return tostring(v)
  end
  local mt = getmetatable(v)
  if mt and mt.__tostring then return tostring(v) end
  if seen[v] then return "<cycle>" end
  if depth >= 3 then return "{...}" end
  seen[v] = true
  local items, n = {}, #v
  for i = 1, n do items[#items + 1] = repl.pretty(v[i], indent .. "  ", seen, depth + 1) end
  local keys = {}
  for k in pairs(v) do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
  end
  table.sort(keys, key_order)
  for _, k in ipairs(keys) do
    local ks = is_identifier(k) and k or "[" .. repl.pretty(k, indent, seen, depth + 1) .. "]"
    items[#items + 1] = ks .. " = " .. repl.pretty(v[k], indent .. "  ", seen, depth + 1)
  end
  seen[v] = nil
  local more = ""
  if #items > 200 then
    more = string.format(", ... (%d more)", #items - 200)
    for i = #items, 201, -1 do items[i] = nil end
  end
  if #items == 0 then return "{}" end
  local one = "{" .. table.concat(items, ", ") .. more .. "}"
  if #one + #indent <= 78 and not one:find("\n") then return one end
  return "{\n" .. indent .. "  " .. table.concat(items, ",\n" .. indent .. "  ")
    .. (more ~= "" and ",\n" .. indent .. "  " .. more:sub(3) or "") .. "\n" .. indent .. "}"
end

-- ---- commands -------------------------------------------------------------

-- Defines (or redefines) a command; see the top of this file.
function repl.command(def)
  assert(type(def) == "table", "repl.command: a table expected")
  assert(type(def.name) == "string" and def.name:match("^[%a_][%w_%-]*$"),
    "repl.command: name must be a word")
  assert(type(def.run) == "function", "repl.command: run must be a function")
  def.help = def.help or ""
  def.args = def.args or ""
  local old = repl.commands[def.name]
  if old then
    for i, c in ipairs(repl.command_list) do
      if c == old then table.remove(repl.command_list, i) break end
    end
  end
  repl.commands[def.name] = def
  for _, a in ipairs(def.aliases or {}) do repl.commands[a] = def end
  repl.command_list[#repl.command_list + 1] = def
  return def
end

function repl.command_names()
  local names = {}
  for name in pairs(repl.commands) do names[#names + 1] = name end
  table.sort(names)
  return names
end

-- A one-line error raised from a command (no traceback).
local UserError = {}
UserError.__index = UserError
UserError.__tostring = function(e) return e.message end

function repl.fail(msg)
  error(setmetatable({ message = msg }, UserError), 0)
end

local function count_arg(S, s, what, default)
  if s == nil then return default end
  local n = math.tointeger(tonumber(s))
  if not n or n < 0 then S:fail(string.format("%s must be a whole number >= 0, not '%s'", what, s)) end
  return n
end

-- Plays move texts on board, all or none. Fails with the legal moves that
-- could have been meant.
function Session:play_moves(texts)
  local b = self.board:copy()
  for i, text in ipairs(texts) do
    local m, err = b:parse(text)
    if not m then
      local prefix = #texts > 1 and string.format("move %d of %d: ", i, #texts) or ""
      self:fail(prefix .. self:illegal_message(b, text, err))
    end
    b:play(m)
  end
  for _, text in ipairs(texts) do
    local played = self.board:play(text)
    -- keep the redo list when the move is its next one
    if self.redo[#self.redo] and self.redo[#self.redo] == tostring(played) then
      self.redo[#self.redo] = nil
    else
      self.redo = {}
    end
  end
  self:sync_key()
end

-- The message for a move text that board refused, with suggestions.
function Session:illegal_message(b, text, err)
  local winner, reason = b:result()
  if winner then
    return string.format("the game is over (%s): no more moves; undo or new",
      repl.result_text(winner, reason))
  end
  err = err or "illegal move"
  if not err:find(text, 1, true) then err = "illegal move " .. text .. ": " .. err end
  local from = text:match("^[KBCPkbcp]?([a-h][1-8])")
  local all = b:moves()
  local mine = {}
  for _, m in ipairs(all) do
    if m.from == from then mine[#mine + 1] = tostring(m) end
  end
  if #mine > 0 then
    return string.format("%s; legal from %s: %s", err, from, table.concat(mine, " "))
  end
  local list = {}
  for i, m in ipairs(all) do
    if i > 12 then list[#list + 1] = string.format("... (%d in all: moves)", #all) break end
    list[#list + 1] = tostring(m)
  end
  local piece = from and b:get(from)
  local what
  if not from or err:find(from, 1, true) then
    what = ""
  elseif not piece then
    what = string.format("; %s is empty", from)
  elseif (piece:match("%u") and "white" or "black") ~= b:turn() then
    what = string.format("; %s holds a %s piece and %s is to move", from,
      piece:match("%u") and "white" or "black", side_name(b:turn()))
  else
    what = string.format("; no legal move from %s", from)
  end
  return string.format("%s%s; legal moves: %s", err, what, table.concat(list, " "))
end

-- The engine's method, when the board has one.
local function engine_method(b, name)
  local ok, f = pcall(function() return b[name] end)
  if ok and type(f) == "function" then return f end
end

-- perft with the plies above the last LEAF_DEPTH walked in Lua, so that
-- report(i, n, nodes) hears about progress often (i of n root moves, nodes
-- counted so far). Returns the total and the counts per root move.
local LEAF_DEPTH = 6
local function split_perft(b, depth, report)
  local per, total, done = {}, 0, 0
  if depth == 0 then return 1, per end
  local i, n = 0, 0
  local function count(d)
    if d <= LEAF_DEPTH then
      local c = b:perft(d)
      done = done + c
      report(i, n, done)
      return c
    end
    local sum = 0
    for _, m in ipairs(b:moves()) do
      b:play(m)
      sum = sum + count(d - 1)
      b:undo()
    end
    return sum
  end
  local moves = b:moves()
  n = #moves
  for k, m in ipairs(moves) do
    i = k
    b:play(m)
    local c = count(depth - 1)
    b:undo()
    per[tostring(m)] = c
    total = total + c
  end
  return total, per
end

local function count_command(S, args, divide)
  local name = divide and "divide" or "perft"
  if #args ~= 1 then S:fail(string.format("usage: %s N (the depth)", name)) end
  local depth = count_arg(S, args[1], "the depth")
  if divide and depth < 1 then S:fail("divide needs a depth of 1 or more") end
  local b = S.board:copy()   -- the board stays as it was, even after Ctrl-C
  local t0 = rl.now()
  local total, per
  if S.tty_out and S.interactive then
    local after = repl.settings.progress_after
    local shown = 0
    total, per = split_perft(b, depth, function(i, n, nodes)
      local now = rl.now()
      if now - t0 >= after and now - shown >= 0.1 then
        shown = now
        S.progress_shown = true
        S.out:write(string.format("\r%s %d: root move %d of %d, %d nodes, %.1f s\27[K",
          name, depth, i, n, nodes, now - t0))
        S.out:flush()
      end
    end)
  elseif divide then
    per = b:divide(depth)
  else
    total = b:perft(depth)
  end
  local dt = rl.now() - t0
  S:clear_progress()
  if divide then
    local keys = {}
    total = 0
    for k, v in pairs(per) do keys[#keys + 1] = k; total = total + v end
    table.sort(keys)
    for _, k in ipairs(keys) do S:print(string.format("%-14s %d", k, per[k])) end
    S:print(string.format("%d moves", #keys))
  end
  local rate = dt > 0 and total / dt or 0
  local rtext = rate >= 1e6 and string.format("%.1f M", rate / 1e6)
    or rate >= 1e3 and string.format("%.1f k", rate / 1e3) or string.format("%.0f ", rate)
  S:print(string.format("%s %d: %d nodes in %.3f s (%snodes/s)", name, depth, total, dt, rtext))
end

-- The rule values offered by completion.
local RULE_VALUES = {
  majority = { "true", "false" }, capture = { "mixed", "jumps", "all", "optional" },
  promote = { "KBC", "KB", "KC", "BC", "K", "B", "C" }, first = { "black", "white" },
  flying_kings = { "true", "false" }, pawns_capture_backward = { "true", "false" },
  draw_repetition = { "0", "2", "3" }, draw_quiet_plies = { "0", "50", "100" },
}

local function complete_rules(_, token)
  local name = token:match("^([%w_]+)=")
  local out = {}
  if name then
    for _, v in ipairs(RULE_VALUES[name] or {}) do out[#out + 1] = name .. "=" .. v end
  else
    for _, n in ipairs(record.RULE_OPTIONS) do out[#out + 1] = n .. "=" end
    out[#out + 1] = "golomb"
  end
  return out
end

repl.command {
  name = "help", args = "[COMMAND]", complete = "commands",
  help = "Lists the commands, or tells about one.",
  run = function(S, args)
    if args[1] then
      local c = repl.commands[args[1]]
      if not c then S:fail(S:unknown_command_message(args[1])) end
      S:print((("%s %s"):format(c.name, c.args):gsub("%s+$", "")))
      S:print("  " .. c.help:gsub("\n", "\n  "))
      if c.aliases and #c.aliases > 0 then S:print("  (also: " .. table.concat(c.aliases, ", ") .. ")") end
      return
    end
    S:print("Commands (help COMMAND tells more):")
    for _, c in ipairs(repl.command_list) do
      -- c.summary, or the first sentence of the help, wrapped
      local text = c.summary or c.help:gsub("%s*\n%s*", " ")
      local summary = c.summary or text:match("^(.-%.)%s") or text
      local line, lines = string.format("  %-9s", c.name), {}
      for w in summary:gmatch("%S+") do
        if #line + 1 + #w > 79 then lines[#lines + 1] = line; line = string.rep(" ", 12) .. w
        else line = line .. " " .. w end
      end
      lines[#lines + 1] = line
      S:print(table.concat(lines, "\n"))
    end
    S:print([[
A line of moves plays them: d6-e5, or 1. d6-e5 c3-d4. Any other line is Lua,
with `board` the current board and `cheskers` the module (board:moves(), ...).
Tab completes commands, moves, squares, file names and Lua names;
Ctrl-C interrupts; Ctrl-D or quit leaves.]])
  end,
}

repl.command {
  name = "show", help = "Draws the board.",
  run = function(S) S:show() end,
}

repl.command {
  name = "new", help = "Starts a new game under the current rules.",
  run = function(S)
    S:set_board(cheskers.new(nil, S.board:rules()))
  end,
}

repl.command {
  name = "fen", args = "[FEN]",
  help = "Prints the position as FEN text, or sets it.\nSetting keeps the rules; the history starts over.",
  run = function(S, args, rest)
    if #args == 0 then S:print(S.board:fen()) return end
    local ok, b = pcall(cheskers.new, trim(rest), S.board:rules())
    if not ok then S:fail(tostring(b)) end
    S:set_board(b)
  end,
}

repl.command {
  name = "moves", args = "[SQUARE]", complete = "squares",
  help = "Lists the legal moves (those from SQUARE only, when given).",
  run = function(S, args)
    local sq = args[1]
    if sq and not sq:match("^[a-h][1-8]$") then S:fail("not a square: " .. sq) end
    local list = {}
    for _, m in ipairs(S.board:moves()) do
      if not sq or m.from == sq then list[#list + 1] = tostring(m) end
    end
    if #list == 0 then
      local winner = S.board:result()
      S:print(winner and "no moves: the game is over" or
        ("no legal move" .. (sq and (" from " .. sq) or "")))
      return
    end
    local lines, line = {}, string.format("%d legal move%s:", #list, #list == 1 and "" or "s")
    for _, m in ipairs(list) do
      if #line + #m + 1 > 78 then lines[#lines + 1] = line; line = " " end
      line = line .. " " .. m
    end
    lines[#lines + 1] = line
    S:print(table.concat(lines, "\n"))
  end,
}

repl.command {
  name = "play", args = "MOVE...", complete = "moves",
  help = "Plays the moves in order (all or none). A line of moves alone does the same.",
  run = function(S, args)
    if #args == 0 then S:fail("usage: play MOVE...") end
    local moves = {}
    for _, a in ipairs(args) do
      if not is_number_token(a) then moves[#moves + 1] = a end
    end
    S:play_moves(moves)
  end,
}

repl.command {
  name = "undo", args = "[N]",
  help = "Takes back the last move (or N moves).\nredo plays them again.",
  run = function(S, args)
    local n = count_arg(S, args[1], "N", 1)
    if #S.board:history() == 0 then S:fail("nothing to undo") end
    local done = 0
    for _ = 1, n do
      local m = S.board:undo()
      if not m then break end
      S.redo[#S.redo + 1] = tostring(m)
      done = done + 1
    end
    if done < n then S:print(string.format("took back %d move%s (no more to undo)", done, done == 1 and "" or "s")) end
    S:sync_key()
  end,
}

repl.command {
  name = "redo", args = "[N]",
  help = "Plays again the last move taken back (the last N).",
  run = function(S, args)
    local n = count_arg(S, args[1], "N", 1)
    if #S.redo == 0 then S:fail("nothing to redo") end
    for _ = 1, n do
      local text = table.remove(S.redo)
      if not text then break end
      S.board:play(text)
    end
    S:sync_key()
  end,
}

repl.command {
  name = "history", help = "Prints the moves played, numbered.",
  run = function(S)
    local start = record.initial(S.board)
    local fresh = cheskers.new(nil, S.board:rules())
    if start:fen() ~= fresh:fen() then S:print("from " .. start:fen()) end
    local text = record.movetext(S.board)
    S:print(text == "" and "no moves yet" or text)
  end,
}

repl.command {
  name = "perft", args = "N",
  help = "Counts the move sequences of length N from the position.\n"
    .. "Prints the time taken and the nodes per second; a progress line after a second\n"
    .. "on a terminal. Ctrl-C stops it; the board stays as it was.",
  run = function(S, args) count_command(S, args, false) end,
}

repl.command {
  name = "divide", args = "N",
  help = "perft N for each legal move, then the total.",
  run = function(S, args) count_command(S, args, true) end,
}

repl.command {
  name = "rules", args = "[OPTION=VALUE ... | golomb]", complete = complete_rules,
  help = "Shows the rules, or starts a new game under changed rules.\n"
    .. "Options (RULES.md): majority, capture, promote, first, flying_kings,\n"
    .. "pawns_capture_backward, draw_repetition, draw_quiet_plies.\n"
    .. "Example: rules majority=false capture=jumps. `rules golomb` goes back to the defaults.",
  run = function(S, args, rest)
    if #args == 0 then
      local r = S.board:rules()
      local default = cheskers.rules()
      S:print("rules: " .. record.rules_text(r))
      for _, name in ipairs(record.RULE_OPTIONS) do
        S:print(string.format("  %-24s %s%s", name, tostring(r[name]),
          r[name] ~= default[name] and "   (golomb: " .. tostring(default[name]) .. ")" or ""))
      end
      return
    end
    local spec, err = record.parse_rules(rest)
    if not spec then S:fail(err) end
    if type(spec) == "table" then
      local merged = S.board:rules()
      for k, v in pairs(spec) do merged[k] = v end
      spec = merged
    end
    local ok, b = pcall(cheskers.new, nil, spec)
    if not ok then S:fail(tostring(b)) end
    S:set_board(b)
    S:print("new game, rules: " .. record.rules_text(b:rules()))
  end,
}

repl.command {
  name = "eval",
  help = "The engine's static evaluation of the position.\nIn pawns for the side to move, with its terms.",
  run = function(S, args)
    local f = engine_method(S.board, "eval")
    if not f then S:fail("not available yet: the engine is a later issue") end
    if #args > 0 then S:fail("usage: eval (no arguments)") end
    local score, terms = f(S.board)
    S:print(string.format("eval %+.2f for %s (the side to move)", score / 100, S.board:turn()))
    if type(terms) == "table" then
      local names = {}
      for k, v in pairs(terms) do
        if v ~= 0 then names[#names + 1] = k end
      end
      table.sort(names)
      for _, k in ipairs(names) do S:print(string.format("  %-24s %+.2f", k, terms[k] / 100)) end
    end
  end,
}

-- ---- engine commands: go, bot (the engine's author) ------------------------

-- A score for people: "+0.35" (pawns), or "win in 5" / "loss in 4" (plies).
local function score_text(score)
  local e = cheskers.engine
  if e and math.abs(score) >= e.MATE_MIN then
    local plies = e.WIN - math.abs(score)
    return string.format("%s in %d", score > 0 and "win" or "loss", plies)
  end
  return string.format("%+.2f", score / 100)
end

local function rate_text(n)
  if n >= 1e6 then return string.format("%.1fM", n / 1e6) end
  if n >= 1e3 then return string.format("%.0fk", n / 1e3) end
  return tostring(math.floor(n))
end

local function line_text(pv, max)
  local t = {}
  for i, m in ipairs(pv) do
    if i > max then t[#t + 1] = "..." break end
    t[#t + 1] = tostring(m)
  end
  return table.concat(t, " ")
end

-- The limits of `go`: "go" (2 seconds), "go 8" (depth 8), "go depth 8",
-- "go nodes 100000", "go time 5" / "go 5s", or name=value options.
local function go_limits(S, args)
  local o, i = {}, 1
  while i <= #args do
    local a = args[i]
    local k, v = a:match("^([%a_]+)=(.*)$")
    if not k and (a == "depth" or a == "nodes" or a == "time") then
      k, v = a, args[i + 1]
      i = i + 1
    end
    if not k then
      if a:match("^%d+$") then k, v = "depth", a
      elseif a:match("^[%d.]+s$") then k, v = "time", a:sub(1, -2)
      else S:fail("go: expected depth N, nodes N, time S, N (a depth) or Ns (seconds), not '" .. a .. "'") end
    end
    local n = tonumber(v)
    if not n or n <= 0 then S:fail("go: " .. k .. " must be a positive number") end
    if k ~= "time" then
      n = math.tointeger(n)
      if not n then S:fail("go: " .. k .. " must be a whole number") end
    end
    o[k] = n
    i = i + 1
  end
  if not o.depth and not o.nodes and not o.time then o.time = 2 end
  return o
end

repl.command {
  name = "go", args = "[N | depth N | nodes N | time S | Ns]",
  help = "Engine analysis of the position: best line, score, depth and speed,\n" ..
    "a line per completed depth. Default: 2 seconds. Ctrl-C stops it.\n" ..
    "Scores are in pawns for the side to move; \"win in N\" counts plies.",
  run = function(S, args)
    local f = engine_method(S.board, "search")
    if not f then S:fail("the engine is not built into this cheskers module") end
    local o = go_limits(S, args)
    if S.board:result() then S:fail("the game is over: nothing to analyse") end
    o.info = function(t)
      S:print(string.format("depth %2d/%-2d  score %-11s nodes %-9d %6s nps  %6.2f s  %s",
        t.depth, t.seldepth, score_text(t.score), t.nodes, rate_text(t.nps), t.time, line_text(t.pv, 16)))
    end
    local r = f(S.board, o)
    if r.move then
      S:print(string.format("best move %s (score %s, depth %d, %d nodes, %s nps)",
        tostring(r.move), score_text(r.score), r.depth, r.nodes, rate_text(r.nps)))
    end
  end,
}

-- The bot answering moves, when it is the bot's turn: plays its move on
-- the board. Called after each line once `bot` has been used.
local function bot_reply(S)
  local p = S.bot_player
  local b = S.board
  if not p or b:result() or b:turn() ~= p.color then return end
  local ok, mv = pcall(p.bot.choose, b:copy(), p.limits)
  if not ok and cheskers.error_code(mv) == "interrupted" then error(mv, 0) end
  local m, err
  if ok and mv ~= nil then m, err = b:parse(tostring(mv)) end
  if not m then
    S.bot_player = nil
    S:error(string.format("bot %s failed (%s); bot off", p.bot.name,
      ok and (mv == nil and "no move" or "illegal move " .. tostring(mv) .. ": " .. tostring(err)) or tostring(mv)))
    return
  end
  b:play(m)
  S:print(string.format("%s (%s) plays %s", p.bot.name, p.color, tostring(m)))
  local winner, reason = b:result()
  if winner then S:print(string.format("game over: %s (%s)", winner, reason)) end
end

repl.command {
  name = "bot", args = "NAME[:OPTIONS] [white|black] | off",
  help = "Makes a bot answer your moves: NAME is a bot of scripts/bots/ (random,\n" ..
    "greedy, alphabeta, mcts, engine) or a Lua file, options as in\n" ..
    "`cheskers match` (engine:level=5). The bot plays the side given, by default\n" ..
    "the side not to move; it moves at once when that side is to move.\n" ..
    "`bot off` stops it. Budget: 20000 nodes a move (the bot's own options first).",
  run = function(S, args)
    local name = args[1]
    if not name then
      local p = S.bot_player
      S:print(p and string.format("bot %s plays %s", p.bot.name, p.color) or "no bot (bot NAME [white|black])")
      return
    end
    if name == "off" then
      S.bot_player = nil
      S:print("bot off")
      return
    end
    local color = args[2]
    if color and color ~= "white" and color ~= "black" then S:fail("bot: the side is white or black, not '" .. color .. "'") end
    if not color then color = S.board:turn() == "white" and "black" or "white" end
    local match = require "cheskers.match"
    local ok, bot = pcall(match.load_bot, name)
    if not ok then S:fail(tostring(bot)) end
    if bot.new_game then
      local okn, err = pcall(bot.new_game, S.board:rules())
      if not okn then S:fail("bot " .. name .. ": " .. tostring(err)) end
    end
    S.bot_player = { bot = bot, color = color, limits = { nodes = 20000 } }
    S:print(string.format("bot %s plays %s", bot.name, color))
    -- answer after every line of this session (moves typed, play, redo ...)
    S:answer_after_lines("bot", bot_reply, function(self) self.bot_player = nil end)
  end,
}

repl.command {
  name = "save", args = "FILE", complete = "files",
  help = "Writes the game to FILE as a game record.\nThe record holds the rules, the start position when it is not the usual one, and\nthe moves (cheskers.record).",
  run = function(S, args, rest)
    local path = trim(rest)
    if path == "" then S:fail("usage: save FILE") end
    -- written beside the target, then renamed: a failed write loses nothing
    local tmp = path .. ".tmp"
    local f, err = io.open(tmp, "w")
    if not f then S:fail("cannot save: " .. err) end
    local ok, werr = f:write(record.write(S.board, S.tags))
    local closed, cerr = f:close()
    if not ok or not closed then
      os.remove(tmp)
      S:fail("cannot save: " .. tostring(werr or cerr))
    end
    local renamed, rerr = os.rename(tmp, path)
    if not renamed then os.remove(tmp) S:fail("cannot save: " .. rerr) end
    local n = #S.board:history()
    S:print(string.format("saved %d move%s to %s", n, n == 1 and "" or "s", path))
  end,
}

repl.command {
  name = "load", args = "FILE", complete = "files",
  help = "Reads a game record from FILE.\nIts rules, start position and moves become the current game; undo walks back\nthrough it.",
  run = function(S, args, rest)
    local path = trim(rest)
    if path == "" then S:fail("usage: load FILE") end
    local f, err = io.open(path, "r")
    if not f then S:fail("cannot load: " .. err) end
    local text = f:read("a")
    f:close()
    local b, tags = record.read(text)
    if not b then S:fail(path .. ": " .. tags) end
    S:set_board(b)
    S.tags = tags
    local n = #b:history()
    S:print(string.format("loaded %d move%s from %s", n, n == 1 and "" or "s", path))
  end,
}

repl.command {
  name = "flip", help = "Turns the board round (draws it from the other side).",
  run = function(S)
    repl.settings.flip = not repl.settings.flip
    S:show()
  end,
}

repl.command {
  name = "quit", aliases = { "exit" }, help = "Leaves (so does Ctrl-D).",
  run = function(S) S.done = true end,
}

-- ---- puzzles (cheskers.puzzle) and diagrams (cheskers.svg) -----------------

-- After each line while a puzzle is set (see `puzzle`): answers the
-- solver's move with the best defence, and says when the puzzle is solved
-- or the win thrown away. The state is read from the board's history, so
-- undo and redo work as usual.
local function puzzle_reply(S)
  local P = S.puzzle
  if not P then return end
  local b = S.board
  local plies = #b:history() - P.start
  if b ~= P.board or plies < 0 then
    S.puzzle = nil
    S:print("puzzle off (the board changed)")
    return
  end
  if plies <= P.seen then   -- nothing new, or moves taken back: no answer
    P.seen = plies
    return
  end
  P.seen = plies
  local winner = b:result()
  if winner then
    if winner == P.attacker then
      S:print(string.format("Solved: %s wins in %d. Well played!", P.attacker, (plies + 1) // 2))
    else
      S:print(string.format("Game over: %s wins; the puzzle is not solved (undo to try again)", winner))
    end
    return
  end
  if b:turn() ~= P.defender then return end
  local used = (plies + 1) // 2
  local left = P.moves - used
  if left <= 0 then
    S:print(string.format("That was your last move (of %d) and the game goes on: not solved (undo to try again)",
      P.moves))
    return
  end
  local d, len = b:defend(left)
  if not d then return end
  b:play(d)
  P.seen = plies + 1
  S:sync_key()
  if len == nil then
    S:print(string.format("Defence: %s. Your last move threw the win away: there is no win in the %d move%s left " ..
      "(undo 2 to try again)", tostring(d), left, left == 1 and "" or "s"))
  else
    S:print(string.format("Defence: %s (you win in %d more move%s at best)", tostring(d), len, len == 1 and "" or "s"))
  end
end

repl.command {
  name = "puzzle", args = "FILE [N] | next | again | hint | solution | off", complete = "files",
  help = "Sets up puzzle N (default 1) of the puzzle file FILE to solve: you play\n" ..
    "the side to move, the program answers each move with the best defence\n" ..
    "and says when you have solved it or when a move throws the win away.\n" ..
    "`puzzle` tells the goal again, `puzzle next` goes on to the file's next\n" ..
    "puzzle, `puzzle again` starts this one over, `puzzle hint` names the piece\n" ..
    "to move, `puzzle solution` shows the main line, `puzzle off` stops. Puzzle\n" ..
    "files are loaded as data (see cheskers check).",
  run = function(S, args)
    local P = S.puzzle
    if args[1] == "next" or args[1] == "again" then
      if not P then S:fail("no puzzle set (puzzle FILE [N])") end
      local n = P.index + (args[1] == "next" and 1 or 0)
      if n > P.count then S:fail(string.format("that was the last puzzle of %s (%d)", P.file, P.count)) end
      args = { P.file, tostring(n) }
    end
    if not args[1] then
      if not P then S:print("no puzzle (puzzle FILE [N])") return end
      S:print(string.format("%s: %s to play and win in %d", P.name, P.attacker, P.moves))
      return
    end
    if args[1] == "off" then
      S.puzzle = nil
      S:print("puzzle off")
      return
    end
    if args[1] == "hint" then
      if not P then S:fail("no puzzle set (puzzle FILE [N])") end
      local b = S.board
      if b:result() or b:turn() ~= P.attacker then S:fail("hint: it is not your move") end
      local left = P.moves - (#b:history() - P.start) // 2
      local s = left >= 1 and b:solve { moves = left, all = false }
      if not s or not s.win then
        S:print(string.format("no win left in %d move%s: undo and try again", left, left == 1 and "" or "s"))
      else
        S:print(string.format("hint: move the piece on %s (a win in %d)", s.moves[1].from, s.shortest))
      end
      return
    end
    if args[1] == "solution" then
      if not P then S:fail("no puzzle set (puzzle FILE [N])") end
      S:print(#P.solution > 0 and table.concat(P.solution, " ") or "(the file gives no solution)")
      return
    end
    local puzzle = require "cheskers.puzzle"
    local list, err = puzzle.load(args[1])
    if not list then S:fail(err) end
    local n = 1
    if args[2] then
      n = math.tointeger(tonumber(args[2]))
      if not n or n < 1 or n > #list then
        S:fail(string.format("puzzle: N must be 1 to %d, not '%s'", #list, args[2]))
      end
    end
    local p = list[n]
    local ok, b = pcall(cheskers.new, p.fen, p.rules)
    if not ok then S:fail("puzzle " .. n .. ": bad position: " .. tostring(b)) end
    if b:result() then S:fail("puzzle " .. n .. ": the game is already over") end
    S:set_board(b)
    local attacker = b:turn()
    S.puzzle = { board = b, start = #b:history(), seen = 0, moves = p.moves, solution = p.solution or {},
                 attacker = attacker, defender = attacker == "white" and "black" or "white",
                 file = args[1], index = n, count = #list,
                 name = (p.title or args[1]) .. (#list > 1 and string.format(" (%d of %d)", n, #list) or "") }
    S:print(string.format("%s: %s to play and win in %d", S.puzzle.name, attacker, p.moves))
    S:answer_after_lines("puzzle", puzzle_reply, function(self) self.puzzle = nil end)
  end,
}

repl.command {
  name = "svg", args = "FILE", complete = "files",
  help = "Writes the board as an SVG diagram to FILE (the last move tinted,\n" ..
    "drawn from Black's side after `flip`).",
  run = function(S, _, rest)
    local path = trim(rest)
    if path == "" then S:fail("usage: svg FILE") end
    local text = require("cheskers.svg").render(S.board, { flip = repl.settings.flip })
    local f, err = io.open(path, "w")
    if not f then S:fail("cannot write: " .. err) end
    f:write(text, "\n")
    f:close()
    S:print("diagram written to " .. path)
  end,
}

-- ---- sessions -------------------------------------------------------------

-- A new session. opts: interactive (a terminal at both ends: prompts,
-- colours, history, boards), ascii, rc (load the start-up file; default
-- true), board, out and errout (files for results and errors; default
-- io.stdout and io.stderr).
function repl.session(opts)
  opts = opts or {}
  local S = setmetatable({}, Session)
  S.out, S.errout = opts.out or io.stdout, opts.errout or io.stderr
  S.redo = {}
  S.tags = {}
  S.failed = false
  S.lineno = 0
  if opts.ascii then repl.settings.ascii = true end
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
  self.tty_out = rl.isatty(1)
  local no_color = os.getenv("NO_COLOR")
  self.fancy = on and self.tty_out and not repl.settings.ascii
    and (no_color == nil or no_color == "") and os.getenv("TERM") ~= "dumb"
  self.unicode = self.fancy and utf8_locale()
end

-- The drawing options of this session.
function Session:draw_options()
  local fancy = self.fancy and not repl.settings.ascii
  return { unicode = fancy and self.unicode, color = fancy, flip = repl.settings.flip }
end

function Session:autoshow()
  local a = repl.settings.autoshow
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
  repl.fail(msg)
end

-- Prints an error line (or lines): red on a terminal; in batch sessions
-- "cheskers: line N: " first.
function Session:error(msg)
  self.failed = true
  self.out:flush()
  if self.fancy then
    self.errout:write(COLOR.red, msg, COLOR.reset, "\n")
  elseif not self.interactive then
    local where = self.lineno > 0 and string.format("line %d: ", self.lineno) or ""
    self.errout:write("cheskers: ", where, msg, "\n")
  else
    self.errout:write(msg, "\n")
  end
  self.errout:flush()
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
  self:print(repl.draw(self.board, self:draw_options()))
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
    if repl.is_board(g) then
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
  local f = io.open(path, "r")
  if not f then
    if explicit then self:error("cannot read the start-up file " .. path) end
    return
  end
  f:close()
  local chunk, err = loadfile(path, "t")
  if not chunk then self:error(err) return end
  local ok, e, tb = rl.run(chunk)
  if not ok then self:error("in " .. path .. ": " .. (tb or tostring(e))) end
  local g = rawget(_G, "board")
  if repl.is_board(g) then self.board = g else _G.board = self.board end
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
    if repl.is_board(v) then
      self:print(repl.draw(v, self:draw_options()))
    elseif type(v) == "table" then
      self:print(repl.pretty(v))
    else
      self:print(tostring(v))
    end
  end
end

function Session:unknown_command_message(word)
  local cli = require "cheskers.cli"
  local hint = cli.closest(word, repl.command_names())
  if hint then
    return string.format("unknown command '%s'; did you mean '%s'? (help lists the commands)", word, hint)
  end
  return string.format("unknown command '%s' (help lists the commands; other lines are Lua)", word)
end

-- Runs code as Lua: first as `return code` (so expressions print), else as
-- a statement. Returns true, false (failed) or "more" (unfinished).
function Session:lua(code, continued)
  local f, err
  if not continued then
    local expr = code:match("^=(.*)$")
    f = load("return " .. (expr or code), "=stdin", "t")
  end
  if not f then
    f, err = load(code, "=stdin", "t")
    if not f then
      if err:match("<eof>$") then
        self.pending = code
        return "more"
      end
      self.pending = nil
      -- "perf 3", "plya d6-e5": a mistyped command rather than bad Lua
      local word = code:match("^%s*([%a_][%w_%-]*)%s+[%w_%-]") or code:match("^%s*([%a_][%w_]*%-[%w_%-]*)%s*$")
      if word and not continued and rawget(_G, word) == nil and not IS_KEYWORD[word] then
        self:error(self:unknown_command_message(word))
      else
        self:error(err)
      end
      return false
    end
  end
  self.pending = nil
  -- a lone unknown name is more likely a mistyped command than a nil variable
  local word = trim(code):match("^[%a_][%w_]*$")
  if word and not continued and rawget(_G, word) == nil and not IS_KEYWORD[word] then
    self:error(self:unknown_command_message(word))
    return false
  end
  local res = table.pack(rl.run(f))
  if not res[1] then
    self:clear_progress()
    local e, tb = res[2], res[3]
    if is_interrupt(e) then
      self:interrupted()
    elseif getmetatable(e) == UserError then
      self:error(e.message)
    else
      self:error(tb and user_traceback(tb) or tostring(e))
    end
    return false
  end
  table.remove(res, 1)
  res.n = res.n - 1
  if res.n > 0 then self:print_values(res) end
  return true
end

function Session:run_command(cmd, rest)
  local args = words_of(rest)
  local ok, e, tb = rl.run(cmd.run, self, args, rest)
  if ok then return true end
  self:clear_progress()
  if is_interrupt(e) then
    self:interrupted()
  elseif getmetatable(e) == UserError then
    self:error(e.message)
  elseif type(e) == "string" and e:match("^[^\n]-:%d+: ") and tb then
    self:error(user_traceback(tb))   -- a bug in a command: show where
  else
    self:error(tostring(e))
  end
  return false
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
    local cmd = repl.commands[word]
    if cmd and not lua_after_name(rest) then
      result = self:run_command(cmd, rest)
    else
      local moves = moves_of_line(text)
      if text:match("^[a-h][1-8]$") and rawget(_G, text) == nil then
        result = self:run_command(repl.commands.moves, text)
      elseif not moves and is_move_token(word) then
        local bad
        for w in text:gmatch("%S+") do
          if not bad and not is_move_token(w) and not is_number_token(w) then bad = w end
        end
        self:error(string.format("'%s' is not a move (a line of moves holds only moves and move numbers)", bad))
        result = false
      elseif moves then
        result = self:run_command(repl.commands.play, table.concat(moves, " "))
      else
        result = self:lua(text)
      end
    end
  end
  if result ~= "more" and not self:after_line() then result = false end
  return result
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

-- ---- completion -----------------------------------------------------------

local function starts(s, prefix) return s:sub(1, #prefix) == prefix end

-- The texts of the legal moves of b (cached per position).
function Session:move_texts(b)
  local key = b:fen() .. "|" .. tostring(b)
  if self.cache_key ~= key then
    local list = {}
    for _, m in ipairs(b:moves()) do list[#list + 1] = tostring(m) end
    self.cache_key, self.cache_moves = key, list
  end
  return self.cache_moves
end

function Session:square_texts(b)
  local from, seen = {}, {}
  for _, m in ipairs(b:moves()) do
    if not seen[m.from] then seen[m.from] = true; from[#from + 1] = m.from end
  end
  return from, cheskers.SQUARES or {}
end

-- The keys of a value usable after "." (or ":", methods only), following
-- __index tables.
local function fields_of(v, methods_only)
  local out, seen = {}, {}
  local function add_table(t, depth)
    if type(t) ~= "table" or depth > 4 then return end
    for k, val in pairs(t) do
      if type(k) == "string" and k:match("^[%a_][%w_]*$") and not seen[k]
          and (not methods_only or type(val) == "function") then
        seen[k] = true
        out[#out + 1] = k
      end
    end
    local mt = debug.getmetatable(t)
    if mt and type(mt.__index) == "table" then add_table(mt.__index, depth + 1) end
  end
  if type(v) == "table" then
    add_table(v, 0)
  else
    local mt = debug.getmetatable(v)
    if mt and type(mt.__index) == "table" then add_table(mt.__index, 0) end
  end
  return out
end

-- Lua completion of the name chain that ends `before`: candidates for the
-- chain and the position where the chain starts.
local function lua_candidates(before)
  local chain = before:match("[%a_][%w_%.:]*$") or ""
  local tokstart = #before - #chain + 1
  local prev = before:sub(tokstart - 1, tokstart - 1)
  if prev:match("[%w_%.:]") then return {}, tokstart end
  -- nothing typed yet: only where an expression can start
  if chain == "" and prev ~= "" and not prev:match("[%s%(%[{,=+*/<>~]") then return {}, tokstart end
  local path, sep, last = chain:match("^(.*)([%.:])([%w_]*)$")
  local out = {}
  if not path then
    for k in pairs(_G) do
      if type(k) == "string" and starts(k, chain) then out[#out + 1] = k end
    end
    for _, k in ipairs(KEYWORDS) do
      if starts(k, chain) then out[#out + 1] = k end
    end
    return out, tokstart
  end
  if path:find(":", 1, true) then return {}, tokstart end
  local v = _G
  for name in path:gmatch("[^%.]+") do
    local ok, nv = pcall(function() return v[name] end)
    if not ok or nv == nil then return {}, tokstart end
    v = nv
  end
  for _, k in ipairs(fields_of(v, sep == ":")) do
    if starts(k, last) then out[#out + 1] = path .. sep .. k end
  end
  return out, tokstart
end

-- Converts candidates for line[tokstart..] into readline's word line[start+1..].
local function relative(cands, tokstart, start, line)
  local out = {}
  local s1 = start + 1
  if tokstart <= s1 then
    local kept = line:sub(tokstart, start)
    for _, c in ipairs(cands) do
      if starts(c, kept) then out[#out + 1] = c:sub(#kept + 1) end
    end
  else
    local pre = line:sub(s1, tokstart - 1)
    for _, c in ipairs(cands) do out[#out + 1] = pre .. c end
  end
  return out
end

-- The completer called by readline: line, and the word line[start+1..stop]
-- (0-based start). Returns the candidates for that word and a kind ("files",
-- "nospace" or nil).
function Session:complete(line, start, stop)
  local before = line:sub(1, stop)
  local wstart = before:match("()%S*$")
  local token = before:sub(wstart)
  local words = words_of(line:sub(1, wstart - 1))
  local groups = {}   -- {candidates, tokstart, lua?}
  local kind

  local function filtered(list)
    local out = {}
    for _, c in ipairs(list) do if starts(c, token) then out[#out + 1] = c end end
    return out
  end
  local function moves_after(prefix_words)
    local b = self.board
    local played = {}
    for _, w in ipairs(prefix_words) do
      if is_move_token(w) then played[#played + 1] = w end
    end
    if #played > 0 then
      b = b:copy()
      for _, w in ipairs(played) do
        local m = b:parse(w)
        if not m then return {} end
        b:play(m)
      end
    end
    return self:move_texts(b)
  end

  -- inside a string literal: moves and squares
  local q = before:match("^.*()[\"']")
  if q then
    local quote = before:sub(q, q)
    local _, count = before:gsub(quote, "")
    if count % 2 == 1 then
      local inner = before:sub(q + 1)
      if not inner:find("%s") then
        token = inner
        local list = {}
        for _, m in ipairs(self:move_texts(self.board)) do list[#list + 1] = m end
        for _, sq in ipairs(cheskers.SQUARES or {}) do list[#list + 1] = sq end
        groups[1] = { filtered(list), q + 1 }
        kind = "nospace"
      end
    end
  end

  if #groups == 0 then
    local cmd = words[1] and repl.commands[words[1]]
    if #words == 0 then
      local names = filtered(repl.command_names())
      groups[#groups + 1] = { names, wstart }
      if not token:find("[%.:%(]") then
        groups[#groups + 1] = { filtered(self:move_texts(self.board)), wstart }
      end
      if not token:match("^[KBCP]?[a-h][1-8][%-x]") then
        local lc, ls = lua_candidates(before)
        groups[#groups + 1] = { lc, ls, true }
      end
    elseif cmd and not words[1]:find("[=%.:%[%(]") then
      local spec = cmd.complete
      if spec == "files" then
        return {}, "files"
      elseif spec == "moves" then
        groups[1] = { filtered(moves_after({ table.unpack(words, 2) })), wstart }
      elseif spec == "squares" then
        local from, all = self:square_texts(self.board)
        local list = filtered(from)
        if #list == 0 then list = filtered(all) end
        groups[1] = { list, wstart }
      elseif spec == "commands" then
        groups[1] = { filtered(repl.command_names()), wstart }
      elseif type(spec) == "function" then
        local ok, list = pcall(spec, self, token, words)
        groups[1] = { ok and type(list) == "table" and filtered(list) or {}, wstart }
        if ok and type(list) == "table" then
          local allnospace = #groups[1][1] > 0
          for _, c in ipairs(groups[1][1]) do
            if not c:match("=$") then allnospace = false end
          end
          if allnospace then kind = "nospace" end
        end
      else
        local lc, ls = lua_candidates(before)
        groups[1] = { lc, ls, true }
      end
    elseif moves_of_line(table.concat(words, " ")) then
      groups[1] = { filtered(moves_after(words)), wstart }
    else
      local lc, ls = lua_candidates(before)
      groups[1] = { lc, ls, true }
    end
  end

  local out, seen, lua_only = {}, {}, true
  for _, g in ipairs(groups) do
    for _, c in ipairs(relative(g[1], g[2], start, line)) do
      if not seen[c] then
        seen[c] = true
        out[#out + 1] = c
        if not g[3] then lua_only = false end
      end
    end
  end
  table.sort(out)
  if lua_only and #out > 0 then kind = "nospace" end
  return out, kind
end

-- ---- the loop -------------------------------------------------------------

function Session:history_path()
  local p = os.getenv("CHESKERS_HISTORY")
  if p then return p ~= "" and p or nil end
  local home = os.getenv("HOME")
  return home and home .. "/.cheskers_history" or nil
end

function Session:prompt()
  local p = self.pending and repl.settings.prompt2 or repl.settings.prompt
  if type(p) == "function" then
    local ok, s = pcall(p, self)
    p = ok and tostring(s) or "cheskers> "
  end
  return p
end

-- Reads and handles lines until the end of input or quit. Interactive when
-- standard input is a terminal. Returns the exit status.
function Session:loop()
  local interactive = rl.isatty(0)
  self:set_interactive(interactive)
  local hist = interactive and self:history_path()
  local last_line
  if interactive then
    if hist then rl.read_history(hist, repl.settings.history_size) end
    rl.set_completer(function(line, start, stop) return self:complete(line, start, stop) end)
    self:print(string.format("Cheskers %s. Type help for the commands, a move to play it, or Lua.",
      cheskers.VERSION or ""))
    self:show()
  end
  while not self.done do
    local line = rl.readline(interactive and self:prompt() or "")
    if line == nil then
      if interactive then self.out:write("\n") end
      if self.pending then
        self.pending = nil
        if not interactive then self:error("unfinished Lua statement at the end of the input") end
      end
      break
    elseif line == false then
      self.pending = nil
      if not interactive then
        self:error("interrupted")
        self.exit_status = 130
        break
      end
    else
      self.lineno = self.lineno + 1
      line = line:gsub("\r$", "")
      if interactive and line:match("%S") and line ~= last_line then
        rl.add_history(line)
        if hist then rl.append_history(hist) end
        last_line = line
      end
      self:feed(line)
    end
  end
  if interactive then
    rl.set_completer(nil)
    if hist then rl.truncate_history(hist, repl.settings.history_size) end
    return 0
  end
  return self.exit_status or (self.failed and 1 or 0)
end

return repl
