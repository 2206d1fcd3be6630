-- tests/core/tb_spec.lua - the endgame tablebases (core/tb*.c, lua/binding/ltb.c): small
-- tables (up to 3 pieces) built here, checked against the forced-win solver,
-- against themselves (every value follows from the values of the moves), on
-- positions worked out by hand, and for refused or foreign rule sets and
-- damaged files.
local cheskers = require "cheskers"

local H = require "helpers"
local tmpdir = H.tmpdir

local ROOT = tmpdir()
-- under valgrind or the sanitizers (CHESKERS_TIME_SCALE > 1) fewer samples
local SCALE = math.max(1, tonumber(os.getenv("CHESKERS_TIME_SCALE")) or 1)
local function samples(n) return math.max(50, n // SCALE) end
local DIRS = {}     -- rules name -> directory with its 3-piece tables

local RULESETS = {
  golomb = nil,
  majority_off = { majority = false },
  flying = { flying_kings = true },
  backward = { pawns_capture_backward = true, capture = "all" },
}

local function build(name, rules, pieces)
  local dir = ROOT .. "/" .. name
  local ok, err = cheskers.tb.build{ pieces = pieces or 3, rules = rules, dir = dir }
  assert(ok, err)
  DIRS[name] = dir
  return dir
end

local function files(dir)
  local p = assert(io.popen("ls " .. dir))
  local list = {}
  for line in p:lines() do list[#list + 1] = line end
  p:close()
  return list
end

-- ---- random positions ------------------------------------------------------

local SQ = cheskers.SQUARES
local SIGS = { -- 3 pieces and fewer: white letters, black letters
  { "K", "k" }, { "KK", "k" }, { "KB", "k" }, { "KC", "k" }, { "KP", "k" },
  { "K", "kk" }, { "K", "kb" }, { "K", "kc" }, { "K", "kp" },
}

-- The FEN line of board (square -> letter) with side ("w" or "b") to move.
local function fen_of(board, side)
  local rows = {}
  for r = 8, 1, -1 do
    local row, empty = "", 0
    for f = 1, 8 do
      local l = board[string.char(96 + f) .. r]
      if l then
        row = row .. (empty > 0 and tostring(empty) or "") .. l
        empty = 0
      else
        empty = empty + 1
      end
    end
    rows[#rows + 1] = row .. (empty > 0 and tostring(empty) or "")
  end
  return table.concat(rows, "/") .. " " .. side
end

-- A random position of a random signature: a FEN line.
local function random_fen(rng)
  local sig = SIGS[rng(#SIGS)]
  local board, used = {}, {}
  for _, letters in ipairs(sig) do
    for l in letters:gmatch(".") do
      local sq
      repeat
        sq = SQ[rng(#SQ)]
        local rank = sq:sub(2, 2)
        local bad = used[sq] or (l == "P" and rank == "8") or (l == "p" and rank == "1")
      until not bad
      used[sq] = true
      board[sq] = l
    end
  end
  return fen_of(board, rng(2) == 1 and "w" or "b")
end

-- The same position for the other side: colours swapped, board turned 180
-- degrees, the other side to move (worked out on the FEN text itself).
local function image(fen)
  local placement, side = fen:match("^(%S+) (%a)")
  local swapped = placement:reverse():gsub("%a", function(c)
    return c:match("%u") and c:lower() or c:upper()
  end)
  return swapped .. (side == "w" and " b" or " w")
end

local function rng_of(seed)
  local state = seed
  return function(n)     -- a small LCG: the same positions on every run
    state = (state * 1103515245 + 12345) % 2147483648
    return state % n + 1
  end
end

-- ---- the checks -------------------------------------------------------------

-- The solver's answer for a table value: the side to move wins within n of
-- its own moves exactly when the table has a win in d plies with
-- (d + 1) / 2 <= n (d is odd: the winner makes the last move).
local function expected_solve(value, dist, n)
  if value == "win" and (dist + 1) // 2 <= n then return true, (dist + 1) // 2 end
  return false, nil
end

local function check_solver(name, count, seed)
  local rng, checked = rng_of(seed), 0
  local tables = cheskers.tb.open(DIRS[name])
  for _ = 1, count do
    local b = cheskers.new(random_fen(rng), RULESETS[name])
    local value, dist = b:probe(tables)
    assert(value, ("not covered: %s"):format(b:fen()))
    local n = rng(15)
    local got = b:solve{ moves = n, all = false }
    local win, shortest = expected_solve(value, dist, n)
    if got.win ~= win or (win and got.shortest ~= shortest) then
      error(("%s: table %s %d, solver within %d: %s %s"):format(b:fen(), value, dist, n,
        tostring(got.win), tostring(got.shortest)))
    end
    checked = checked + 1
  end
  return checked
end

-- Every value follows from the values of the moves (retrograde consistency).
local function check_consistent(b, tables)
  local value, dist = b:probe(tables)
  local moves = assert(b:tb_moves(tables))
  local best_win, longest_loss, any_draw = nil, -1, false
  for _, m in ipairs(moves) do
    assert(m.value, "a move out of the tables: " .. tostring(m.move))
    if m.value == "win" then
      best_win = math.min(best_win or math.huge, m.distance)
    elseif m.value == "loss" then
      longest_loss = math.max(longest_loss, m.distance)
    else
      any_draw = true
    end
  end
  local where = b:fen() .. " " .. value .. " " .. dist
  if value == "win" then
    assert(best_win == dist, where .. ": no move wins in exactly that / a shorter one")
  elseif value == "loss" then
    assert(not best_win and not any_draw, where .. ": a lost position with a move that holds")
    if #moves == 0 then
      assert(dist == 0, where .. ": no move but not lost at once")
    else
      assert(longest_loss == dist, where .. ": the longest defence is not the distance")
    end
  else
    assert(not best_win and any_draw, where .. ": a draw with a winning move or none that draws")
  end
end

describe("tablebases", function()
  setup(function()
    for name, rules in pairs(RULESETS) do build(name, rules) end
    build("golomb", nil)
  end)

  teardown(function()
    H.rmdir(ROOT)
  end)

  it("builds one file per signature (colour-swapped pairs both stored)", function()
    local list = files(DIRS.golomb)
    -- K v K, then KK KB KC KP against K and the four swaps: 9 files
    assert.are.equal(9, #list)
    local tables = cheskers.tb.open(DIRS.golomb)
    assert.are.equal(3, tables:max_pieces())
  end)

  it("resumes: a second build keeps the files, a missing one is rebuilt", function()
    local log = {}
    assert(cheskers.tb.build{ pieces = 3, dir = DIRS.golomb,
      progress = function(t) log[#log + 1] = t end })
    assert.are.equal(9, #log)
    for _, t in ipairs(log) do assert.is_true(t.skipped, t.name) end
    local victim
    for _, f in ipairs(files(DIRS.golomb)) do
      if f:match("^KCvK%.") then victim = f end
    end
    assert(os.remove(DIRS.golomb .. "/" .. victim))
    log = {}
    assert(cheskers.tb.build{ pieces = 3, dir = DIRS.golomb,
      progress = function(t) log[#log + 1] = t end })
    local rebuilt = {}
    for _, t in ipairs(log) do if not t.skipped then rebuilt[#rebuilt + 1] = t.name end end
    table.sort(rebuilt)
    assert.are.same({ "KCvK", "KvKC" }, rebuilt)   -- built as a pair
  end)

  it("a progress function that returns true stops the build", function()
    local n = 0
    local ok, err = cheskers.tb.build{ pieces = 3, dir = ROOT .. "/stopped",
      progress = function() n = n + 1 return true end }
    assert.is_nil(ok)
    assert.are.equal("stopped", err)
    assert.are.equal(1, n)
    assert.are.equal(1, #files(ROOT .. "/stopped"))   -- K v K, finished and kept
  end)

  it("cheskers.interrupt() stops the build: nil and an error value with code interrupted", function()
    local n = 0
    local ok, err = cheskers.tb.build{ pieces = 3, dir = ROOT .. "/interrupted",
      progress = function() n = n + 1 cheskers.interrupt() end }
    assert.is_nil(ok)
    assert.are.equal("interrupted", cheskers.error_code(err))
    assert.are.equal("interrupted", tostring(err))
    assert.are.equal(1, n)
    assert.are.equal(1, #files(ROOT .. "/interrupted"))   -- K v K, finished and kept
  end)

  describe("positions worked out by hand (K v K, default rules)", function()
    -- rows: position, value for the side to move, plies
    local ROWS = {
      -- White Kc3 jumps the king on d4 (c3xe5): the game ends at once
      { "8/8/8/8/3k4/2K5/8/8 w", "win", 1 },
      -- Black to move jumps the other way (d4xb2)
      { "8/8/8/8/3k4/2K5/8/8 b", "win", 1 },
      -- Ka1's only move is a1-b2, next to kc3, which jumps it (c3xa1)
      { "8/8/8/8/8/2k5/8/K7 w", "loss", 2 },
      { "8/8/8/8/8/8/8/8 w", nil },     -- no kings at all: no table
    }
    for _, row in ipairs(ROWS) do
      it(row[1], function()
        local b = cheskers.new(row[1])
        local value, dist = b:probe(cheskers.tb.open(DIRS.golomb))
        assert.are.equal(row[2], value)
        if row[2] then assert.are.equal(row[3], dist) end
      end)
    end

    it("Ka1 v kc3, White to move: its one move loses in 2, counting itself", function()
      local b = cheskers.new("8/8/8/8/8/2k5/8/K7 w")
      local moves = b:tb_moves(cheskers.tb.open(DIRS.golomb))
      assert.are.equal(1, #moves)
      assert.are.equal("a1-b2", tostring(moves[1].move))
      assert.are.equal("loss", moves[1].value)
      assert.are.equal(2, moves[1].distance)
    end)

    it("tables:best: the only move, and the capture that wins at once", function()
      local tables = cheskers.tb.open(DIRS.golomb)
      local move, value, dist = tables:best(cheskers.new("8/8/8/8/8/2k5/8/K7 w"))
      assert.are.equal("a1-b2", tostring(move))
      assert.are.equal("loss", value)
      assert.are.equal(2, dist)
      move, value, dist = tables:best(cheskers.new("8/8/8/8/3k4/2K5/8/8 w"))
      assert.are.equal("c3xe5", tostring(move))
      assert.are.equal("win", value)
      assert.are.equal(1, dist)
    end)

    it("a side without a king has lost (distance 0)", function()
      local value, dist = cheskers.new("8/8/8/8/8/2k5/8/B7 w"):probe(cheskers.tb.open(DIRS.golomb))
      assert.are.equal("loss", value)
      assert.are.equal(0, dist)
    end)
  end)

  for _, name in ipairs({ "golomb", "majority_off", "flying", "backward" }) do
    it(name .. ": agrees with the solver on random positions (both sides to move)", function()
      local count = samples(name == "golomb" and 2000 or 400)
      assert.are.equal(count, check_solver(name, count, 7 + #name))
    end)
  end

  it("every value follows from its moves (random positions, each rule set)", function()
    for name, rules in pairs({ golomb = false, majority_off = 1, flying = 1, backward = 1 }) do
      local rng = rng_of(99)
      local tables = cheskers.tb.open(DIRS[name])
      for _ = 1, samples(500) do
        check_consistent(cheskers.new(random_fen(rng), rules and RULESETS[name] or nil), tables)
      end
    end
  end)

  it("the colour swap with the half turn is a symmetry of the rules (solver on both images)", function()
    local rng = rng_of(5)
    for _, rules in ipairs({ {}, { flying_kings = true }, { pawns_capture_backward = true },
                             { majority = false, capture = "optional" } }) do
      for _ = 1, 150 do
        local fen = random_fen(rng)
        local a, b = cheskers.new(fen, rules), cheskers.new(image(fen), rules)
        local sa, sb = a:solve{ moves = 6 }, b:solve{ moves = 6 }
        assert.are.equal(sa.win, sb.win, fen)
        assert.are.equal(sa.shortest, sb.shortest, fen)
        assert.are.equal(#a:moves(), #b:moves(), fen)
      end
    end
  end)

  it("pawnless positions: the half turn and both long-diagonal reflections are symmetries (solver)", function()
    -- (f, r) -> (7-f, 7-r), (r, f), (7-r, 7-f): each keeps dark squares dark;
    -- colours and the side to move stay
    local maps = {
      function(f, r) return 7 - f, 7 - r end,
      function(f, r) return r, f end,
      function(f, r) return 7 - r, 7 - f end,
    }
    local function transform(fen, map)
      local placement, side = fen:match("^(%S+) (%a)")
      local grid, r = {}, 7
      for row in placement:gmatch("[^/]+") do
        local f = 0
        for c in row:gmatch(".") do
          if c:match("%d") then f = f + tonumber(c) else
            local nf, nr = map(f, r)
            grid[nr * 8 + nf] = c
            f = f + 1
          end
        end
        r = r - 1
      end
      local rows = {}
      for rr = 7, 0, -1 do
        local row, empty = "", 0
        for ff = 0, 7 do
          local c = grid[rr * 8 + ff]
          if c then row = row .. (empty > 0 and empty or "") .. c; empty = 0 else empty = empty + 1 end
        end
        rows[#rows + 1] = row .. (empty > 0 and empty or "")
      end
      return table.concat(rows, "/") .. " " .. side
    end
    local rng, tried = rng_of(11), 0
    for _, rules in ipairs({ {}, { flying_kings = true }, { majority = false, capture = "all" } }) do
      while tried < 120 do
        local fen = random_fen(rng)
        if not fen:match("[Pp]") then
          tried = tried + 1
          local want = cheskers.new(fen, rules):solve{ moves = 6 }
          for _, map in ipairs(maps) do
            local img = transform(fen, map)
            local got = cheskers.new(img, rules):solve{ moves = 6 }
            assert.are.equal(want.win, got.win, fen .. " / " .. img)
            assert.are.equal(want.shortest, got.shortest, fen .. " / " .. img)
          end
        end
      end
      tried = 0
    end
  end)

  it("tables of one rule set are not used for another", function()
    -- majority=false's tables were built elsewhere; golomb's directory has
    -- none for flying kings
    local b = cheskers.new("8/8/8/8/3k4/2K5/8/8 w", { flying_kings = true })
    local dir = build("flying_kk", { flying_kings = true }, 2)
    assert.is_nil((b:probe(cheskers.tb.open(DIRS.golomb))))
    assert.are.equal("win", (b:probe(cheskers.tb.open(dir))))
    -- a golomb file under the flying-kings name: its header says other rules
    local theirs, ours
    for _, f in ipairs(files(DIRS.golomb)) do if f:match("^KvK%.") then theirs = f end end
    for _, f in ipairs(files(dir)) do if f:match("^KvK%.") then ours = f end end
    assert.are_not.equal(theirs, ours)
    assert(os.execute(("cp '%s/%s' '%s/%s'"):format(DIRS.golomb, theirs, dir, ours)))
    local value, err = b:probe(cheskers.tb.open(dir))
    assert.is_nil(value)
    assert.matches("built for other rules", err)
  end)

  it("K v K read back from its file: the longest win is the longest found by probing", function()
    -- every placement of the two kings, White to move (the table's 992)
    local tables = cheskers.tb.open(DIRS.golomb)
    local longest, count = 0, 0
    for _, wk in ipairs(SQ) do
      for _, bk in ipairs(SQ) do
        if wk ~= bk then
          local value, dist = cheskers.new(fen_of({ [wk] = "K", [bk] = "k" }, "w")):probe(tables)
          count = count + 1
          if value == "win" then longest = math.max(longest, dist) end
        end
      end
    end
    assert.are.equal(992, count)
    assert.is_true(longest > 1)    -- not only the jumps that win at once
    local kvk
    for _, t in ipairs(tables:info()) do if t.name == "KvK" then kvk = t end end
    assert.are.equal(longest, kvk.longest_win)
    local value, dist = cheskers.new(kvk.longest_fen):probe(tables)
    assert.are.equal("win", value)
    assert.are.equal(longest, dist)
  end)

  it("one thread builds the same tables as several", function()
    local dir = ROOT .. "/one_thread"
    assert(cheskers.tb.build{ pieces = 3, dir = dir, threads = 1 })
    local one, several = cheskers.tb.open(dir):info(), cheskers.tb.open(DIRS.golomb):info()
    assert.are.equal(9, #one)
    assert.are.same(several, one)
  end)

  it("the draw options and first do not change the tables", function()
    local b = cheskers.new("8/8/8/8/8/2k5/8/K7 w", { draw_quiet_plies = 10, first = "white" })
    local value, dist = b:probe(cheskers.tb.open(DIRS.golomb))
    assert.are.equal("loss", value)
    assert.are.equal(2, dist)
  end)

  -- ---- table files are input (docs/reference/security.md): what they can and cannot do

  -- A copy of golomb's K v K alone in a new folder: folder, file name, path.
  local function kvk_copy(name)
    local dir = ROOT .. "/" .. name
    local file
    for _, f in ipairs(files(DIRS.golomb)) do if f:match("^KvK%.") then file = f end end
    assert(os.execute(("mkdir -p '%s' && cp '%s/%s' '%s/'"):format(dir, DIRS.golomb, file, dir)))
    return dir, file, dir .. "/" .. file
  end

  -- The little-endian integer of n bytes at offset at of path; with value,
  -- writes it there instead.
  local function field(path, at, n, value)
    local h = assert(io.open(path, value and "r+b" or "rb"))
    h:seek("set", at)
    if value then h:write(string.pack("<I" .. n, value)) h:close() return end
    local v = string.unpack("<I" .. n, h:read(n))
    h:close()
    return v
  end

  -- FNV-1a 64 of text, going on from h (docs/guide/tables.md: the checksum),
  -- written here from its definition (Lua integers wrap like uint64_t).
  local function fnv64(text, h)
    h = h or 0xcbf29ce484222325       -- (wraps to an integer)
    for i = 1, #text do h = (h ~ text:byte(i)) * 0x100000001b3 end
    return h
  end

  -- The parts of a table file as docs/guide/tables.md lays them out, read
  -- here from that description: the header length, the block size and
  -- count, the block offsets (file offsets, then the file's end), the text.
  local function layout(path)
    local text = H.read_file(path)
    local hlen = string.unpack("<I4", text, 13)
    local bsize, nblocks = string.unpack("<I4<I8", text, 85)
    local offs = {}
    for i = 0, nblocks do offs[i] = string.unpack("<I8", text, hlen + 8 * i + 1) end
    return { text = text, hlen = hlen, bsize = bsize, nblocks = nblocks, offs = offs }
  end

  -- Writes the checksum docs/guide/tables.md defines into the file at path:
  -- over the header (its checksum field as zeros), then the block index.
  local function reseal(path)
    local f = layout(path)
    local header = f.text:sub(1, 72) .. string.rep("\0", 8) .. f.text:sub(81, f.hlen)
    local index = f.text:sub(f.hlen + 1, f.hlen + 8 * (f.nblocks + 1))
    field(path, 72, 8, fnv64(index, fnv64(header)))
  end

  -- Adds 1 to the byte at offset at of path.
  local function flip(path, at)
    local h = assert(io.open(path, "r+b"))
    h:seek("set", at)
    local byte = h:read(1):byte()
    h:seek("set", at)
    h:write(string.char((byte + 1) % 256))
    h:close()
  end

  local function quoted(path) return path:gsub("%p", "%%%0") end

  local KA1_KC3 = "8/8/8/8/8/2k5/8/K7 w"    -- lost in 2 (a1-b2, c3xa1: by hand)

  it("a flipped byte in a block is found at probe, naming the file and the block", function()
    local dir, _, path = kvk_copy("damaged")
    -- the last byte of the file is in the last block's zstd checksum
    flip(path, #H.read_file(path) - 1)
    local value, err = cheskers.new(KA1_KC3):probe(cheskers.tb.open(dir))
    assert.is_nil(value)
    assert.are.equal("tablebase " .. path .. ": block 0 of 1: checksum mismatch (damaged)", err)
  end)

  it("the checksum is the one docs/guide/tables.md defines (header and block index)", function()
    local _, _, path = kvk_copy("sum")
    local stored = field(path, 72, 8)
    reseal(path)
    assert.are.equal(stored, field(path, 72, 8))
  end)

  it("an edited header (the longest win) is refused: the checksum covers it", function()
    local dir, _, path = kvk_copy("edited")
    field(path, 56, 4, 250)
    local list, err = cheskers.tb.open(dir):info()
    assert.is_nil(list)
    assert.matches("tablebase " .. quoted(path) .. ": checksum mismatch %(damaged%)", err)
  end)

  it("a longest win that its values do not hold is refused, even with a right checksum", function()
    local dir, _, path = kvk_copy("forged")
    field(path, 56, 4, 251)
    reseal(path)
    local list, err = cheskers.tb.open(dir):info()
    assert.is_nil(list)
    assert.matches("its longest win is not in its values", err)
  end)

  it("a damaged block index is refused; resealed, its offsets are checked", function()
    local dir, _, path = kvk_copy("index")
    local f = layout(path)
    assert.are.equal(1, f.nblocks)
    assert.are.equal(f.hlen + 16, f.offs[0])      -- the block right after the index
    assert.are.equal(#f.text, f.offs[1])          -- and up to the end
    field(path, f.hlen, 8, f.offs[0] + 1)
    local value, err = cheskers.new(KA1_KC3):probe(cheskers.tb.open(dir))
    assert.is_nil(value)
    assert.are.equal("tablebase " .. path .. ": checksum mismatch (damaged)", err)
    reseal(path)
    value, err = cheskers.new(KA1_KC3):probe(cheskers.tb.open(dir))
    assert.is_nil(value)
    assert.are.equal("tablebase " .. path .. ": its block index is wrong (damaged)", err)
    -- a block size that is not a power of two, or a wrong block count
    for _, edit in ipairs({ { 84, 4, 65535 }, { 88, 8, 2 } }) do
      kvk_copy("index")
      field(path, edit[1], edit[2], edit[3])
      reseal(path)
      value, err = cheskers.new(KA1_KC3):probe(cheskers.tb.open(dir))
      assert.is_nil(value)
      assert.are.equal("tablebase " .. path .. ": its block size or count is wrong (damaged)", err)
    end
  end)

  it("a truncated file is refused by name, however short", function()
    local dir, _, path = kvk_copy("truncated")
    local text = H.read_file(path)
    local f = layout(path)
    for _, keep in ipairs({ #text - 1, f.offs[0], f.hlen + 4, 90, 10 }) do
      H.write_file(path, text:sub(1, keep))
      local value, err = cheskers.new(KA1_KC3):probe(cheskers.tb.open(dir))
      assert.is_nil(value)
      local why = keep < 16 and "not a Cheskers tablebase file" or "truncated or of the wrong size"
      assert.are.equal("tablebase " .. path .. ": " .. why, err, "kept " .. keep)
    end
    -- one byte too many; 4 GB more (sparse: refused by its size, never read)
    for _, grow in ipairs({ function() H.write_file(path, text .. "x") end,
                            function() assert(os.execute(("truncate -s +4G '%s'"):format(path))) end }) do
      grow()
      local t0 = os.clock()
      local value, err = cheskers.new(KA1_KC3):probe(cheskers.tb.open(dir))
      assert.is_nil(value)
      assert.are.equal("tablebase " .. path .. ": truncated or of the wrong size", err)
      assert.is_true(os.clock() - t0 < 0.5 * SCALE, "read, not refused by its size")
    end
    H.write_file(path, "")
  end)

  it("files of the older formats (1, 2) are refused by name: rebuild; a build replaces them", function()
    -- a real format-2 file (one value byte per index, no blocks), and a
    -- format-3 file marked 1
    local dir, file, path = kvk_copy("old")
    local old2 = H.read_file(select(2, H.data_file("KvK.3ed3cc6b.format2.ctb")))
    assert.are.equal(2, string.unpack("<I4", old2, 9))
    assert.are.equal(file, "KvK.3ed3cc6b.ctb")
    for _, make_old in ipairs({ function() H.write_file(path, old2) end,
                                function() field(path, 8, 4, 1) end }) do
      make_old()
      local value, err = cheskers.new(KA1_KC3):probe(cheskers.tb.open(dir))
      assert.is_nil(value)
      assert.are.equal("tablebase " .. path .. ": made by an older version of the file format: " ..
                       "rebuild with cheskers tb build", err)
      local log = {}
      assert(cheskers.tb.build{ pieces = 2, dir = dir, progress = function(t) log[#log + 1] = t end })
      assert.are.equal(1, #log)
      assert.is_false(log[1].skipped)
      assert.are.same({ "loss", 2 }, { cheskers.new(KA1_KC3):probe(cheskers.tb.open(dir)) })
      assert.are.equal(3, field(path, 8, 4))
    end
  end)

  -- ---- the blocks of a table with several: KK v KK (246016 entries, 4
  -- blocks of 65536), built from golomb's 3-piece tables

  local KKKK
  local function kk_v_kk()
    if not KKKK then
      KKKK = ROOT .. "/kkvkk"
      assert(os.execute(("mkdir -p '%s' && cp '%s'/* '%s/'"):format(KKKK, DIRS.golomb, KKKK)))
      assert(cheskers.tb.build{ pieces = 4, only = "KKvKK", dir = KKKK })
    end
    local file
    for _, f in ipairs(files(KKKK)) do if f:match("^KKvKK%.") then file = f end end
    return KKKK, file
  end

  -- A copy of the KK v KK folder: the original folder, the copy, the copy's
  -- KK v KK file and its layout.
  local function kk_v_kk_copy(name)
    local src, file = kk_v_kk()
    local dir = ROOT .. "/" .. name
    assert(os.execute(("mkdir -p '%s' && cp '%s'/* '%s/'"):format(dir, src, dir)))
    return src, dir, dir .. "/" .. file, layout(dir .. "/" .. file)
  end

  -- The index of KK v KK (docs/guide/tables.md): White's kings on squares
  -- a < b ranked a + b(b-1)/2 (the combinatorial number system), then
  -- Black's the same way, 496 ranks each; the squares numbered 0..31 in
  -- cheskers.SQUARES order.
  local function kkkk_index(a, b, c, d)
    return (a + b * (b - 1) // 2) + 496 * (c + d * (d - 1) // 2)
  end

  it("KK v KK: every entry probed equals its byte unpacked by the zstd program", function()
    local dir, file = kk_v_kk()
    local f = layout(dir .. "/" .. file)
    assert.are.same({ 65536, 4 }, { f.bsize, f.nblocks })
    -- the blocks as the index says, one zstd frame each, unpacked by zstd(1)
    local blocks = H.tmpname(".zst")
    H.write_file(blocks, f.text:sub(f.offs[0] + 1, f.offs[f.nblocks]))
    local p = assert(io.popen(("zstd -q -d -c '%s'"):format(blocks)))
    local values = p:read("a")
    p:close()
    assert.are.equal(496 * 496, #values)
    local tables, b = cheskers.tb.open(dir), cheskers.new("8/8/8/8/8/8/8/8 w")
    local checked, empty = 0, 0
    for a = 0, 31 do for bb = a + 1, 31 do for c = 0, 31 do for d = c + 1, 31 do
      local byte = values:byte(kkkk_index(a, bb, c, d) + 1)
      if a == c or a == d or bb == c or bb == d then
        assert.are.equal(0, byte)      -- no position
        empty = empty + 1
      else
        b:put(SQ[a + 1], "K") b:put(SQ[bb + 1], "K") b:put(SQ[c + 1], "k") b:put(SQ[d + 1], "k")
        local value, dist = b:probe(tables)
        local want = byte == 1 and "draw" or (byte - 2) % 2 == 1 and "win" or "loss"
        if value ~= want or dist ~= (byte == 1 and 0 or byte - 2) then
          error(("%s: probed %s %s, byte %d"):format(b:fen(), value, dist, byte))
        end
        for _, sq in ipairs({ a, bb, c, d }) do b:put(SQ[sq + 1], nil) end
        checked = checked + 1
      end
    end end end end
    assert.are.equal(496 * 496, checked + empty)
    assert.is_true(checked > 150000)
  end)

  it("a flipped byte in one block: its positions refused naming file and block, the others read", function()
    local src, dir, path, f = kk_v_kk_copy("kkvkk_damaged")
    -- block 2 (not the longest win's: info() reads that one)
    assert.are_not.equal(2, field(path, 64, 8) // 65536)
    flip(path, (f.offs[2] + f.offs[3]) // 2)
    local good, bad = cheskers.tb.open(src), cheskers.tb.open(dir)
    local b, ok, refused = cheskers.new("8/8/8/8/8/8/8/8 w"), 0, 0
    b:put("a1", "K") b:put("c1", "K")        -- squares 0, 1
    for c = 2, 31 do for d = c + 1, 31 do
      b:put(SQ[c + 1], "k") b:put(SQ[d + 1], "k")
      local value, dist = b:probe(bad)
      local block = kkkk_index(0, 1, c, d) // 65536
      if block == 2 then
        assert.is_nil(value)
        local prefix = "tablebase " .. path .. ": block 2 of 4: "
        assert.are.equal(prefix, dist:sub(1, #prefix))
        assert.matches("%(damaged%)$", dist)
        refused = refused + 1
      else
        assert.are.same({ b:probe(good) }, { value, dist })
        ok = ok + 1
      end
      b:put(SQ[c + 1], nil) b:put(SQ[d + 1], nil)
    end end
    assert.is_true(refused > 50 and ok > 200, refused .. " " .. ok)
    assert.are.equal(#good:info(), #bad:info())    -- headers and longest wins still read
  end)

  it("a resumed build keeps a file whose header and block index are sound, unread", function()
    local src, dir, path, f = kk_v_kk_copy("kkvkk_resume")
    local file = path:match("[^/]*$")
    flip(path, (f.offs[1] + f.offs[2]) // 2)     -- a block: found on use, not by the build
    local log = {}
    assert(cheskers.tb.build{ pieces = 4, only = "KKvKK", dir = dir,
                              progress = function(t) log[#log + 1] = t end })
    assert.are.same({ true }, { log[1].skipped })
    assert.are_not.equal(H.read_file(src .. "/" .. file), H.read_file(path))
    field(path, f.hlen + 8, 8, f.offs[1] + 1)    -- the index: rebuilt
    log = {}
    assert(cheskers.tb.build{ pieces = 4, only = "KKvKK", dir = dir,
                              progress = function(t) log[#log + 1] = t end })
    assert.are.same({ false }, { log[1].skipped })
    assert.are.equal(H.read_file(src .. "/" .. file), H.read_file(path))
  end)

  -- (a FIFO, which used to block every probe, is tests/core/tb_test.sh's: under
  -- a timeout)
  it("a folder named like a table is refused, naming it", function()
    local dir, file, path = kvk_copy("not_regular")
    assert(os.remove(path))
    assert(os.execute(("mkdir '%s'"):format(path)))
    local value, err = cheskers.new(KA1_KC3):probe(cheskers.tb.open(dir))
    assert.is_nil(value)
    assert.are.equal("tablebase " .. dir .. "/" .. file .. ": not a regular file", err)
  end)

  it("a link to a table elsewhere is read (tables may be shared by links)", function()
    local dir = ROOT .. "/linked"
    local _, file, path = kvk_copy("link_target")
    assert(os.execute(("mkdir -p '%s' && ln -s '%s' '%s/%s'"):format(dir, path, dir, file)))
    assert.are.same({ "loss", 2 }, { cheskers.new(KA1_KC3):probe(cheskers.tb.open(dir)) })
  end)

  it("a table in use keeps its values when its file is truncated or rewritten", function()
    local dir, _, path = kvk_copy("in_use")
    local tables = cheskers.tb.open(dir)
    local b = cheskers.new(KA1_KC3)
    assert.are.same({ "loss", 2 }, { b:probe(tables) })
    H.write_file(path, "")        -- a mapped file would be SIGBUS from here on
    assert.are.same({ "loss", 2 }, { b:probe(tables) })
    assert.are.equal(1, #tables:info())
    tables:reload()
    local value, err = b:probe(tables)
    assert.is_nil(value)
    assert.matches("not a Cheskers tablebase file", err)
  end)

  it("a build never writes through a link planted at a temporary or final name", function()
    local dir, file = kvk_copy("planted")
    assert(os.remove(dir .. "/" .. file))
    local victims = { ROOT .. "/victim_tmp", ROOT .. "/victim_final" }
    for _, v in ipairs(victims) do H.write_file(v, "precious") end
    -- the temporary name builds used to take, and the file's own name
    assert(os.execute(("ln -s '%s' '%s/%s.tmp' && ln -s '%s' '%s/%s'"):format(
      victims[1], dir, file, victims[2], dir, file)))
    assert(cheskers.tb.build{ pieces = 2, dir = dir })
    for _, v in ipairs(victims) do assert.are.equal("precious", H.read_file(v)) end
    assert.are.same({ "loss", 2 }, { cheskers.new(KA1_KC3):probe(cheskers.tb.open(dir)) })
    -- the table replaced the link; the planted link is left; no other file
    assert.are.same({ file, file .. ".tmp" }, files(dir))
    assert.is_true(os.execute(("test -f '%s/%s' && ! test -L '%s/%s'"):format(dir, file, dir, file)))
  end)

  it("tb.set_default: false covers nothing, nil is the environment's, the previous is returned", function()
    local t = cheskers.tb.open(DIRS.golomb)      -- the default from now on
    local b = cheskers.new(KA1_KC3)
    assert.are.same({ "loss", 2 }, { b:probe() })
    assert.are.equal(t, cheskers.tb.set_default(false))
    assert.are.same({ nil, n = 1 }, table.pack(b:probe()))
    assert.are.equal("tables (no folder)", tostring(cheskers.tb.default()))
    assert.is_nil(cheskers.tb.default():dir())
    assert.are.equal(false, cheskers.tb.set_default(nil))
    local env = os.getenv("CHESKERS_TB")
    assert.are.equal(env and env ~= "" and env or "tb", cheskers.tb.default():dir())
    assert.are_not.equal(t, cheskers.tb.set_default(t))
    assert.are.same({ "loss", 2 }, { b:probe() })
    local ok, err = pcall(cheskers.tb.set_default, 42)
    assert.is_false(ok)
    assert.are.equal("bad_argument", cheskers.error_code(err))
    assert.are.equal("tb.set_default: the argument must be tables (cheskers.tb.open(dir)), false or nil, not 42",
                     tostring(err))
  end)

  it("rule sets with hooks or custom pieces are refused with the reason", function()
    local hooked = { filter = function() return true end }
    local ok, err = cheskers.tb.build{ pieces = 2, rules = hooked, dir = ROOT .. "/hooked" }
    assert.is_nil(ok)
    assert.matches("hooks", err)
    local value, msg = cheskers.new("8/8/8/8/3k4/2K5/8/8 w", hooked):probe(cheskers.tb.open(DIRS.golomb))
    assert.is_nil(value)
    assert.matches("hooks", msg)
    local camel15 = { pieces = { C = { leaps = { { 1, 5 } } } } }
    ok, err = cheskers.tb.build{ pieces = 2, rules = camel15, dir = ROOT .. "/camel" }
    assert.is_nil(ok)
    assert.matches("custom piece kinds", err)
  end)

  it("without tables nothing is covered and nothing fails", function()
    local empty = cheskers.tb.open(ROOT .. "/no-such-dir")
    local b = cheskers.new("8/8/8/8/3k4/2K5/8/8 w")
    assert.is_nil((b:probe(empty)))
    local moves = b:tb_moves(empty)
    assert.is_true(#moves > 0)
    for _, m in ipairs(moves) do
      -- c3xe5 takes the last king: won whatever the tables
      if tostring(m.move) == "c3xe5" then
        assert.are.equal("win", m.value)
        assert.are.equal(1, m.distance)
      else
        assert.is_nil(m.value)
      end
    end
    assert.are.equal(0, empty:max_pieces())
    assert.are.same({}, empty:info())
  end)

  it("a directory that cannot be made is refused with the reason", function()
    local ok, err = cheskers.tb.build{ pieces = 2, dir = ROOT .. "/no/such/parent" }
    assert.is_nil(ok)
    assert.matches("cannot make the directory .*/no/such/parent", err)
  end)

  it("bad arguments raise", function()
    assert.has_error(function() cheskers.tb.build{ pieces = 9 } end)
    assert.has_error(function() cheskers.tb.build{ pieces = "x" } end)
    assert.has_error(function() cheskers.new():probe(42) end)
  end)

  -- tb.build's table, checked before anything is built: an unknown key
  -- with the nearest known one (code bad_option), a bad value echoed with
  -- what is allowed (code bad_argument), in the wording of cheskers.schema
  local BUILD_ERRORS = {
    { { pices = 2 }, "bad_option", "tb.build: unknown option 'pices' (did you mean 'pieces'?)" },
    { { pieces = 2, treads = 1 }, "bad_option", "tb.build: unknown option 'treads' (did you mean 'threads'?)" },
    { { pieces = 2, zzzzzz = 1 }, "bad_option",
      "tb.build: unknown option 'zzzzzz' (known: pieces, rules, dir, threads, progress, only, preflight)" },
    { { 2 }, "bad_option", "tb.build: option names must be strings (got number)" },
    { { pieces = 9 }, "bad_argument", "tb.build: pieces must be a whole number from 2 to 6, not 9" },
    { { pieces = "x" }, "bad_argument", "tb.build: pieces must be a whole number from 2 to 6, not 'x'" },
    { { pieces = 2.5 }, "bad_argument", "tb.build: pieces must be a whole number from 2 to 6, not 2.5" },
    { { pieces = 2, threads = -1 }, "bad_argument", "tb.build: threads must be a whole number from 0 to 64, not -1" },
    { { pieces = 2, threads = true }, "bad_argument", "tb.build: threads must be a whole number from 0 to 64, not true" },
    { { pieces = 2, dir = {} }, "bad_argument", "tb.build: dir must be a text (a directory), not a table" },
    { { pieces = 2, progress = 1 }, "bad_argument", "tb.build: progress must be a function, not 1" },
    { { pieces = 2, only = 5 }, "bad_argument", "tb.build: only must be a signature such as 'KCvKK', not 5" },
    { { pieces = 2, preflight = "no" }, "bad_argument", "tb.build: preflight must be true or false, not 'no'" },
    { { pieces = 2, threads = 1 }, "bad_option", "tb.plan: unknown option 'threads' (known: pieces, rules, dir, only)",
      "plan" },
    { { pieces = 7 }, "bad_argument", "tb.plan: pieces must be a whole number from 2 to 6, not 7", "plan" },
    { { only = {} }, "bad_argument", "tb.plan: only must be a signature such as 'KCvKK', not a table", "plan" },
  }
  for _, row in ipairs(BUILD_ERRORS) do
    it("tb." .. (row[4] or "build") .. " refuses: " .. row[3], function()
      local ok, err = pcall(cheskers.tb[row[4] or "build"], row[1])
      assert.is_false(ok)
      assert.are.equal(row[2], cheskers.error_code(err))
      assert.are.equal(row[3], tostring(err))
    end)
  end
end)

describe("tb.plan", function()
  it("lists every unit once, each after the units whose tables it reads", function()
    local units = assert(cheskers.tb.plan { pieces = 4, dir = "/nonexistent/tb" })
    local level, seen = {}, 0
    for _, u in ipairs(units) do
      level[u.name] = u.level
      if u.swap then level[u.swap] = u.level end
      seen = seen + (u.swap and 2 or 1)
      assert.is_false(u.built)
    end
    assert.are.equal(45, seen)
    -- hand-checked dependencies: a capture, a promotion, a chain
    assert.is_true(level.KvK < level.KBvK and level.KBvK < level.KBvKB)
    assert.is_true(level.KKvK < level.KPvK and level.KBvK < level.KPvK and level.KCvK < level.KPvK)
    assert.is_true(level.KKPvK < level.KPPvK and level.KBPvK < level.KPPvK and level.KPvK < level.KPPvK)
  end)
  it("gives the exact file sizes: K v K is 320 entries, one file", function()
    local u = assert(cheskers.tb.plan { pieces = 2, dir = "/nonexistent/tb" })
    assert.are.equal(1, #u)
    assert.are.same({ "KvK", nil, 2, 1, 320 }, { u[1].name, u[1].swap, u[1].pieces, u[1].level, u[1].entries })
    assert.is_true(u[1].disk > 320 and u[1].disk < 320 + 600)
  end)
  it("only: that unit, either member's name, letters in any order", function()
    local a = assert(cheskers.tb.plan { pieces = 4, only = "KCvKB" })
    local b = assert(cheskers.tb.plan { pieces = 4, only = "KBvKC" })
    assert.are.equal(1, #a)
    assert.are.same(a, b)
    local c = assert(cheskers.tb.plan { pieces = 4, only = "KCBvK" })
    assert.are.equal("KBCvK", c[1].name)
    local none, err = cheskers.tb.plan { pieces = 4, only = "KvKX" }
    assert.is_nil(none)
    assert.matches("'KvKX' is not a signature", err, 1, true)
  end)
end)

describe("cheskers.tables: what `tb plan` and `tb atlas` compute, for a script", function()
  local T = require "cheskers.tables"

  it("plan_summary: the units of each level, the sizes in all, what is left, the largest", function()
    local units = {
      { level = 1, name = "KvK", entries = 1000, disk = 300, built = true, memory = 10 },
      { level = 2, name = "KBvK", entries = 5000, disk = 900, built = false, memory = 70 },
      { level = 2, name = "KPvK", entries = 4000, disk = 800, built = false, memory = 40 },
    }
    local s = T.plan_summary(units)
    assert.same({ { level = 1, names = { "KvK" } }, { level = 2, names = { "KBvK", "KPvK" } } }, s.levels)
    assert.same({ 3, 10000, 2000, 1700 }, { s.units, s.entries, s.disk, s.todo })
    assert.equal("KBvK", s.largest.name)
  end)

  it("longest: the table with the longest win", function()
    assert.equal("b", T.longest({ { name = "a", longest_win = 3 }, { name = "b", longest_win = 9 },
                                  { name = "c", longest_win = 9 } }).name)
  end)

  it("atlas: no tables names the command that builds them", function()
    local dir = tmpdir()
    local ok, err = pcall(T.atlas, dir, nil, nil, "golomb")
    assert.is_false(ok)
    assert.matches("no tables in " .. dir .. " for the rules golomb: build them with `cheskers tb build", tostring(err),
                   1, true)
  end)
end)
