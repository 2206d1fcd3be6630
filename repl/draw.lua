-- repl.draw: how the REPL shows things. Boards as text (ASCII, Unicode
-- glyphs, ANSI colours), the status line under a board and the tablebase
-- verdict under it (draw.tables: the REPL's tablebases, from the `tb DIR`
-- setting registry.settings.tb, else $CHESKERS_TB, else ./tb), and any Lua value
-- printed readably (repl.draw.pretty).

local cheskers = require "cheskers"
local movetext = require "cheskers.movetext"
local luadata = require "cheskers.luadata"
local registry = require "repl.registry"

local draw = {}

local board_mt, move_mt
local function metatables()
  if not board_mt then
    local b = cheskers.new()
    board_mt = getmetatable(b)
    local ms = b:moves()
    move_mt = ms[1] and getmetatable(ms[1])
  end
end

function draw.is_board(v)
  metatables()
  return type(v) == "userdata" and getmetatable(v) == board_mt
end

function draw.is_move(v)
  metatables()
  return type(v) == "userdata" and move_mt ~= nil and getmetatable(v) == move_mt
end

-- ---- drawing --------------------------------------------------------------

-- Pawns are draughts men, kings and bishops the chess glyphs; the camel is
-- its letter, C and c (coloured like the other pieces), by default: its
-- fairy-chess glyph, a knight turned ninety degrees (U+1FA0D, U+1FA13), is
-- in few fonts and shows as an empty box on most terminals. The setting
-- camel_glyph (opts.camel_glyph) draws it. Never the chess knight.
local GLYPHS = {
  P = "⛀", K = "♔", B = "♗", C = "C",
  p = "⛂", k = "♚", b = "♝", c = "c",
}
local CAMEL_GLYPHS = { C = "\u{1FA0D}", c = "\u{1FA13}" }

registry.setting { name = "camel_glyph", default = false,
                   help = "draw the camel as its fairy-chess glyph (U+1FA0D, U+1FA13; few fonts have it: "
                     .. "an empty box means yours does not) instead of C and c" }
