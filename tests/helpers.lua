-- tests/helpers.lua - shared code for the rules test suite.
-- Everything here is written from docs/reference/rules.md, never from the program:
-- a FEN reader (to check the test data itself), move keys for comparing move
-- sets, the conformance file loader (tests/data/), and scratch files and
-- folders that are removed after the test that made them.
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
H.DATA = H.ROOT .. "/tests/data"

-- Opens a file of tests/data or raises (a missing file must fail loudly).
function H.data_file(rel)
  local path = H.DATA .. "/" .. rel
  local f, err = io.open(path, "r")
  if not f then
    error("missing test data file " .. path .. " (" .. tostring(err) .. ")", 2)
  end
  return f, path
end

-- ---- scratch files and folders -------------------------------------------

-- Tests leave nothing behind. H.tmpdir() makes a fresh folder (mktemp -d:
-- under $TMPDIR, else /tmp); H.tmpname(suffix) names a fresh path inside this
-- state's own scratch folder without creating it. H.cleanup() removes every
-- folder made here; it also runs by itself when the Lua state is closed or
-- this module is dropped (busted ends with os.exit(code, true) and reloads
-- helpers for each spec file). tests/run.sh points TMPDIR at a folder it
-- removes, for a run that is killed before it can clean up.
local made = {}
local scratch, scratch_count = nil, 0

-- (string.gsub, not s:gsub: H.cleanup may run as a finalizer while the
-- sandbox has the string methods switched off, and must not fail then)
local function shell_quote(s)
  return "'" .. string.gsub(s, "'", "'\\''") .. "'"
end
H.shell_quote = shell_quote

-- Runs the program ($CHESKERS, else ./cheskers) with args (shell words)
-- for at most 120 s: its output (stdout and stderr) and exit status (-1
-- when killed by a signal).
function H.run_program(args)
  local p = io.popen(("timeout 120 %s %s 2>&1"):format(os.getenv("CHESKERS") or "./cheskers", args))
  local out = p:read("a")
  local ok, how, code = p:close()
  return out, ok and 0 or (how == "exit" and code or -1)
end

