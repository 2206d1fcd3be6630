-- tests/core/property_spec.lua - properties that must hold in every position of
-- random games under every rule option (issue 7):
--   make/undo restores the position and its hash;
--   the hash equals the hash of the same position read afresh from its FEN;
--   perft equals the sum of divide, and perft(1) the number of moves;
--   legal moves are unique (by start, end, captured set, promotion);
--   each move's text reads back to the same move;
--   the board turned half round with the colours swapped has exactly the
--   turned moves.
-- The games are random but reproducible (the seed is in every message).
--
-- The half turn: square (file, rank) -> (7 - file, 7 - rank). It keeps dark
-- squares dark (file + rank even stays even), where a mirror in the ranks
-- alone would not; with the colours swapped, White's pawns moving up become
-- Black's pawns moving down, so the rules see the same game. `first` is
-- swapped too (it only changes the move numbers and the start position).
local cheskers = require "cheskers"

local SEED = tonumber(os.getenv("CHESKERS_PROPERTY_SEED") or "") or 20261130
local GAMES = tonumber(os.getenv("CHESKERS_PROPERTY_GAMES") or "") or 3
local PLIES = 70

-- One row per rule option value (docs/reference/rules.md "Rule options"), a few mixes,
-- and the variant extensions (extra and redefined piece kinds).
local RULESETS = {
  { name = "golomb" },
  { name = "majority=false", rules = { majority = false } },
  { name = "capture=jumps", rules = { capture = "jumps" } },
  { name = "capture=all", rules = { capture = "all" } },
  { name = "capture=optional", rules = { capture = "optional" } },
  { name = "promote=K", rules = { promote = "K" } },
  { name = "promote=BC", rules = { promote = "BC" } },
  { name = "first=white", rules = { first = "white" } },
  { name = "flying_kings", rules = { flying_kings = true } },
  { name = "pawns_capture_backward", rules = { pawns_capture_backward = true } },
  { name = "draw_repetition=2", rules = { draw_repetition = 2 } },
  { name = "draw_quiet_plies=6", rules = { draw_quiet_plies = 6 } },
  { name = "flying, backward, majority=false, capture=jumps",
    rules = { flying_kings = true, pawns_capture_backward = true, majority = false,
              capture = "jumps" } },
  { name = "flying, capture=all, promote=KC, first=white",
    rules = { flying_kings = true, capture = "all", promote = "KC", first = "white" } },
  { name = "pieces: jumping N, riding W, promote=KNW",
    rules = { pieces = { N = { leaps = { { 2, 2 } }, capture = "jump" },
                         W = { rides = { { 2, 0 } } } },
              promote = "KNW" } },
  { name = "pieces: camel rides, bishop compulsory",
    rules = { pieces = { C = { rides = { { 1, 3 } } },
                         B = { rides = { { 1, 1 } }, compulsory = true } } } },
  -- A kind whose vectors reach the same square two ways (a ride {1,1} and a
  -- leap {3,3} or a ride {2,2}) must still list each move once (a bug the
  -- fuzzer found: tests/fuzz/crashes/rules-dup-leap-ride-*).
  { name = "pieces: overlapping vectors (bishop leaps {3,3}, camel rides {2,2} too)",
    rules = { pieces = { B = { rides = { { 1, 1 } }, leaps = { { 3, 3 } } },
                         C = { leaps = { { 1, 3 } }, rides = { { 1, 1 }, { 2, 2 } } } } } },
}

-- ---- the half turn ------------------------------------------------------------

local FILES = "abcdefgh"

local function turn_square(sq)
  local f, r = sq:byte(1) - 97, sq:byte(2) - 49
  return FILES:sub(8 - f, 8 - f) .. tostring(8 - r)
end

