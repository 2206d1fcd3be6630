-- cheskers.svg: board diagrams as SVG text.
--
--   svg.render(board_or_fen, opts) -> text      (also b:svg(opts))
--   svg.piece(letter) -> text    one piece's glyph, around (0, 0) in a
--                                square of 50 units (the analysis board's)
--
-- opts (all optional):
--   flip       true: Black at the bottom (rank 8 nearest the viewer)
--   highlight  list of squares ("c3") or moves (objects or texts) to tint;
--              default: the last move played on the board; false: none
--   arrows     list of moves (objects or texts "c3-e5", "c3xe5xg7") or
--              {from, to} pairs, drawn as arrows along their paths
--   size       width and height in pixels (default 400)
--   coords     false: no file letters and rank numbers
--   turn       false: no "White to move" / "Black to move" line (a disc of
--              the mover's colour and its label, under the board)
--   title      a caption above the board (also the <title> element, for
--              tooltips and accessibility)
--   id         a prefix for the ids in the SVG (several diagrams in one page)
-- Any other key, or a value of the wrong kind, raises one line naming it
-- ("svg: unknown option 'flp' (did you mean 'flip'?)"; svg.OPTIONS).
--
-- The drawing has a margin of PAD units on every side; the board and its
-- coordinates are drawn in a group placed below the caption, so that their
-- coordinates do not depend on the caption.
--
-- b:svg works inside a sandbox box too (a --sandbox bot may draw its board),
-- where the string methods are the box's (cheskers.sandbox: no patterns).
-- This file does not step out of that wall, since it calls the box's
-- values back (tostring of a move, m.from of a table): it uses only what a
-- box has, the string functions byte, char, format, sub and upper, called
-- as functions, never as methods, and reads text with loops the box's
-- instruction count sees.

local S = require "cheskers.schema"

local svg = {}

-- The options of render (see above); the items of highlight and arrows
-- are read as they are drawn (an item that names no square is skipped).
svg.OPTIONS = S.record { noun = "option", what = "a table of options", fields = {
  flip = "boolean", coords = "boolean", turn = "boolean",
  highlight = S.either(S.one_of { false }, S.list("any", { what = "a list of squares or moves" })),
  arrows = S.list("any", { what = "a list of moves" }),
  size = S.int { min = 1, max = 100000 },
  title = S.either("string", "number"),
  id = S.either("string", "number"),
} }

local FILES = "abcdefgh"
local SQ = 50                    -- square size in SVG units
local MARGIN = 20                -- room for the coordinates
local PAD = 12                   -- the margin around the whole drawing
local CAPTION = 30               -- the height of the caption line
local TURN = 24                  -- the height of the side-to-move line
local COLORS = {
  light = "#f0e6d2", dark = "#8a6a4a", border = "#4a3a2a",
  white_fill = "#fbf8f0", white_edge = "#3a2e22", white_mark = "#3a2e22",
  black_fill = "#2b2622", black_edge = "#0e0c0a", black_mark = "#f3ead8",
  highlight = "#e8c547", arrow = "#2f7d32", coord = "#4a3a2a",
}

-- Text for XML/HTML: entities, and no byte XML 1.0 forbids (cheskers.escape).
local esc = require("cheskers.escape").xml
local byte, format, sub, upper = string.byte, string.format, string.sub, string.upper

-- A number as short as it reads: 12, 12.5, 12.25 (two decimals at most).
local function fmt(x)
  if math.type(x) == "integer" then return tostring(x) end
  local s = format("%.2f", x)
  local n = #s
  while byte(s, n) == 48 do n = n - 1 end        -- trailing zeros
  if byte(s, n) == 46 then n = n - 1 end          -- and a bare point
  return sub(s, 1, n)
end

-- Whether the bytes of s at i, i + 1 are a square name ("c3").
local function square_at(s, i)
  local f, r = byte(s, i, i + 1)
  return f ~= nil and r ~= nil and f >= 97 and f <= 104 and r >= 49 and r <= 56
end

-- Square name -> column, row of the drawing (0..7 from the top left).
local function place(sq, flip)
  local f, r = byte(sq, 1) - 97, byte(sq, 2) - 49
  if flip then return 7 - f, r end
  return f, 7 - r
end

local function center(sq, flip)
  local c, r = place(sq, flip)
  return MARGIN + c * SQ + SQ / 2, r * SQ + SQ / 2
end

local function valid_square(s)
  return type(s) == "string" and #s == 2 and square_at(s, 1)
end

-- The squares along a move: from, each landing. m: move object, text, or pair.
local function move_squares(m)
  if type(m) == "table" and not getmetatable(m) and m[1] then
    return { m[1], m[2] }
  end
  if type(m) == "userdata" or (type(m) == "table" and m.from) then
    local t = { m.from }
    for _, s in ipairs(m.path or { m.to }) do t[#t + 1] = s end
    return t
  end
  local text, t, i = tostring(m), {}, 1
  while i < #text do
    if square_at(text, i) then
      t[#t + 1] = sub(text, i, i + 1)
      i = i + 2
    else
      i = i + 1
    end
  end
  return t
end

-- Piece glyphs, drawn around (x, y): a disc, an inner ring, and a mark for
-- the kind (a crown for K, a mitre for B, a hump for C; pawns plain).
local function piece(out, letter, x, y)
  local kind = upper(letter)
  local white = letter == kind
  local fill = white and COLORS.white_fill or COLORS.black_fill
  local edge = white and COLORS.white_edge or COLORS.black_edge
  local mark = white and COLORS.white_mark or COLORS.black_mark
  local r = SQ * 0.4
  out[#out + 1] = format(
    '<g class="piece %s %s"><circle cx="%s" cy="%s" r="%s" fill="%s" stroke="%s" stroke-width="2"/>'
    .. '<circle cx="%s" cy="%s" r="%s" fill="none" stroke="%s" stroke-width="1.2" opacity="0.6"/>',
    white and "white" or "black", kind, fmt(x), fmt(y), fmt(r), fill, edge,
    fmt(x), fmt(y), fmt(r * 0.72), mark)
  local function path(d)
    out[#out + 1] = format('<path d="%s" transform="translate(%s %s)" fill="%s"/>', d, fmt(x), fmt(y), mark)
  end
  if kind == "K" then        -- a crown: band and three points
    path("M-11 7 L11 7 L11 3 L-11 3 Z M-11 2 L-12 -8 L-5 -2 L0 -11 L5 -2 L12 -8 L11 2 Z")
  elseif kind == "B" then    -- a mitre with its slit
    path("M-8 9 L8 9 L8 6 L-8 6 Z M-7 5 C-9 -3 -3 -10 0 -12 C3 -10 9 -3 7 5 Z")
    out[#out + 1] = format('<path d="M-1 -4 L4 -9" transform="translate(%s %s)" stroke="%s" stroke-width="2"/>',
      fmt(x), fmt(y), fill)
  elseif kind == "C" then    -- a camel: two humps, neck and head, legs
    path("M-11 3 C-12 -4 -7 -9 -4 -3 C-2 -9 3 -9 5 -2 L8 -8 L13 -8 L13 -6 L10 -5 L8 3 "
         .. "L8 10 L6 10 L6 4 L-6 4 L-6 10 L-8 10 L-8 4 Z")
  elseif kind ~= "P" then    -- another kind: its letter
    out[#out + 1] = format(
      '<text x="%s" y="%s" font-family="sans-serif" font-weight="bold" font-size="18" '
      .. 'text-anchor="middle" dominant-baseline="central" fill="%s">%s</text>',
      fmt(x), fmt(y), mark, esc(kind))
  end
  out[#out + 1] = "</g>"
end

-- The glyph of the piece letter alone, drawn around (0, 0) in a square of
-- 50 units (the analysis board of cheskers serve places them itself).
function svg.piece(letter)
  local out = {}
  piece(out, letter, 0, 0)
  return table.concat(out)
end

-- An arrow through the squares' centres (a polyline ending in a head).
local function arrow(out, squares, flip, idp)
  if #squares < 2 then return end
  local pts = {}
  for i, s in ipairs(squares) do
    local x, y = center(s, flip)
    pts[i] = { x, y }
  end
  -- stop short of the last centre so that the head ends there
  local a, b = pts[#pts - 1], pts[#pts]
  local dx, dy = b[1] - a[1], b[2] - a[2]
  local len = math.sqrt(dx * dx + dy * dy)
  local cut = math.min(12, len / 2)
  b = { b[1] - dx / len * cut, b[2] - dy / len * cut }
  local coords = {}
  for i = 1, #pts - 1 do coords[#coords + 1] = fmt(pts[i][1]) .. "," .. fmt(pts[i][2]) end
  coords[#coords + 1] = fmt(b[1]) .. "," .. fmt(b[2])
  out[#out + 1] = format(
    '<polyline points="%s" fill="none" stroke="%s" stroke-width="7" stroke-linecap="round" '
    .. 'stroke-linejoin="round" opacity="0.75" marker-end="url(#%sarrowhead)"/>',
    table.concat(coords, " "), COLORS.arrow, idp)
end

-- The piece letters of the 32 dark squares: { [square] = letter }.
local function pieces_of(b)
  local cheskers = require "cheskers"
  local t = {}
  for _, sq in ipairs(cheskers.SQUARES) do
    local l = b:get(sq)
    if l then t[sq] = l end
  end
  return t
end

-- The drawing's parts: { top (the board group's offset), width, height,
-- board_h (below the board: coordinates, the side-to-move line) }.
local function layout(opts, b)
  local coords = opts.coords ~= false and MARGIN or 0
  local turn = (opts.turn ~= false and b.turn) and TURN or 0
  local caption = opts.title and CAPTION or 0
  local board_w, board_h = MARGIN + 8 * SQ + 2, 8 * SQ + 2 + coords + turn
  return { top = PAD + caption, coords = coords, width = 2 * PAD + board_w,
           height = 2 * PAD + caption + board_h }
end

local function open_svg(out, opts, L, idp)
  local size = opts.size or 400
  out[#out + 1] = format(
    '<svg xmlns="http://www.w3.org/2000/svg" class="cheskers-board" width="%d" height="%d" viewBox="0 0 %d %d">',
    size, math.floor(size * L.height / L.width + 0.5), L.width, L.height)
  if opts.title then out[#out + 1] = "<title>" .. esc(opts.title) .. "</title>" end
  out[#out + 1] = format(
    '<defs><marker id="%sarrowhead" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" '
    .. 'orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 Z" fill="%s"/></marker></defs>',
    idp, COLORS.arrow)
end

-- The visible caption: the title, centred above the board.
local function caption(out, opts, L)
  if not opts.title then return end
  out[#out + 1] = format(
    '<text class="caption" x="%s" y="%d" font-family="sans-serif" font-size="16" font-weight="bold" '
    .. 'text-anchor="middle" fill="%s">%s</text>',
    fmt(L.width / 2), PAD + CAPTION - 12, COLORS.coord, esc(opts.title))
end

local function squares(out, flip)
  out[#out + 1] = format('<rect x="%d" y="0" width="%d" height="%d" fill="%s"/>',
    MARGIN - 2, 8 * SQ + 4, 8 * SQ + 2, COLORS.border)
  for row = 0, 7 do
    for col = 0, 7 do
      local f = flip and 7 - col or col
      local r = flip and row or 7 - row
      local dark = (f + r) % 2 == 0
      out[#out + 1] = format('<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>',
        MARGIN + col * SQ, row * SQ, SQ, SQ, dark and COLORS.dark or COLORS.light)
    end
  end
end

-- The squares to tint: opts.highlight, or the last move played.
local function highlighted(b, opts)
  local marks = {}
  if opts.highlight == false then return marks end
  local list = opts.highlight
  if list == nil and b.history then
    local h = b:history()
    if #h > 0 then list = { h[#h] } end
  end
  for _, item in ipairs(list or {}) do
    if valid_square(item) then
      marks[#marks + 1] = item
    else
      local sqs = move_squares(item)
      if #sqs > 0 then
        marks[#marks + 1] = sqs[1]
        marks[#marks + 1] = sqs[#sqs]
      end
    end
  end
  return marks
end

local function highlights(out, b, opts, flip)
  for _, sq in ipairs(highlighted(b, opts)) do
    if valid_square(sq) then
      local c, r = place(sq, flip)
      out[#out + 1] = format(
        '<rect class="highlight" x="%d" y="%d" width="%d" height="%d" fill="%s" opacity="0.55"/>',
        MARGIN + c * SQ, r * SQ, SQ, SQ, COLORS.highlight)
    end
  end
end

local function coordinates(out, opts, flip)
  if opts.coords == false then return end
  for i = 0, 7 do
    local file = flip and sub(FILES, 8 - i, 8 - i) or sub(FILES, i + 1, i + 1)
    local rank = flip and (i + 1) or (8 - i)
    out[#out + 1] = format(
      '<text x="%s" y="%d" font-family="sans-serif" font-size="13" text-anchor="middle" fill="%s">%s</text>',
      fmt(MARGIN + i * SQ + SQ / 2), 8 * SQ + 15, COLORS.coord, file)
    out[#out + 1] = format(
      '<text x="%d" y="%s" font-family="sans-serif" font-size="13" text-anchor="middle" '
      .. 'dominant-baseline="central" fill="%s">%d</text>',
      MARGIN // 2 - 1, fmt(i * SQ + SQ / 2), COLORS.coord, rank)
  end
end

local function all_pieces(out, b, flip)
  local on = pieces_of(b)
  local names = {}
  for sq in pairs(on) do names[#names + 1] = sq end
  table.sort(names)
  for _, sq in ipairs(names) do
    local x, y = center(sq, flip)
    piece(out, on[sq], x, y)
  end
end

local function arrows(out, opts, flip, idp)
  for _, a in ipairs(opts.arrows or {}) do
    local sqs = move_squares(a)
    local okay = #sqs >= 2
    for _, s in ipairs(sqs) do if not valid_square(s) then okay = false end end
    if okay then arrow(out, sqs, flip, idp) end
  end
end

-- The side to move, under the board: a disc of its colour and its label.
local function side_to_move(out, b, opts, L)
  if opts.turn == false or not b.turn then return end
  local t = b:turn()
  local y = 8 * SQ + 2 + L.coords + TURN // 2
  local label = t == "white" and "White to move" or "Black to move"
  out[#out + 1] = format(
    '<g class="turn"><circle cx="%d" cy="%d" r="7" fill="%s" stroke="%s" stroke-width="1.5"/>'
    .. '<text x="%d" y="%d" font-family="sans-serif" font-size="14" dominant-baseline="central" '
    .. 'fill="%s">%s</text></g>',
    MARGIN + 7, y, t == "white" and COLORS.white_fill or COLORS.black_fill, COLORS.border,
    MARGIN + 20, y, COLORS.coord, label)
end

-- The letters, digits, _ and - of an id (the rest dropped).
local function id_prefix(id)
  local out = {}
  for i = 1, #id do
    local c = byte(id, i)
    if (c >= 48 and c <= 57) or (c >= 65 and c <= 90) or (c >= 97 and c <= 122) or c == 95 or c == 45 then
      out[#out + 1] = string.char(c)
    end
  end
  return table.concat(out)
end

function svg.render(b, opts)
  opts = opts or {}
  S.check(opts, svg.OPTIONS, "svg")
  if type(b) == "string" then
    b = require("cheskers").new(b)
  end
  local flip = opts.flip and true or false
  local idp = opts.id and (id_prefix(tostring(opts.id)) .. "-") or ""
  local L = layout(opts, b)
  local out = {}
  open_svg(out, opts, L, idp)
  caption(out, opts, L)
  out[#out + 1] = format('<g class="board" transform="translate(%d %d)">', PAD, L.top)
  squares(out, flip)
  highlights(out, b, opts, flip)
  coordinates(out, opts, flip)
  all_pieces(out, b, flip)
  arrows(out, opts, flip, idp)
  side_to_move(out, b, opts, L)
  out[#out + 1] = "</g>"
  out[#out + 1] = "</svg>"
  return table.concat(out, "\n")
end

return svg
