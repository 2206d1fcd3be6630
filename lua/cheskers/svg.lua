-- cheskers.svg: board diagrams as SVG text.
--
--   svg.render(board_or_fen, opts) -> text      (also b:svg(opts))
--
-- opts (all optional):
--   flip       true: Black at the bottom (rank 8 nearest the viewer)
--   highlight  list of squares ("c3") or moves (objects or texts) to tint;
--              default: the last move played on the board; false: none
--   arrows     list of moves (objects or texts "c3-e5", "c3xe5xg7") or
--              {from, to} pairs, drawn as arrows along their paths
--   size       width and height in pixels (default 400)
--   coords     false: no file letters and rank numbers
--   turn       false: no marker for the side to move
--   title      text for the <title> element (tooltips, accessibility)
--   id         a prefix for the ids in the SVG (several diagrams in one page)

local svg = {}

local FILES = "abcdefgh"
local SQ = 50                    -- square size in SVG units
local MARGIN = 20                -- room for the coordinates
local COLORS = {
  light = "#f0e6d2", dark = "#8a6a4a", border = "#4a3a2a",
  white_fill = "#fbf8f0", white_edge = "#3a2e22", white_mark = "#3a2e22",
  black_fill = "#2b2622", black_edge = "#0e0c0a", black_mark = "#f3ead8",
  highlight = "#e8c547", arrow = "#2f7d32", coord = "#4a3a2a",
}