-- The FEN of the position turned half round, colours and side swapped.
local function turn_fen(fen)
  local placement, side, rest = fen:match("^(%S+) ([wb])(.*)$")
  local rows = {}
  for row in placement:gmatch("[^/]+") do
    -- each rank reversed (files mirror), case swapped (colours)
    local cells = {}
    for c in row:gmatch(".") do
      if c:match("%d") then
        cells[#cells + 1] = c
      elseif c:match("%u") then
        cells[#cells + 1] = c:lower()
      else
        cells[#cells + 1] = c:upper()
      end
    end
    local rev = {}
    for i = #cells, 1, -1 do rev[#rev + 1] = cells[i] end
    table.insert(rows, 1, table.concat(rev))   -- ranks mirror: 8 <-> 1
  end
  return table.concat(rows, "/") .. " " .. (side == "w" and "b" or "w") .. rest
end

local function turned_rules(rules)
  local t = {}
  for k, v in pairs(rules or {}) do t[k] = v end
  t.first = (t.first == "white") and "black" or "white"
  return t
end

-- ---- move identity -------------------------------------------------------------

local function key(from, to, captures, promotion)
  local caps = {}
  for i, sq in ipairs(captures) do caps[i] = sq end
  table.sort(caps)
  return from .. "-" .. to .. ":" .. table.concat(caps, ",") .. "=" .. (promotion or "")
end

local function move_key(m) return key(m.from, m.to, m.captures, m.promotion) end

local function turned_key(m)
  local caps = {}
  for i, sq in ipairs(m.captures) do caps[i] = turn_square(sq) end
  return key(turn_square(m.from), turn_square(m.to), caps, m.promotion)
end

-- ---- the checks ------------------------------------------------------------------

-- Checks every property in board b (whose rules are `rules`); returns nil, or
-- a message. Leaves b as it was.
local function check_position(b, rules, deep)
  local fen, hash = b:fen(), b:hash()
  local moves = b:moves()
  if b:count() ~= #moves then
    return ("count() %d but %d moves"):format(b:count(), #moves)
  end
  if (#moves == 0) ~= (b:result() ~= nil) then
    return ("%d moves but result %s"):format(#moves, tostring(b:result()))
  end

  -- the hash of the same position read afresh
  local fresh = cheskers.new(fen, rules)
  if fresh:hash() ~= hash then
    return ("hash %d, afresh from the FEN %d"):format(hash, fresh:hash())
  end
  if fresh:fen() ~= fen then return "FEN does not read back: " .. fresh:fen() end

  local seen, texts = {}, {}
  for _, m in ipairs(moves) do
    local k, text = move_key(m), tostring(m)
    if seen[k] then return "move listed twice: " .. text end
    seen[k] = true
    if texts[text] then return "two moves written " .. text end
    texts[text] = true
    local back, err = b:parse(text)
    if not back then return "own text " .. text .. " refused: " .. tostring(err) end
    if back ~= m then return "text " .. text .. " reads back as " .. tostring(back) end
    b:play(m)
    local undone = b:undo()
    if b:fen() ~= fen or b:hash() ~= hash then
      return ("play/undo %s: %s -> %s"):format(text, fen, b:fen())
    end
    if undone ~= m then return "undo returned " .. tostring(undone) .. " for " .. text end
  end

  if deep then
    local p1 = b:perft(1)
    if p1 ~= #moves then return ("perft(1) %d, %d moves"):format(p1, #moves) end
    for depth = 2, 3 do
      local total, sum = b:perft(depth), 0
      local div = b:divide(depth)
      local n = 0
      for text, c in pairs(div) do
        if not texts[text] then return "divide lists " .. text .. ", not a legal move" end
        sum, n = sum + c, n + 1
      end
      if sum ~= total or n ~= #moves then
        return ("perft(%d) %d, divide sums to %d over %d moves (%d legal)")
          :format(depth, total, sum, n, #moves)
      end
    end
    if b:fen() ~= fen or b:hash() ~= hash then return "perft/divide changed the board" end
  end

  -- the half turn, colours swapped: the turned moves exactly
  local tb = cheskers.new(turn_fen(fen), turned_rules(rules))
  local want = {}
  for _, m in ipairs(fresh:moves()) do want[turned_key(m)] = tostring(m) end
  local have = {}
  for _, m in ipairs(tb:moves()) do
    local k = move_key(m)
    if not want[k] then
      return ("turned board %s has %s, not a turned move"):format(tb:fen(), tostring(m))
    end
    have[k] = true
  end
  for k, text in pairs(want) do
    if not have[k] then
      return ("turned board %s lacks the turn of %s"):format(tb:fen(), text)
    end
  end
  if turn_fen(tb:fen()) ~= fen then return "turning twice does not give the position back" end
  return nil
end

describe("properties over random games", function()
  it("the half turn helper is right", function()
    assert.equal("h8", turn_square("a1"))
    assert.equal("a1", turn_square("h8"))
    assert.equal("f6", turn_square("c3"))
    -- the start position is symmetric under the half turn with colours swapped
    assert.equal(cheskers.START:gsub(" b ", " w "), turn_fen(cheskers.START))
    local fen = "7k/2p1p3/1P6/8/8/8/8/6K1 w 0 1"
    assert.equal(fen, turn_fen(turn_fen(fen)))
  end)

  for i, set in ipairs(RULESETS) do
    it("hold under " .. set.name, function()
      math.randomseed(SEED + i)
      local positions = 0
      for game = 1, GAMES do
        local b = cheskers.new(nil, set.rules)
        for ply = 0, PLIES do
          local where = ("seed %d, game %d, ply %d, %s"):format(SEED + i, game, ply, b:fen())
          local ok, err = pcall(check_position, b, set.rules, ply % 10 == 0)
          if not ok or err then error(where .. ": " .. tostring(err), 0) end
          positions = positions + 1
          local moves = b:moves()
          if #moves == 0 then break end
          b:play(moves[math.random(#moves)])
        end
        -- undoing the whole game gives the start back, hash included
        local last_fen = b:fen()
        local n = #b:history()
        while b:undo() do n = n - 1 end
        local start = cheskers.new(nil, set.rules)
        assert(n == 0 and b:fen() == start:fen() and b:hash() == start:hash(),
               "undoing the game from " .. last_fen .. " does not give the start back")
      end
      assert.is_true(positions > 10)
    end)
  end
end)
