-- tests/helpers.lua - shared code for the rules test suite.
-- Everything here is written from ../shared/RULES.md, never from the program:
-- a FEN reader (to check the test data itself), move keys for comparing move
-- sets, the conformance file loader.
local H = {}

-- ---- where things are ------------------------------------------------------

-- The repository root: the folder above tests/ (this file's folder).
local function repo_root()
  local src = debug.getinfo(1, "S").source
  local path = src:sub(1, 1) == "@" and src:sub(2) or "tests/helpers.lua"
  local dir = path:match("^(.*)/[^/]*$") or "."   -- tests
  local root = dir:match("^(.*)/[^/]*$")          -- repository root
  if not root then root = (dir == "tests") and "." or dir .. "/.." end
  return root
end
H.ROOT = repo_root()
H.SHARED = H.ROOT .. "/../shared"

-- Opens a file of ../shared or raises (a missing file must fail loudly).
function H.shared_file(rel)
  local path = H.SHARED .. "/" .. rel
  local f, err = io.open(path, "r")
  if not f then
    error("missing shared file " .. path .. " (" .. tostring(err) ..
          "): the suite expects shared/ beside the repository", 2)
  end
  return f, path
end

-- ---- squares ---------------------------------------------------------------

local FILES = "abcdefgh"
function H.coords(sq)   -- "c3" -> 2, 2 (file, rank from 0)
  local f, r = sq:byte(1) - 97, sq:byte(2) - 49
  return f, r
end
function H.name(f, r)
  if f < 0 or f > 7 or r < 0 or r > 7 then return nil end
  return FILES:sub(f + 1, f + 1) .. tostring(r + 1)
end
function H.dark(sq)
  local f, r = H.coords(sq)
  return (f + r) % 2 == 0
end
-- The 32 dark squares, a1 c1 e1 g1 b2 ... h8 (RULES.md order).
H.SQUARES = {}
for r = 0, 7 do
  for f = 0, 7 do
    if (f + r) % 2 == 0 then H.SQUARES[#H.SQUARES + 1] = H.name(f, r) end
  end
end

-- ---- positions -------------------------------------------------------------

-- Our own reading of the RULES.md position format, strict. Returns
-- {board = {square = letter}, side = "w"/"b", quiet = n, moveno = n}
-- or nil, message.
function H.parse_fen(fen)
  local placement, side, quiet, moveno = fen:match("^(%S+) ([wb])%s*(%d*)%s*(%d*)$")
  if not placement then return nil, "bad fields" end
  local ranks = {}
  for part in (placement .. "/"):gmatch("([^/]*)/") do ranks[#ranks + 1] = part end
  if #ranks ~= 8 then return nil, "not 8 ranks" end
  local board = {}
  for i, text in ipairs(ranks) do
    local r, f = 8 - i, 0
    for c in text:gmatch(".") do
      if c:match("%d") then
        f = f + tonumber(c)
      elseif c:match("[PKBCpkbc]") then
        local sq = H.name(f, r)
        if not sq then return nil, "rank " .. (r + 1) .. " too long" end
        if not H.dark(sq) then return nil, "piece on light square " .. sq end
        if (c == "P" and r == 7) or (c == "p" and r == 0) then
          return nil, "pawn on its promotion rank " .. sq
        end
        board[sq] = c
        f = f + 1
      else
        return nil, "unknown letter " .. c
      end
    end
    if f ~= 8 then return nil, "rank " .. (r + 1) .. " adds up to " .. f end
  end
  return { board = board, side = side,
           quiet = tonumber(quiet) or 0, moveno = tonumber(moveno) or 1 }
end

-- The canonical text of a position (digits merged), from a parse_fen table.
function H.write_fen(p)
  local ranks = {}
  for r = 7, 0, -1 do
    local s, run = "", 0
    for f = 0, 7 do
      local c = p.board[H.name(f, r)]
      if c then
        if run > 0 then s = s .. run end
        s, run = s .. c, 0
      else
        run = run + 1
      end
    end
    if run > 0 then s = s .. run end
    ranks[#ranks + 1] = s
  end
  return table.concat(ranks, "/") .. " " .. p.side .. " " .. p.quiet .. " " .. p.moveno
end

-- A FEN with the counters appended when missing.
function H.full_fen(fen)
  if fen:match(" [wb]$") then return fen .. " 0 1" end
  return fen
end

-- ---- moves -----------------------------------------------------------------

local function sorted_copy(t)
  local c = {}
  for i, v in ipairs(t or {}) do c[i] = v end
  table.sort(c)
  return c
end

-- The identity of a move (draughts convention): start, end, captured set,
-- promotion, written as in the conformance file: "c3-g7:d4,f6=K".
function H.key(from, to, captures, promotion)
  return from .. "-" .. to .. ":" .. table.concat(sorted_copy(captures), ",") ..
         (promotion and ("=" .. promotion) or "")
end
function H.move_key(m)
  return H.key(m.from, m.to, m.captures, m.promotion)
end

-- Normalizes a key written by hand or read from the conformance file
-- ("c3-g7:f6,d4=K", "g1-f2" or "g1-f2:") to H.key form.
function H.norm_key(text)
  local from, to, rest = text:match("^(%a%d)%-(%a%d):?(.*)$")
  assert(from, "bad move key in test data: " .. text)
  local caps, promo = rest, nil
  local c, p = rest:match("^(.-)=([KBC])$")
  if c then caps, promo = c, p end
  local list = {}
  for sq in caps:gmatch("%a%d") do list[#list + 1] = sq end
  return H.key(from, to, list, promo)
end

-- Compares the legal moves of a board with a list of expected keys. Returns
-- true, or false and a readable report (missing, extra, duplicates).
function H.compare_moves(moves, expected)
  local want, have, dups = {}, {}, {}
  for _, k in ipairs(expected) do want[H.norm_key(k)] = true end
  for _, m in ipairs(moves) do
    local k = H.move_key(m)
    if have[k] then dups[#dups + 1] = k end
    have[k] = true
  end
  local missing, extra = {}, {}
  for k in pairs(want) do if not have[k] then missing[#missing + 1] = k end end
  for k in pairs(have) do if not want[k] then extra[#extra + 1] = k end end
  table.sort(missing); table.sort(extra); table.sort(dups)
  if #missing == 0 and #extra == 0 and #dups == 0 then return true end
  local parts = {}
  if #missing > 0 then parts[#parts + 1] = "missing: " .. table.concat(missing, " ") end
  if #extra > 0 then parts[#parts + 1] = "extra: " .. table.concat(extra, " ") end
  if #dups > 0 then parts[#parts + 1] = "listed twice: " .. table.concat(dups, " ") end
  return false, table.concat(parts, "; ")
end

-- Describes a rule table for messages.
function H.rules_text(rules)
  if rules == nil then return "default" end
  if type(rules) == "string" then return rules end
  local keys = {}
  for k in pairs(rules) do keys[#keys + 1] = k end
  table.sort(keys)
  local out = {}
  for _, k in ipairs(keys) do out[#out + 1] = k .. "=" .. tostring(rules[k]) end
  return "{" .. table.concat(out, ", ") .. "}"
end

-- ---- the conformance file --------------------------------------------------

-- Rows {line = n, fen = "... w", moves = {"a1-b2:", ...}} of
-- shared/conformance/dagaz_nomajority.tsv.
function H.load_conformance()
  local f, path = H.shared_file("conformance/dagaz_nomajority.tsv")
  local rows, n = {}, 0
  for line in f:lines() do
    n = n + 1
    if line ~= "" and not line:match("^#") then
      local fen, list = line:match("^([^\t]+)\t(.*)$")
      if not fen then f:close(); error(path .. ":" .. n .. ": no tab in line") end
      local moves = {}
      for mv in list:gmatch("%S+") do moves[#moves + 1] = mv end
      rows[#rows + 1] = { line = n, fen = fen, moves = moves }
    end
  end
  f:close()
  if #rows == 0 then error(path .. ": no positions") end
  return rows, path
end

-- ---- small utilities -------------------------------------------------------

function H.set_of(list)
  local s = {}
  for _, v in ipairs(list) do s[v] = true end
  return s
end

-- The texts of a list of moves.
function H.texts(moves)
  local t = {}
  for i, m in ipairs(moves) do t[i] = tostring(m) end
  return t
end

-- Plays a list of move texts on a board (raises on the first illegal one).
function H.play_all(b, list)
  for _, mv in ipairs(list) do b:play(mv) end
  return b
end

return H