local function esc(s)
  return (tostring(s):gsub("[&<>\"]", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;" }))
end

local function fmt(x)
  if math.type(x) == "integer" then return tostring(x) end
  local s = string.format("%.2f", x):gsub("0+$", ""):gsub("%.$", "")
  return s
end

-- Square name -> column, row of the drawing (0..7 from the top left).
local function place(sq, flip)
  local f, r = sq:byte(1) - 97, sq:byte(2) - 49
  if flip then return 7 - f, r end
  return f, 7 - r
end

local function center(sq, flip)
  local c, r = place(sq, flip)
  return MARGIN + c * SQ + SQ / 2, r * SQ + SQ / 2
end

local function valid_square(s)
  return type(s) == "string" and s:match("^[a-h][1-8]$") ~= nil
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
  local t = {}
  for s in tostring(m):gmatch("[a-h][1-8]") do t[#t + 1] = s end
  return t
end

-- Piece glyphs, drawn around (x, y): a disc, an inner ring, and a mark for
-- the kind (a crown for K, a mitre for B, a hump for C; pawns plain).
local function piece(out, letter, x, y)
  local white = letter == letter:upper()
  local kind = letter:upper()
  local fill = white and COLORS.white_fill or COLORS.black_fill
  local edge = white and COLORS.white_edge or COLORS.black_edge
  local mark = white and COLORS.white_mark or COLORS.black_mark
  local r = SQ * 0.4
  out[#out + 1] = string.format(
    '<g class="piece %s %s"><circle cx="%s" cy="%s" r="%s" fill="%s" stroke="%s" stroke-width="2"/>'
    .. '<circle cx="%s" cy="%s" r="%s" fill="none" stroke="%s" stroke-width="1.2" opacity="0.6"/>',
    white and "white" or "black", kind, fmt(x), fmt(y), fmt(r), fill, edge,
    fmt(x), fmt(y), fmt(r * 0.72), mark)
  local function path(d)
    out[#out + 1] = string.format('<path d="%s" transform="translate(%s %s)" fill="%s"/>', d, fmt(x), fmt(y), mark)
  end
  if kind == "K" then        -- a crown: band and three points
    path("M-11 7 L11 7 L11 3 L-11 3 Z M-11 2 L-12 -8 L-5 -2 L0 -11 L5 -2 L12 -8 L11 2 Z")
  elseif kind == "B" then    -- a mitre with its slit
    path("M-8 9 L8 9 L8 6 L-8 6 Z M-7 5 C-9 -3 -3 -10 0 -12 C3 -10 9 -3 7 5 Z")
    out[#out + 1] = string.format('<path d="M-1 -4 L4 -9" transform="translate(%s %s)" stroke="%s" stroke-width="2"/>',
      fmt(x), fmt(y), fill)
  elseif kind == "C" then    -- a camel: two humps, neck and head, legs
    path("M-11 3 C-12 -4 -7 -9 -4 -3 C-2 -9 3 -9 5 -2 L8 -8 L13 -8 L13 -6 L10 -5 L8 3 "
         .. "L8 10 L6 10 L6 4 L-6 4 L-6 10 L-8 10 L-8 4 Z")
  elseif kind ~= "P" then    -- another kind: its letter
    out[#out + 1] = string.format(
      '<text x="%s" y="%s" font-family="sans-serif" font-weight="bold" font-size="18" '
      .. 'text-anchor="middle" dominant-baseline="central" fill="%s">%s</text>',
      fmt(x), fmt(y), mark, esc(kind))
  end
  out[#out + 1] = "</g>"
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
  out[#out + 1] = string.format(
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

function svg.render(b, opts)
  opts = opts or {}
  if type(b) == "string" then
    b = require("cheskers").new(b)
  end
  local flip = opts.flip and true or false
  local size = opts.size or 400
  local idp = opts.id and (tostring(opts.id):gsub("[^%w_-]", "") .. "-") or ""
  local W, H = MARGIN + 8 * SQ + 6 + 14, 8 * SQ + MARGIN
  local out = {}
  out[#out + 1] = string.format(
    '<svg xmlns="http://www.w3.org/2000/svg" class="cheskers-board" width="%d" height="%d" viewBox="0 0 %d %d">',
    size, math.floor(size * H / W + 0.5), W, H)
  if opts.title then out[#out + 1] = "<title>" .. esc(opts.title) .. "</title>" end
  out[#out + 1] = string.format(
    '<defs><marker id="%sarrowhead" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" '
    .. 'orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 Z" fill="%s"/></marker></defs>',
    idp, COLORS.arrow)
  -- squares
  out[#out + 1] = string.format('<rect x="%d" y="0" width="%d" height="%d" fill="%s"/>',
    MARGIN - 2, 8 * SQ + 4, 8 * SQ + 2, COLORS.border)
  for row = 0, 7 do
    for col = 0, 7 do
      local f = flip and 7 - col or col
      local r = flip and row or 7 - row
      local dark = (f + r) % 2 == 0
      out[#out + 1] = string.format('<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>',
        MARGIN + col * SQ, row * SQ, SQ, SQ, dark and COLORS.dark or COLORS.light)
    end
  end
  -- highlights: given, or the last move played
  local marks = {}
  if opts.highlight ~= false then
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
  end
  for _, sq in ipairs(marks) do
    if valid_square(sq) then
      local c, r = place(sq, flip)
      out[#out + 1] = string.format(
        '<rect class="highlight" x="%d" y="%d" width="%d" height="%d" fill="%s" opacity="0.55"/>',
        MARGIN + c * SQ, r * SQ, SQ, SQ, COLORS.highlight)
    end
  end
  -- coordinates
  if opts.coords ~= false then
    for i = 0, 7 do
      local file = flip and FILES:sub(8 - i, 8 - i) or FILES:sub(i + 1, i + 1)
      local rank = flip and (i + 1) or (8 - i)
      out[#out + 1] = string.format(
        '<text x="%s" y="%d" font-family="sans-serif" font-size="13" text-anchor="middle" fill="%s">%s</text>',
        fmt(MARGIN + i * SQ + SQ / 2), 8 * SQ + 15, COLORS.coord, file)
      out[#out + 1] = string.format(
        '<text x="%d" y="%s" font-family="sans-serif" font-size="13" text-anchor="middle" '
        .. 'dominant-baseline="central" fill="%s">%d</text>',
        MARGIN // 2 - 1, fmt(i * SQ + SQ / 2), COLORS.coord, rank)
    end
  end
  -- pieces
  local squares = pieces_of(b)
  local names = {}
  for sq in pairs(squares) do names[#names + 1] = sq end
  table.sort(names)
  for _, sq in ipairs(names) do
    local x, y = center(sq, flip)
    piece(out, squares[sq], x, y)
  end
  -- arrows
  for _, a in ipairs(opts.arrows or {}) do
    local sqs = move_squares(a)
    local okay = #sqs >= 2
    for _, s in ipairs(sqs) do if not valid_square(s) then okay = false end end
    if okay then arrow(out, sqs, flip, idp) end
  end
  -- the side to move: a disc beside the board, on the mover's side
  if opts.turn ~= false and b.turn then
    local t = b:turn()
    local bottom = (t == "white") ~= flip
    local x, y = MARGIN + 8 * SQ + 10, bottom and (8 * SQ - 10) or 10
    out[#out + 1] = string.format(
      '<circle class="turn" cx="%d" cy="%d" r="6" fill="%s" stroke="%s" stroke-width="1.5">'
      .. '<title>%s to move</title></circle>',
      x, y, t == "white" and COLORS.white_fill or COLORS.black_fill, COLORS.border, t)
  end
  out[#out + 1] = "</svg>"
  return table.concat(out, "\n")
end

return svg