function H.tmpdir()
  local p = assert(io.popen("mktemp -d 2>/dev/null"))
  local dir = p:read("l")
  p:close()
  if not dir or dir == "" then error("mktemp -d failed", 2) end
  made[#made + 1] = dir
  return dir
end

function H.tmpname(suffix)
  scratch = scratch or H.tmpdir()
  scratch_count = scratch_count + 1
  return ("%s/t%d%s"):format(scratch, scratch_count, suffix or "")
end


-- Removes a folder made by H.tmpdir now (H.cleanup removes what is left).
function H.rmdir(dir)
  for i = #made, 1, -1 do
    if made[i] == dir then
      os.execute("rm -rf -- " .. shell_quote(dir))
      table.remove(made, i)
    end
  end
end

function H.cleanup()
  for i = #made, 1, -1 do
    os.execute("rm -rf -- " .. shell_quote(made[i]))
    made[i] = nil
  end
  scratch, scratch_count = nil, 0
end

H.cleanup_guard = setmetatable({}, { __gc = function() H.cleanup() end })

-- The whole content of a file, or nil when it cannot be read.
function H.read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

-- Whether a file can be opened for reading.
function H.exists(path)
  local f = io.open(path, "r")
  if f then f:close() return true end
  return false
end

-- Writes text to a file (raises when it cannot); returns the path.
function H.write_file(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
  return path
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
-- The 32 dark squares, a1 c1 e1 g1 b2 ... h8 (docs/reference/rules.md order).
H.SQUARES = {}
for r = 0, 7 do
  for f = 0, 7 do
    if (f + r) % 2 == 0 then H.SQUARES[#H.SQUARES + 1] = H.name(f, r) end
  end
end

-- ---- positions -------------------------------------------------------------

-- Our own reading of the position format of docs/reference/rules.md, strict. Returns
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
  for _, k in ipairs(keys) do
    local v = rules[k]
    out[#out + 1] = k .. "=" .. (type(v) == "table" and H.rules_text(v) or tostring(v))
  end
  return "{" .. table.concat(out, ", ") .. "}"
end

-- ---- the conformance file --------------------------------------------------

-- Rows {line = n, fen = "... w", moves = {"a1-b2:", ...}} of
-- tests/data/dagaz_nomajority.tsv (see tests/data/README.md).
function H.load_conformance()
  local f, path = H.data_file("dagaz_nomajority.tsv")
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

-- ---- a reference reading of the move rules -------------------------------------

-- Our own legal move generator, written from docs/reference/rules.md only and kept simple
-- (slow, obvious code). p: a parse_fen table; rules: a table of rule
-- options (majority, capture, promote, flying_kings, pawns_capture_backward).
-- Returns the list of legal moves as keys (H.key). Ambiguous combinations
-- (capture = "all" or "optional" with the majority rule, when jumps of
-- different lengths exist) follow one reading here; tests avoid them.
-- A finished game (a side without kings) has no moves; draws are not seen here.
local DIAG = { { 1, 1 }, { -1, 1 }, { 1, -1 }, { -1, -1 } }
local CAMEL = { { 1, 3 }, { -1, 3 }, { 1, -3 }, { -1, -3 }, { 3, 1 }, { -3, 1 }, { 3, -1 }, { -3, -1 } }

function H.reference_moves(p, rules)
  rules = rules or {}
  local majority = rules.majority ~= false
  local capture = rules.capture or "mixed"
  local promote = rules.promote or "KBC"
  local flying = rules.flying_kings == true
  local backward = rules.pawns_capture_backward == true
  local board, white = p.board, p.side == "w"

  local function is_white(c) return c:upper() == c end
  local kings = { [true] = false, [false] = false }
  for _, c in pairs(board) do
    if c:upper() == "K" then kings[is_white(c)] = true end
  end
  if not kings[true] or not kings[false] then return {} end

  local fwd, last = white and 1 or -1, white and 7 or 0
  local jumps, takes, quiet = {}, {}, {}   -- key -> number of captures
  local function add(list, from, to, caps, pawn)
    local _, r = H.coords(to)
    if pawn and r == last then
      for k in promote:gmatch("[KBC]") do list[H.key(from, to, caps, k)] = #caps end
    else
      list[H.key(from, to, caps, nil)] = #caps
    end
  end

  for from, c in pairs(board) do
    if is_white(c) == white then
      local kind = c:upper()
      local f0, r0 = H.coords(from)
      -- the piece on a square during a chain: the start square counts as
      -- empty; captured pieces stay until the move ends
      local function at(f, r)
        local sq = H.name(f, r)
        if sq == from then return nil end
        return board[sq]
      end
      local function enemy(x) return x ~= nil and is_white(x) ~= white end

      -- jump chains (pawns and kings)
      if kind == "P" or kind == "K" then
        local dirs = {}
        for _, d in ipairs(DIAG) do
          if kind == "K" or backward or d[2] == fwd then dirs[#dirs + 1] = d end
        end
        local caps, taken = {}, {}
        local function chain(f, r)
          local went = false
          for _, d in ipairs(dirs) do
            -- the enemy piece to jump, and the landing squares beyond it
            local mf, mr = f + d[1], r + d[2]
            if kind == "K" and flying then
              while H.name(mf, mr) and at(mf, mr) == nil do mf, mr = mf + d[1], mr + d[2] end
            end
            local msq = H.name(mf, mr)
            if msq and enemy(at(mf, mr)) and not taken[msq] then
              local lf, lr = mf + d[1], mr + d[2]
              while H.name(lf, lr) and at(lf, lr) == nil do
                went = true
                caps[#caps + 1] = msq; taken[msq] = true
                if kind == "P" and lr == last then
                  add(jumps, from, H.name(lf, lr), caps, true)
                else
                  chain(lf, lr)
                end
                caps[#caps] = nil; taken[msq] = nil
                if not (kind == "K" and flying) then break end
                lf, lr = lf + d[1], lr + d[2]
              end
            end
          end
          if not went and #caps > 0 then add(jumps, from, H.name(f, r), caps, kind == "P") end
        end
        chain(f0, r0)
      end

      -- steps, slides, leaps and takes
      if kind == "P" then
        for _, d in ipairs(DIAG) do
          if d[2] == fwd then
            local sq = H.name(f0 + d[1], r0 + d[2])
            if sq and board[sq] == nil then add(quiet, from, sq, {}, true) end
          end
        end
      elseif kind == "K" or kind == "B" then
        local ride = kind == "B" or flying
        for _, d in ipairs(DIAG) do
          local f, r = f0 + d[1], r0 + d[2]
          while H.name(f, r) do
            local x = board[H.name(f, r)]
            if x == nil then
              add(quiet, from, H.name(f, r), {}, false)
            else
              if kind == "B" and enemy(x) then add(takes, from, H.name(f, r), { H.name(f, r) }, false) end
              break
            end
            if not ride then break end
            f, r = f + d[1], r + d[2]
          end
        end
      elseif kind == "C" then
        for _, d in ipairs(CAMEL) do
          local sq = H.name(f0 + d[1], r0 + d[2])
          if sq then
            local x = board[sq]
            if x == nil then add(quiet, from, sq, {}, false)
            elseif enemy(x) then add(takes, from, sq, { sq }, false) end
          end
        end
      end
    end
  end

  local best = 0
  for _, n in pairs(jumps) do if n > best then best = n end end
  local has_jump, has_take = best > 0, next(takes) ~= nil
  local out = {}
  local function keep(list, filter)
    for k, n in pairs(list) do if not filter or n == best then out[#out + 1] = k end end
  end
  local filter = majority and capture ~= "optional"
  if capture == "optional" or (not has_jump and not (capture == "all" and has_take)) then
    keep(jumps, filter); keep(takes); keep(quiet)
  elseif capture == "jumps" then
    keep(jumps, filter)
  else -- mixed, or all with a capture
    keep(jumps, filter); keep(takes)
  end
  table.sort(out)
  return out
end

-- A random legal-looking position (docs/reference/rules.md: pieces on dark squares, no pawn
-- on its promotion rank, at least one king a side), as FEN. `density` is the
-- chance that a square holds a piece.
function H.random_position(density)
  local board = {}
  local function put_king(white)
    local empty = {}
    for _, sq in ipairs(H.SQUARES) do if not board[sq] then empty[#empty + 1] = sq end end
    board[empty[math.random(#empty)]] = white and "K" or "k"
  end
  for _, sq in ipairs(H.SQUARES) do
    if math.random() < density then
      local x = math.random(20)
      local kind = x <= 10 and "P" or x <= 14 and "K" or x <= 17 and "B" or "C"
      local white = math.random(2) == 1
      local _, r = H.coords(sq)
      if kind == "P" and ((white and r == 7) or (not white and r == 0)) then kind = "K" end
      board[sq] = white and kind or kind:lower()
    end
  end
  local has = {}
  for _, c in pairs(board) do has[c] = true end
  if not has.K then put_king(true) end
  if not has.k then put_king(false) end
  return H.write_fen({ board = board, side = math.random(2) == 1 and "w" or "b", quiet = 0, moveno = 1 })
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
