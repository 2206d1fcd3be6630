-- tests/library/studies_spec.lua - endgame studies from the tablebases: the walk
-- of a table's won positions (tables:wins), cheskers mine --studies, the
-- studies of the collection (scripts/puzzles/studies.lua), and the atlas
-- (its one-move share, tb atlas --vs). Tables up to 3 pieces are built
-- here, under golomb and flying_kings=true. Expected values come from
-- another part of the program answering the same question one position at
-- a time (tables:moves, b:probe over every placement this file makes with
-- its own loops, the solver), never from the output under test.
local cheskers = require "cheskers"
local H = require "helpers"
local puzzle = require "cheskers.puzzle"

local DIR = H.tmpdir()
local FLY, FLY_RULES = "flying_kings=true", { flying_kings = true }
assert(cheskers.tb.build { pieces = 3, dir = DIR })
assert(cheskers.tb.build { pieces = 3, dir = DIR, rules = FLY_RULES })
local T = cheskers.tb.open(DIR)

local run_program = H.run_program

-- Every position of a signature with White to move, by placing the
-- letters on the dark squares in every way (pawns off their last rank):
-- calls fn(board) for each legal one.
local function each_position(letters, rules, fn)
  local placed, used = {}, {}
  local function go(i)
    if i > #letters then
      local b = cheskers.new("8/8/8/8/8/8/8/8 w", rules)
      for k, sq in ipairs(placed) do b:put(sq, letters[k]) end
      local ok, fresh = pcall(cheskers.new, b:fen(), rules)
      if ok then fn(fresh) end
      return
    end
    for _, sq in ipairs(cheskers.SQUARES) do
      local rank = sq:sub(2, 2)
      local l = letters[i]
      if not used[sq] and not (l == "P" and rank == "8") and not (l == "p" and rank == "1") then
        used[sq], placed[i] = true, sq
        go(i + 1)
        used[sq] = nil
      end
    end
  end
  go(1)
end