local FILES = "abcdefgh"
local COLOR = {   -- ANSI escapes (the session's errors are red too)
  light = "\27[48;5;223m", dark = "\27[48;5;137m", mark = "\27[48;5;179m",
  white = "\27[1;38;5;231m", black = "\27[38;5;232m",
  reset = "\27[0m", dim = "\27[2m", red = "\27[31m", bold = "\27[1m",
}

draw.COLOR = COLOR

local side_name = movetext.side_name
draw.side_name = side_name

draw.result_text = movetext.result_text

-- The status line of a board: side to move and move number, or the result;
-- the last move.
function draw.status(board)
  local parts = {}
  local over = movetext.game_over(board)
  if over then
    parts[1] = over
  else
    parts[1] = string.format("%s to move, move %d", side_name(board:turn()), board:moveno())
  end
  local hist = board:history()
  if #hist > 0 then parts[#parts + 1] = "last move " .. tostring(hist[#hist]) end
  local rules = require("cheskers.rulespec").format(board:rules())
  if rules ~= "golomb" then parts[#parts + 1] = "rules " .. rules end
  return table.concat(parts, "; ")
end

-- ---- the tablebase verdict ----------------------------------------------

local tables_of = {}     -- directory -> { tables = (opened once), mtime = the folder's when last looked at }

-- The REPL's tablebases: the directory of the setting tb (false: none),
-- else the default of the command line and of Lua (cheskers.tb.default():
-- $CHESKERS_TB when set, else ./tb). The folder is looked at again
-- (tables:reload()) when it changed since (its modification time: tables
-- built since count, for the verdict, `tb` and `go`), or with fresh.
function draw.tables(fresh)
  local dir = registry.settings.tb
  if dir == false then return nil end
  if dir == nil then dir = cheskers.tb.default():dir() end
  local mtime = require("lfs").attributes(dir, "modification")
  local e = tables_of[dir]
  if not e then
    e = { tables = cheskers.tb.open(dir) }
    tables_of[dir] = e
  elseif fresh or e.mtime ~= mtime then
    e.tables:reload()
  end
  e.mtime = mtime
  return e.tables
end

-- The tables' verdict on the position: "tablebase: White wins in 17
-- plies", "tablebase: draw", or nil when no table covers it (or the game
-- is over).
function draw.verdict(board, tables)
  if not tables or board:result() then return nil end
  local value, plies = board:probe(tables)
  if not value then return nil end
  if value == "draw" then return "tablebase: draw" end
  local turn = board:turn()
  local winner = value == "win" and turn or (turn == "white" and "black" or "white")
  return string.format("tablebase: %s wins in %s", side_name(winner), cheskers.plural(plies, "ply"))
end

-- The squares of the move to highlight: opts.last, by default the last
-- move of the history (false: none).
local function marked_squares(board, opts)
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
  return marked
end

-- The ranks (top to bottom) and files (left to right) as drawn.
local function orientation(flip)
  local ranks, files = {}, {}
  for i = 1, 8 do
    ranks[i] = flip and i or 9 - i
    files[i] = flip and 9 - i or i
  end
  return ranks, files
end

-- One square of the Unicode / colour board: three columns.
local function fancy_square(board, sq, darksq, marked, opts)
  local piece = darksq and board:get(sq) or nil
  local glyph = piece and (opts.unicode and (opts.camel_glyph and CAMEL_GLYPHS[piece] or GLYPHS[piece]) or piece)
    or " "
  if opts.color then
    local bg = not darksq and COLOR.light or marked[sq] and COLOR.mark or COLOR.dark
    local fg = piece and (piece:match("%u") and COLOR.white or COLOR.black) or ""
    return bg .. fg .. " " .. glyph .. " " .. COLOR.reset
  end
  local l, rgt = " ", " "
  if marked[sq] then l, rgt = "[", "]" end
  if not darksq then glyph = " " elseif not piece then glyph = opts.unicode and "·" or "." end
  return l .. glyph .. rgt
end

-- The lines of the Unicode / colour board.
local function fancy_lines(board, opts, marked)
  local ranks, files = orientation(opts.flip)
  local header = "   "
  for _, f in ipairs(files) do header = header .. " " .. FILES:sub(f, f) .. " " end
  local out = { header }
  for _, r in ipairs(ranks) do
    local row = { " " .. r .. " " }
    for _, f in ipairs(files) do
      row[#row + 1] = fancy_square(board, FILES:sub(f, f) .. r, (f + r) % 2 == 0, marked, opts)
    end
    row[#row + 1] = " " .. r
    out[#out + 1] = table.concat(row)
  end
  out[#out + 1] = header
  return out
end

-- The lines of the plain ASCII board (the last move in brackets).
local function ascii_lines(board, opts, marked)
  local ranks, files = orientation(opts.flip)
  local header = "    "
  for _, f in ipairs(files) do header = header .. FILES:sub(f, f) .. " " end
  local out = { header, "  +-----------------+" }
  for _, r in ipairs(ranks) do
    local row = { r .. " |" }
    local prev_marked = false
    for _, f in ipairs(files) do
      local sq = FILES:sub(f, f) .. r
      local darksq = (f + r) % 2 == 0
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
  return out
end

-- Draws a board as text. opts: unicode (glyphs), camel_glyph (the camel's
-- fairy-chess glyph rather than its letter), color (ANSI colours),
-- flip (Black's side at the bottom), last (a move to highlight; default the
-- last move of the history; false for none), status (false: no status line
-- and no verdict), tables (tablebases for the verdict line; default
-- draw.tables(); false: none).
function draw.board(board, opts)
  opts = opts or {}
  local marked = marked_squares(board, opts)
  local out = (opts.unicode or opts.color) and fancy_lines(board, opts, marked) or ascii_lines(board, opts, marked)
  if opts.status ~= false then
    local status = draw.status(board)
    if opts.color then status = COLOR.bold .. status .. COLOR.reset end
    out[#out + 1] = status
    local tables = opts.tables
    if tables == nil then tables = draw.tables() end
    out[#out + 1] = draw.verdict(board, tables or nil)
  end
  return table.concat(out, "\n")
end

-- Text of words after first, as lines of at most width columns (79 by
-- default), broken between words only; lines after the first start with
-- indent blanks (default 1). Words are joined by one blank (after first
-- too, unless it is empty); a word is never split.
function draw.wrap(first, words, indent, width)
  width = width or 79
  local pad = string.rep(" ", indent or 1)
  local lines, line = {}, first
  for _, w in ipairs(words) do
    local sep = (line == "" or line == pad) and "" or " "
    if utf8.len(line) + #sep + utf8.len(w) > width and line:match("%S") then
      lines[#lines + 1] = line
      line = pad .. w
    else
      line = line .. sep .. w
    end
  end
  lines[#lines + 1] = line
  return table.concat(lines, "\n")
end

-- ---- printing values ------------------------------------------------------

-- A readable one-value text (cheskers.luadata.write, the one writer of Lua
-- literals): strings quoted inside tables, tables as constructors (sorted
-- keys, nested up to depth 3, at most 200 items, one item a line when
-- longer than a line), moves and boards by their text.
function draw.pretty(v)
  return luadata.write(v, { width = 78, depth = 3, items = 200, other = function(x)
    if draw.is_board(x) then return "<board " .. x:fen() .. ">" end
  end })
end

return draw