-- The moves of b that win for the side to move (by tables:moves of
-- tables, default T).
local function winning(b, tables)
  local list = {}
  for _, m in ipairs(assert((tables or T):moves(b))) do
    if m.value == "win" then list[#list + 1] = m end
  end
  return list
end

describe("tables:wins", function()
  -- K v K (the symmetric index), KP v K (pawns: no symmetry), KB v K
  for _, row in ipairs { { "KvK", { "K", "k" } }, { "KPvK", { "K", "P", "k" } }, { "KBvK", { "K", "B", "k" } } } do
    local name, letters = row[1], row[2]
    it(name .. ": counts the won positions with a single winning move, each image too", function()
      local won, unique = 0, 0
      each_position(letters, nil, function(b)
        if b:probe(T) == "win" then
          won = won + 1
          if #winning(b) == 1 then unique = unique + 1 end
        end
      end)
      local info
      for _, t in ipairs(assert(T:info())) do if t.name == name then info = t end end
      assert.are.equal(won, info.wins)
      local list, n = T:wins(nil, name, 1, true, 0)
      assert.are.same({}, list)
      assert.are.equal(unique, n)
      local _, all = T:wins(nil, name, 1, false, 0)
      assert.are.equal(won, all)
    end)
  end

  it("lists the longest first, each won in at least min plies with one winning move", function()
    local list, n = T:wins(nil, "KPvK", 9, true, 50)
    assert(#list > 0 and #list <= 50 and n >= #list)
    local last
    for _, w in ipairs(list) do
      local b = cheskers.new(w.fen)
      local value, dist = b:probe(T)
      assert.are.equal("win", value)
      assert.are.equal(w.distance, dist)
      assert(dist >= 9, w.fen)
      assert.are.equal(1, #winning(b), w.fen)
      assert(not last or last >= dist, "not longest first")
      last = dist
    end
  end)

  it("refuses a signature it has no table for, and bad numbers", function()
    local list, err = T:wins(nil, "KBBBvK")
    assert.is_nil(list)
    assert.matches("no table KBBBvK", err)
    for _, row in ipairs {
      { { 0 }, "tables:wins: min must be a whole number from 1 to 253, not 0" },
      { { 2 ^ 40 }, "min must be a whole number from 1 to 253" },
      { { 1, true, -1 }, "tables:wins: keep must be a whole number from 0 to 100000, not -1" },
      { { 1, true, "many" }, "keep must be a whole number from 0 to 100000, not 'many'" },
    } do
      local ok, e = pcall(T.wins, T, nil, "KvK", table.unpack(row[1]))
      assert.is_false(ok)
      assert.are.equal("bad_argument", cheskers.error_code(e))
      assert.truthy(tostring(e):find(row[2], 1, true), tostring(e))
    end
  end)
end)

-- Checks a study by the tables (default T), move by move: White's move is
-- the only winning one (every other draws or loses), except within the
-- last `duals` plies where it must be the only fastest; Black's is a
-- longest resistance; the line ends in White's win.
local function assert_study(p, duals, tables)
  tables = tables or T
  local b = cheskers.new(p.fen, p.rules)
  assert.are.equal("white", b:turn())
  assert(not b:parse(p.solution[1]).is_capture, "a capture key: " .. p.fen)
  for i, text in ipairs(p.solution) do
    local m = assert(b:parse(text))
    local moves = assert(tables:moves(b))
    if i % 2 == 1 then
      local wins = winning(b, tables)
      local mine
      for _, w in ipairs(wins) do if w.move == m then mine = w end end
      assert(mine, ("%s: move %d %s does not win"):format(p.fen, i, text))
      if #wins > 1 then
        assert(mine.distance <= duals, ("%s: move %d %s is not the only win"):format(p.fen, i, text))
        for _, w in ipairs(wins) do
          assert(w == mine or w.distance > mine.distance, ("%s: a dual at move %d"):format(p.fen, i))
        end
      end
    else
      local longest = 0
      for _, d in ipairs(moves) do longest = math.max(longest, d.distance) end
      for _, d in ipairs(moves) do
        if d.move == m then assert.are.equal(longest, d.distance) end
      end
    end
    b:play(m)
  end
  assert.are.equal("white", (b:result()))
end

-- Every table up to 3 pieces, KK v KK, and the 5-piece unit KKC v KK with
-- the 4-piece tables it reads (built once, on first use).
local kkc
local function kkc_tables()
  if kkc then return kkc end
  local dir = H.tmpdir()
  assert(cheskers.tb.build { pieces = 3, dir = dir })
  for _, sig in ipairs { "KKvKK", "KKCvK", "KCvKK", "KKCvKK" } do
    assert(cheskers.tb.build { pieces = #sig - 1, dir = dir, only = sig })
  end
  kkc = cheskers.tb.open(dir)
  return kkc
end

describe("cheskers mine --studies", function()
  local mine = require("cheskers.mine").run

  it("finds studies whose every White move is the only win, Black resisting longest", function()
    local found = mine { studies = true, seed = 1, tables = T, lo = 2, hi = 64, duals = 3, per_signature = 3,
                         candidates = 1000 }
    assert(#found >= 5, #found .. " studies")
    local last
    for _, p in ipairs(found) do
      assert_study(p, 3)
      assert(p.moves >= 2)
      assert.are.equal("study", p.tags[1])
      assert(puzzle.check(p, { tb = T }).ok, p.fen)
      assert(not last or last >= p.moves, "ranked longest first")
      last = p.moves
    end
  end)

  it("keeps to a signature and a theme, and with no duals allowed every White move is the only win", function()
    local found = mine { studies = true, seed = 1, tables = T, lo = 2, hi = 64, duals = 0, per_signature = 5,
                         candidates = 1000, signature = "KvK" }
    assert(#found > 0)
    for _, p in ipairs(found) do
      assert_study(p, 0)
      assert.matches("^K v K:", p.title)
    end
    for _, p in ipairs(mine { studies = true, seed = 1, tables = T, lo = 2, hi = 64, duals = 3, per_signature = 3,
                              candidates = 1000, theme = "sacrifice" }) do
      local tags = table.concat(p.tags, ",")
      assert.matches("sacrifice", tags)
    end
  end)

  it("walks every table there, those past the complete set too, or the signatures listed", function()
    -- every 3-piece table, KK v KK, and the 5-piece KKC v KK: max_pieces
    -- is 3, and the larger tables are walked (a table is written whole,
    -- after those it reads)
    local T2 = kkc_tables()
    assert.are.equal(3, T2:max_pieces())
    local found = mine { studies = true, seed = 1, tables = T2, lo = 2, hi = 64, duals = 3, per_signature = 3,
                         candidates = 100000 }
    local four, five = 0, 0
    for _, p in ipairs(found) do
      if p.title:find("^KK v KK:") then four = four + 1 end
      if p.title:find("^KKC v KK:") then five = five + 1 end
      assert(puzzle.check(p, { tb = T2 }).ok, p.fen)
    end
    assert(four > 0, "no study from KK v KK")
    assert(five > 0, "no study from KKC v KK")
    local names = {}
    for _, p in ipairs(mine { studies = true, seed = 1, tables = T2, lo = 2, hi = 64, duals = 3, per_signature = 3,
                              candidates = 100000, signature = "KKvKK,KKvK" }) do
      names[p.title:match("^(.-):")] = true
    end
    assert.are.same({ ["KK v KK"] = true, ["KK v K"] = true }, names)
    -- --pieces 5: the tables of 5 pieces alone (KKC v KK and its swap)
    local five_only = mine { studies = true, seed = 1, tables = T2, lo = 2, hi = 64, duals = 3, per_signature = 3,
                             candidates = 100000, pieces = 5 }
    assert(#five_only > 0)
    for _, p in ipairs(five_only) do
      assert.are.equal(5, #cheskers.new(p.fen):pieces("white") + #cheskers.new(p.fen):pieces("black"))
    end
  end)

  it("writes the ranked studies as a puzzle file that checks", function()
    local out = H.tmpdir()
    local text, code = run_program(("mine --studies --tb %s --moves 2-64 --out %s --file s.lua --quiet"):format(
      DIR, out))
    assert.are.equal(0, code, text)
    assert.matches("puzzles? %(.*%) written to", text)
    local list = assert(puzzle.load(out .. "/s.lua"))
    assert(#list > 0)
    for _, p in ipairs(list) do assert_study(p, 3) end
    text, code = run_program(("check --tb %s %s/s.lua"):format(DIR, out))
    assert.are.equal(0, code, text)
  end)

  it("says what is wrong with its options in one line", function()
    local out = H.tmpdir()
    for _, row in ipairs {
      { "--signature KvKKK", "no table KvKKK in" },
      { "--signature KvK,KvKKK", "no table KvKKK in" },
      { "--signature KPvJ", "did you mean" },
      { "--duals=-1", "--duals" },
      { "--per-signature 0", "--per-signature" },
      { "--theme zugswang", "did you mean 'zugzwang'" },
      { "--moves 0-3", "--moves must be" },
      { "--pieces 7", "--pieces must be a whole number from 2 to 6, not 7" },
      { "--pieces 4", "no tables of 4 pieces in " .. DIR .. " for these rules: build them with "
        .. "`cheskers tb build --pieces 4 --dir " .. DIR .. "`" },
    } do
      local text, code = run_program(("mine --studies --tb %s --out %s --quiet %s"):format(DIR, out, row[1]))
      assert.are_not.equal(0, code, text)
      assert.truthy(text:find(row[2], 1, true), text)
      assert.is_nil(text:find("traceback", 1, true), text)
    end
    local text, code = run_program(("mine --studies --tb %s/none --out %s --quiet"):format(DIR, out))
    assert.are_not.equal(0, code, text)
  end)
end)

-- Natural material: no more of a kind than an army has at the start.
local function assert_natural(fen)
  local place = fen:match("^%S+")
  for letter, most in pairs { K = 2, B = 1, C = 1, P = 8 } do
    assert(select(2, place:gsub(letter, "")) <= most, fen)
    assert(select(2, place:gsub(letter:lower(), "")) <= most, fen)
  end
end

-- Every theme the miner knows is in the set themes.
local function assert_themes(themes)
  for _, t in ipairs { "zugzwang", "sacrifice", "promotion choice", "race" } do
    assert(themes[t], "no study with the theme " .. t)
  end
end

describe("the studies of the collection", function()
  local list = assert(puzzle.load("scripts/puzzles/studies.lua"))

  it("holds at least 20 sound studies, with every theme the miner knows", function()
    assert(#list >= 20, #list .. " studies")
    local themes = {}
    for _, p in ipairs(list) do
      local r = puzzle.check(p)
      assert(r.ok, puzzle.format_report(r))
      assert.are.equal(1, #r.winning)
      for _, t in ipairs(p.tags) do themes[t] = true end
      assert_natural(p.fen)
    end
    assert_themes(themes)
  end)

  it("marks a promotion choice only where another letter does not win", function()
    for _, p in ipairs(list) do
      if table.concat(p.tags, ","):find("promotion choice", 1, true) then
        local b = cheskers.new(p.fen)
        local seen = false
        for i, text in ipairs(p.solution) do
          local m = b:parse(text)
          if i % 2 == 1 and m.promotion then
            local left = p.moves - (i - 1) // 2
            for _, letter in ipairs { "K", "B", "C" } do
              local other = b:parse((text:gsub("=%u$", "=" .. letter)))
              -- a defence holds out past the moves left (the solver)
              if other and other ~= m and puzzle.refute(b, other, left) then seen = true end
            end
          end
          b:play(m)
        end
        assert(seen, p.fen)
      end
    end
  end)
end)

describe("the 5-piece studies of the collection", function()
  -- make test has no 5-piece set: here the file's studies, their material
  -- and themes; tests/library/puzzle_spec.lua checks each with the solver alone
  -- (every one is a win in at most 15 moves), tests/program/tb5_test.sh those of
  -- KKC v KK against that table; make check-studies5 TB=DIR all of them
  -- against the whole set.
  local list = assert(puzzle.load("scripts/puzzles/studies5.lua"))

  -- "KKCvKK" for a position with White to move, by counting its letters
  local function signature(fen)
    local place = fen:match("^%S+")
    local sides = {}
    for i, letters in ipairs { "KBCP", "kbcp" } do
      local t = {}
      for l in letters:gmatch(".") do t[#t + 1] = l:rep(select(2, place:gsub(l, ""))) end
      sides[i] = table.concat(t):upper()
    end
    return sides[1] .. "v" .. sides[2]
  end

  it("holds at least 20 studies of 5 pieces, White to play, natural material, every theme", function()
    assert(#list >= 20, #list .. " studies")
    local themes, fens = {}, {}
    for _, p in ipairs(list) do
      local b = cheskers.new(p.fen)
      assert.are.equal("white", b:turn())
      assert.are.equal(5, #b:pieces("white") + #b:pieces("black"), p.fen)
      local sig = signature(p.fen)
      assert.are.equal(("%s: White to play wins in %d"):format(sig:gsub("v", " v "), p.moves), p.title)
      assert(not fens[p.fen], "twice: " .. p.fen)
      fens[p.fen] = true
      assert_natural(p.fen)
      -- the line is legal, White's first move captures nothing, and it ends in White's win
      assert.are.equal(2 * p.moves - 1, #p.solution, p.fen)
      assert.is_false(b:parse(p.solution[1]).is_capture, p.fen)
      for _, text in ipairs(p.solution) do b:play(assert(b:parse(text))) end
      assert.are.equal("white", (b:result()))
      assert(p.moves <= puzzle.MAX_MOVES, "a win past the solver's moves: " .. p.fen)
      for _, t in ipairs(p.tags) do themes[t] = true end
    end
    assert_themes(themes)
  end)

  it("those of KKC v KK: every White move the only win, Black resisting longest, by the table", function()
    local tables, n = kkc_tables(), 0
    for _, p in ipairs(list) do
      if p.title:find("^KKC v KK:") then
        n = n + 1
        assert_study(p, 3, tables)
        local r = puzzle.check(p, { tb = tables })
        assert(r.ok, puzzle.format_report(r))
      end
    end
    assert(n > 0, "no KKC v KK study in the collection")
  end)
end)

describe("tb atlas", function()
  -- The shares of the K v K row: from b:probe over every placement.
  local function kvk_shares(rules)
    local tables = cheskers.tb.open(DIR)
    local n, won, drawn, lost = 0, 0, 0, 0
    each_position({ "K", "k" }, rules, function(b)
      local v = b:probe(tables)
      n = n + 1
      if v == "win" then won = won + 1 elseif v == "draw" then drawn = drawn + 1 else lost = lost + 1 end
    end)
    local function pc(x) return ("%.1f%%"):format(100 * x / n) end
    return pc(won), pc(drawn), pc(lost)
  end

  it("--vs puts two rule sets side by side, signature by signature", function()
    local out, code = run_program(("tb atlas --dir %s --vs %s"):format(DIR, FLY))
    assert.are.equal(0, code, out)
    assert.matches("golomb against flying_kings=true, every table with up to 3 pieces", out)
    assert.matches("B %(`flying_kings=true`%): .*flying_kings=true", out)
    local wa, da, la = kvk_shares(nil)
    local wb, db, lb = kvk_shares(FLY_RULES)
    local want = ("| K v K | %s | %s | %s | %s | %s | %s |"):format(wa, wb, da, db, la, lb)
    assert.truthy(out:find(want, 1, true), want .. "\n" .. out)
    local rows = select(2, out:gsub("\n| K", ""))
    assert.are.equal(9, rows)
  end)

  it("gives the share of won positions with one winning move", function()
    local out, code = run_program(("tb atlas --dir %s"):format(DIR))
    assert.are.equal(0, code, out)
    local won, unique = 0, 0
    each_position({ "K", "k" }, nil, function(b)
      if b:probe(T) == "win" then
        won = won + 1
        if #winning(b) == 1 then unique = unique + 1 end
      end
    end)
    local row = out:match("\n(| K v K | [^\n]*)")
    local cells = {}
    for c in row:gmatch("| ([^|]-) ") do cells[#cells + 1] = c end
    assert.are.equal(("%.1f%%"):format(100 * unique / won), cells[6], row)
  end)

  it("--vs is for the atlas only, and a rule set without tables is an error", function()
    local out, code = run_program(("tb probe '8/8/8/8/8/8/8/K1k5 w' --dir %s --vs %s"):format(DIR, FLY))
    assert.are.equal(2, code, out)
    assert.matches("%-%-vs is for tb atlas", out)
    out, code = run_program(("tb atlas --dir %s --vs majority=false"):format(DIR))
    assert.are.equal(2, code, out)
    -- with the command that builds the missing tables: those of --vs's rules
    assert.truthy(out:find(("no tables in %s for the rules majority=false: build them with "
      .. "`cheskers tb build --pieces 4 --rules 'majority=false' --dir %s`"):format(DIR, DIR), 1, true), out)
    out, code = run_program(("tb atlas --dir %s --vs majority=false --pieces 3"):format(DIR))
    assert.are.equal(2, code, out)
    assert.truthy(out:find("`cheskers tb build --pieces 3 --rules 'majority=false' --dir " .. DIR .. "`", 1, true), out)
  end)
end)
