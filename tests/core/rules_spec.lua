-- tests/core/rules_spec.lua - hand-built positions for what the conformance file
-- cannot show: the majority rule and the capture options, promotion, chains
-- that stop on promotion or come back to their start, flying kings, backward
-- pawn captures, the end of the game, draws, move text, FEN, make/undo, hash,
-- copy, rule options. Every expected value comes from docs/reference/rules.md.
--
-- Positions are written as FEN by hand; each one carries a comment with its
-- pieces, and the first test checks every FEN with our own reader (only dark
-- squares, each rank adds up to 8).
local cheskers = require "cheskers"
local H = require "helpers"

local START = "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b 0 1"

-- ---- positions ----------------------------------------------------------------

local P = {
  -- W: Kg1 Ce1 Bh4 Pa3 Pc3; B: kh8 kb4 pd4 pf6. White jumps: a3xc5 (b4),
  -- c3xa5 (b4), c3xe5xg7 (d4 f6); takes: Ce1xd4, Bh4xf6; quiet: Kg1-f2/h2,
  -- Ce1-f4/b2/h2, Bh4-g5/g3/f2.
  majority = "7k/8/5p2/8/1k1p3B/P1P5/8/4C1K1 w 0 1",
  -- W: Kg1 Ce1; B: kh8 pd4. Only a take (Ce1xd4), no jump.
  lone_take = "7k/8/8/8/3p4/8/8/4C1K1 w 0 1",
  -- W: Kg1 Ba1; B: kb8 pf6. Only a bishop take (a1xf6).
  lone_bishop_take = "1k6/8/5p2/8/8/8/8/B5K1 w 0 1",
  -- W: Kg1 Pc3; B: kh8 pd4 pf6. One jump chain c3xe5xg7.
  one_chain = "7k/8/5p2/8/3p4/2P5/8/6K1 w 0 1",
  -- W: Kg1 Pa7; B: kh8. a7-b8 promotes.
  promotion = "7k/P7/8/8/8/8/8/6K1 w 0 1",
  -- W: Kg1 Pb6; B: kh8 pc7 pe7. b6xd8 ends there; a king on d8 could jump e7.
  promo_stop_white = "7k/2p1p3/1P6/8/8/8/8/6K1 w 0 1",
  -- B: kd8 pg3; W: Ka3 Pd2 Pf2. g3xe1 ends there; a king on e1 could jump d2.
  promo_stop_black = "3k4/8/8/8/8/K5p1/3P1P2/8 b 0 1",
  -- W: Kd4; B: kb8 pe5 bg5 cg3 pe3. The king jumps the ring and comes back:
  -- d4xf6xh4xf2xd4 and d4xf2xh4xf6xd4 are the same move.
  ring = "1k6/8/8/4p1b1/3K4/4p1c1/8/8 w 0 1",
  -- W: Kc3; B: kh8 pb4 pd2 pd4 pf2 pf4. The king jumps the ring d4 f4 f2 d2
  -- back to c3 and must go on over b4 to a5; c3xa5 over b4 alone also ends
  -- on a5.
  ring_exit = "7k/8/8/8/1p1p1p2/2K5/3p1p2/8 w 0 1",
  -- W: Kg1 Pc3; B: kh8 pb4 pb6 pd4 pd6. Two chains c3 -> c7 with
  -- different captured sets: two moves.
  two_routes = "7k/8/1p1p4/8/1p1p4/2P5/8/6K1 w 0 1",
  -- W: Ka1; B: kb8. A lone king on the long diagonal.
  long_diagonal = "1k6/8/8/8/8/8/8/K7 w 0 1",
  -- W: Kb2; B: ka7 pe5 pe7. Flying: b2 jumps e5 from afar, lands f6 g7 h8;
  -- from f6 it must go on over e7 to d8.
  flying_chain = "8/k3p3/8/4p3/8/8/1K6/8 w 0 1",
  -- W: Ka1; B: ka3 pb4 pc3 pg3 pg5. Flying: a1xc3 lands d4..h8; from e5 on
  -- over g3 to h2; from f6 over g5 to h4, over g3 to f2 or e1. From e1 the
  -- captured c3 still stands on d2-c3-b4 and blocks the way to b4.
  flying_block = "8/8/8/6p1/1p6/k1p3p1/8/K7 w 0 1",
  -- W: Kc3; B: ka3 pb4 pe5 pg3 pg5. Flying: c3xe5, on over g5 to h4, over
  -- g3 to e1, then back across its own start square c3 (empty) over b4 to a5.
  -- c3xa5 (b4 only) also exists: two moves from c3 to a5.
  flying_start = "8/8/8/4p1p1/1p6/k1K3p1/8/8 w 0 1",
  -- W: Kg1 Pd4; B: kh8 pc3. Backward jump d4xb2 only with the option.
  backward_white = "7k/8/8/8/3P4/2p5/8/6K1 w 0 1",
  -- B: kb8 pe5; W: Kg1 Pf6. Backward jump e5xg7 only with the option.
  backward_black = "1k6/8/5P2/4p3/8/8/8/6K1 b 0 1",
  -- W: Kg1 Pd4; B: kh8. Nothing to jump: pawns step forward only.
  pawn_steps = "7k/8/8/8/3P4/8/8/6K1 w 0 1",
}

-- ---- legal move sets ------------------------------------------------------------

local ALL_A = { "c3-g7:d4,f6", "a3-c5:b4", "c3-a5:b4", "e1-d4:d4", "h4-f6:f6" }
local function concat(...)
  local out = {}
  for _, t in ipairs({ ... }) do for _, v in ipairs(t) do out[#out + 1] = v end end
  return out
end

-- name, fen (nil: start position of the rules), rules, expected moves
-- ("from-to:captured,squares=promotion", as in the conformance file).
local LEGAL = {
  { "majority: the 2-capture chain beats 1-capture jumps (a king counts one); takes stay",
    P.majority, nil, { "c3-g7:d4,f6", "e1-d4:d4", "h4-f6:f6" } },
  { "majority = false: every complete chain and every take",
    P.majority, { majority = false }, ALL_A },
  { "capture = jumps: takes disappear when a jump exists",
    P.majority, { capture = "jumps" }, { "c3-g7:d4,f6" } },
  { "capture = jumps, majority = false",
    P.majority, { capture = "jumps", majority = false }, { "c3-g7:d4,f6", "a3-c5:b4", "c3-a5:b4" } },
  { "capture = all, majority = false: every capture, no quiet move",
    P.majority, { capture = "all", majority = false }, ALL_A },
  { "capture = optional, majority = false: quiet moves beside the captures",
    P.majority, { capture = "optional", majority = false }, concat(ALL_A,
      { "g1-f2", "g1-h2", "e1-f4", "e1-b2", "e1-h2", "h4-g5", "h4-g3", "h4-f2" }) },
  { "mixed: a take is never compulsory by itself",
    P.lone_take, nil, { "e1-d4:d4", "e1-f4", "e1-b2", "e1-h2", "g1-f2", "g1-h2" } },
  { "capture = jumps: a take is never compulsory",
    P.lone_take, { capture = "jumps" }, { "e1-d4:d4", "e1-f4", "e1-b2", "e1-h2", "g1-f2", "g1-h2" } },
  { "capture = optional: a take is never compulsory",
    P.lone_take, { capture = "optional" }, { "e1-d4:d4", "e1-f4", "e1-b2", "e1-h2", "g1-f2", "g1-h2" } },
  { "capture = all: a lone camel take is compulsory",
    P.lone_take, { capture = "all" }, { "e1-d4:d4" } },
  { "mixed: a bishop take is not compulsory",
    P.lone_bishop_take, nil, { "a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6:f6", "g1-f2", "g1-h2" } },
  { "capture = all: a lone bishop take is compulsory",
    P.lone_bishop_take, { capture = "all" }, { "a1-f6:f6" } },
  { "a jump is compulsory and the chain runs to its end",
    P.one_chain, nil, { "c3-g7:d4,f6" } },
  { "capture = optional: quiet moves allowed, but a begun chain still runs to its end",
    P.one_chain, { capture = "optional" }, { "c3-g7:d4,f6", "c3-b4", "g1-f2", "g1-h2" } },
  { "promotion: three moves, =K =B =C",
    P.promotion, nil, { "a7-b8=K", "a7-b8=B", "a7-b8=C", "g1-f2", "g1-h2" } },
  { "promote = K: one promotion move",
    P.promotion, { promote = "K" }, { "a7-b8=K", "g1-f2", "g1-h2" } },
  { "promote = BC: no king",
    P.promotion, { promote = "BC" }, { "a7-b8=B", "a7-b8=C", "g1-f2", "g1-h2" } },
  { "promote = C: only the camel",
    P.promotion, { promote = "C" }, { "a7-b8=C", "g1-f2", "g1-h2" } },
  { "a white pawn's chain ends on rank 8 though a king could jump on",
    P.promo_stop_white, nil, { "b6-d8:c7=K", "b6-d8:c7=B", "b6-d8:c7=C" } },
  { "... also with majority = false",
    P.promo_stop_white, { majority = false }, { "b6-d8:c7=K", "b6-d8:c7=B", "b6-d8:c7=C" } },
  { "... also when pawns may capture backward",
    P.promo_stop_white, { pawns_capture_backward = true }, { "b6-d8:c7=K", "b6-d8:c7=B", "b6-d8:c7=C" } },
  { "... with promote = K",
    P.promo_stop_white, { promote = "K" }, { "b6-d8:c7=K" } },
  { "a black pawn's chain ends on rank 1 though a king could jump on",
    P.promo_stop_black, nil, { "g3-e1:f2=K", "g3-e1:f2=B", "g3-e1:f2=C" } },
  { "... also when pawns may capture backward",
    P.promo_stop_black, { pawns_capture_backward = true }, { "g3-e1:f2=K", "g3-e1:f2=B", "g3-e1:f2=C" } },
  { "a king chain comes back to its start; both routes are one move",
    P.ring, nil, { "d4-d4:e3,e5,g3,g5" } },
  { "... the same with majority = false",
    P.ring, { majority = false }, { "d4-d4:e3,e5,g3,g5" } },
  { "a king chain passes its start square and goes on (majority)",
    P.ring_exit, nil, { "c3-a5:b4,d2,d4,f2,f4" } },
  { "a king chain passes its start square and goes on (majority = false)",
    P.ring_exit, { majority = false }, { "c3-a5:b4,d2,d4,f2,f4", "c3-a5:b4" } },
  { "same start and end, different captured sets: two moves",
    P.two_routes, nil, { "c3-c7:b4,b6", "c3-c7:d4,d6" } },
  { "kings step one square without flying_kings",
    P.long_diagonal, nil, { "a1-b2" } },
  { "flying kings move any distance",
    P.long_diagonal, { flying_kings = true },
    { "a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6", "a1-g7", "a1-h8" } },
  { "no jump from afar without flying_kings",
    P.flying_chain, nil, { "b2-a1", "b2-c1", "b2-a3", "b2-c3" } },
  { "flying kings: a long jump that must go on, majority",
    P.flying_chain, { flying_kings = true }, { "b2-d8:e5,e7" } },
  { "flying kings: any landing beyond, majority = false",
    P.flying_chain, { flying_kings = true, majority = false }, { "b2-d8:e5,e7", "b2-g7:e5", "b2-h8:e5" } },
  { "flying kings: captured pieces block until the chain ends (majority)",
    P.flying_block, { flying_kings = true }, { "a1-f2:c3,g3,g5", "a1-e1:c3,g3,g5" } },
  { "flying kings: captured pieces block until the chain ends (majority = false)",
    P.flying_block, { flying_kings = true, majority = false },
    { "a1-d4:c3", "a1-g7:c3", "a1-h8:c3", "a1-h2:c3,g3", "a1-f2:c3,g3,g5", "a1-e1:c3,g3,g5" } },
  { "flying kings: the start square counts as empty (majority)",
    P.flying_start, { flying_kings = true }, { "c3-a5:b4,e5,g3,g5" } },
  { "flying kings: the start square counts as empty (majority = false)",
    P.flying_start, { flying_kings = true, majority = false },
    { "c3-a5:b4,e5,g3,g5", "c3-f2:e5,g3,g5", "c3-g7:e5", "c3-h8:e5", "c3-a5:b4" } },
  { "without flying kings: one short jump",
    P.flying_start, nil, { "c3-a5:b4" } },
  { "without flying kings the same king just steps",
    P.flying_block, nil, { "a1-b2" } },
  { "pawns do not capture backward by default (white)",
    P.backward_white, nil, { "d4-c5", "d4-e5", "g1-f2", "g1-h2" } },
  { "pawns_capture_backward: a white pawn jumps backward",
    P.backward_white, { pawns_capture_backward = true }, { "d4-b2:c3" } },
  { "pawns do not capture backward by default (black)",
    P.backward_black, nil, { "e5-d4", "e5-f4", "b8-a7", "b8-c7" } },
  { "pawns_capture_backward: a black pawn jumps backward",
    P.backward_black, { pawns_capture_backward = true }, { "e5-g7:f6" } },
  { "pawns_capture_backward: pawns still step forward only",
    P.pawn_steps, { pawns_capture_backward = true }, { "d4-c5", "d4-e5", "g1-f2", "g1-h2" } },
  { "start position: Black moves first",
    nil, nil, { "h6-g5", "f6-g5", "f6-e5", "d6-e5", "d6-c5", "b6-c5", "b6-a5", "b8-c5", "b8-a5" } },
  { "first = white: White moves first from the start position",
    nil, { first = "white" }, { "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4", "g1-f4", "g1-h4" } },
}

local function board(fen, rules)
  return cheskers.new(fen, rules)
end

describe("test data", function()
  it("every hand-written FEN is well formed and canonical", function()
    local fens = { START }
    for _, f in pairs(P) do fens[#fens + 1] = f end
    for _, f in ipairs(fens) do
      local p, err = H.parse_fen(f)
      assert(p, f .. ": " .. tostring(err))
      assert.are.equal(f, H.write_fen(p))
    end
  end)

  -- Two readings of docs/reference/rules.md, by hand and by the reference generator of
  -- helpers.lua, must agree before either is used to judge the program.
  it("the reference generator gives every hand-written move list", function()
    for _, row in ipairs(LEGAL) do
      local name, fen, rules, expected = row[1], row[2], row[3], row[4]
      if not fen then
        fen = (rules and rules.first == "white") and START:gsub(" b ", " w ") or START
      end
      local keys = H.reference_moves(H.parse_fen(fen), rules)
      local want = {}
      for i, k in ipairs(expected) do want[i] = H.norm_key(k) end
      table.sort(want)
      assert.are.same(want, keys, name)
    end
  end)

  it("the reference generator agrees with the conformance file", function()
    local failures = {}
    for _, row in ipairs(H.load_conformance()) do
      local keys = H.reference_moves(H.parse_fen(H.full_fen(row.fen)), { majority = false })
      local want = {}
      for i, k in ipairs(row.moves) do want[i] = H.norm_key(k) end
      table.sort(want)
      if table.concat(want, " ") ~= table.concat(keys, " ") then
        failures[#failures + 1] = row.fen .. ": file " .. table.concat(want, " ") ..
          "; reference " .. table.concat(keys, " ")
      end
    end
    assert(#failures == 0, table.concat(failures, "\n", 1, math.min(#failures, 10)))
  end)
end)

describe("legal moves", function()
  for _, row in ipairs(LEGAL) do
    local name, fen, rules, expected = row[1], row[2], row[3], row[4]
    it(name, function()
      local b = board(fen, rules)
      local ok, report = H.compare_moves(b:moves(), expected)
      assert(ok, ("%s rules %s: %s"):format(fen or "start", H.rules_text(rules), tostring(report)))
      assert.are.equal(#expected, b:count())
    end)
  end
end)

-- ---- the start position and who moves first ----------------------------------

describe("start position", function()
  it("START is the docs/reference/rules.md text and new() sets it up", function()
    assert.are.equal(START, cheskers.START)
    local b = cheskers.new()
    assert.are.equal(START, b:fen())
    assert.are.equal("black", b:turn())
    assert.are.equal(1, b:moveno())
    assert.are.equal(0, b:quiet())
  end)

  it("first = white: White to move from the start position", function()
    local b = cheskers.new(nil, { first = "white" })
    assert.are.equal("white", b:turn())
    assert.are.equal(START:gsub(" b ", " w "), b:fen())
  end)

  it("SQUARES lists the 32 dark squares in index order", function()
    assert.are.same(H.SQUARES, cheskers.SQUARES)
  end)

  -- The move number starts at 1 and goes up after each move of the side that
  -- did not move first.
  local MOVENO = {
    { rules = nil, moves = { "b6-a5", "a3-b4", "h6-g5" }, after = { 1, 2, 2 } },
    { rules = { first = "white" }, moves = { "a3-b4", "b6-a5", "g3-h4" }, after = { 1, 2, 2 } },
  }
  for _, row in ipairs(MOVENO) do
    it("move number, rules " .. H.rules_text(row.rules), function()
      local b = cheskers.new(nil, row.rules)
      for i, mv in ipairs(row.moves) do
        b:play(mv)
        assert.are.equal(row.after[i], b:moveno(), "after " .. mv)
      end
    end)
  end
end)

-- ---- move text -----------------------------------------------------------------

-- Exact texts of b:moves(), in order (moves are sorted by their text).
local TEXTS = {
  { nil, nil, { "b6-a5", "b6-c5", "b8-a5", "b8-c5", "d6-c5", "d6-e5", "f6-e5", "f6-g5", "h6-g5" } },
  { P.majority, nil, { "c3xe5xg7", "e1xd4", "h4xf6" } },
  { P.lone_bishop_take, nil, { "a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1xf6", "g1-f2", "g1-h2" } },
  { P.promotion, nil, { "a7-b8=B", "a7-b8=C", "a7-b8=K", "g1-f2", "g1-h2" } },
  { P.promo_stop_white, nil, { "b6xd8=B", "b6xd8=C", "b6xd8=K" } },
  { P.two_routes, nil, { "c3xa5xc7", "c3xe5xc7" } },
  { P.backward_white, { pawns_capture_backward = true }, { "d4xb2" } },
  { P.flying_chain, { flying_kings = true, majority = false }, { "b2xf6xd8", "b2xg7", "b2xh8" } },
  { P.flying_block, { flying_kings = true, majority = false },
    { "a1xd4", "a1xe5xh2", "a1xf6xh4xe1", "a1xf6xh4xf2", "a1xg7", "a1xh8" } },
  { P.flying_start, { flying_kings = true, majority = false },
    { "c3xa5", "c3xf6xh4xe1xa5", "c3xf6xh4xf2", "c3xg7", "c3xh8" } },
}

-- A custom kind J (docs/reference/rules.md, rule experiments) that jumps like a king
-- but orthogonally, over the piece two squares away, landing four away.
-- W: Ja1 Kh2; B: kg7 kc5 ka3 ke3 kc1. J jumps the square a1 e1 e5 a5 back to
-- a1, either way round: one move. (Not in P: its letter J is not standard.)
local JUMPER_J = { pieces = { J = { leaps = { { 2, 0 } }, capture = "jump", compulsory = true } } }
local CUSTOM_RING = "8/6k1/8/2k5/8/k3k3/7K/J1k5 w 0 1"

-- Inputs b:parse must accept (expected move as a key) or refuse (false, and
-- strings the message must contain: the candidates).
local PARSE = {
  { nil, nil, "b6-a5", "b6-a5" },
  { nil, nil, "Pb6-a5", "b6-a5" },
  { nil, nil, "b8-c5", "b8-c5" },
  { nil, nil, "Cb8-c5", "b8-c5" },
  { P.majority, nil, "c3xe5xg7", "c3-g7:d4,f6" },
  { P.majority, nil, "c3xg7", "c3-g7:d4,f6" },
  { P.majority, nil, "Pc3xg7", "c3-g7:d4,f6" },
  { P.majority, nil, "c3-g7", "c3-g7:d4,f6" },
  { P.majority, nil, "c3-e5-g7", "c3-g7:d4,f6" },
  { P.majority, nil, "e1xd4", "e1-d4:d4" },
  { P.majority, nil, "e1-d4", "e1-d4:d4" },
  { P.majority, nil, "Ce1xd4", "e1-d4:d4" },
  { P.majority, nil, "h4xf6", "h4-f6:f6" },
  { P.majority, nil, "Bh4-f6", "h4-f6:f6" },
  { P.promotion, nil, "a7-b8=B", "a7-b8=B" },
  { P.promotion, nil, "Pa7-b8=C", "a7-b8=C" },
  { P.promo_stop_white, nil, "b6xd8=C", "b6-d8:c7=C" },
  { P.promo_stop_white, nil, "b6-d8=K", "b6-d8:c7=K" },
  { P.two_routes, nil, "c3xa5xc7", "c3-c7:b4,b6" },
  { P.two_routes, nil, "c3xe5xc7", "c3-c7:d4,d6" },
  { P.two_routes, nil, "c3-e5-c7", "c3-c7:d4,d6" },
  { P.ring, nil, "d4xf6xh4xf2xd4", "d4-d4:e3,e5,g3,g5" },
  { P.ring, nil, "d4xf2xh4xf6xd4", "d4-d4:e3,e5,g3,g5" },
  { P.ring, nil, "d4xd4", "d4-d4:e3,e5,g3,g5" },
  { CUSTOM_RING, JUMPER_J, "a1xe1xe5xa5xa1", "a1-a1:a3,c1,c5,e3" },
  { CUSTOM_RING, JUMPER_J, "a1xa5xe5xe1xa1", "a1-a1:a3,c1,c5,e3" },
  { CUSTOM_RING, JUMPER_J, "a1xa1", "a1-a1:a3,c1,c5,e3" },
  { P.long_diagonal, { flying_kings = true }, "a1-h8", "a1-h8" },
  { P.long_diagonal, { flying_kings = true }, "Ka1-e5", "a1-e5" },
  { P.flying_block, { flying_kings = true, majority = false }, "a1xf2", "a1-f2:c3,g3,g5" },
  { P.flying_block, { flying_kings = true, majority = false }, "a1-d4", "a1-d4:c3" },
  -- the full text of a one-jump chain, though a longer chain also runs c3 -> a5
  { P.flying_start, { flying_kings = true, majority = false }, "c3xa5", "c3-a5:b4" },
  { P.flying_start, { flying_kings = true, majority = false }, "c3xf6xh4xe1xa5", "c3-a5:b4,e5,g3,g5" },
  { P.flying_start, { flying_kings = true }, "c3xa5", "c3-a5:b4,e5,g3,g5" },
  { P.ring_exit, { majority = false }, "c3xa5", "c3-a5:b4" },
  { P.ring_exit, { majority = false }, "c3xe5xg3xe1xc3xa5", "c3-a5:b4,d2,d4,f2,f4" },
  { P.ring_exit, { majority = false }, "c3xe1xg3xe5xc3xa5", "c3-a5:b4,d2,d4,f2,f4" },
  { P.ring_exit, nil, "c3xa5", "c3-a5:b4,d2,d4,f2,f4" },
  -- refused
  { P.two_routes, nil, "c3xc7", false, { "c3xa5xc7", "c3xe5xc7" } },
  { P.two_routes, nil, "c3-c7", false, { "c3xa5xc7", "c3xe5xc7" } },
  { P.promotion, nil, "a7-b8", false, { "a7-b8=K", "a7-b8=B", "a7-b8=C" } },
  { P.flying_block, { flying_kings = true, majority = false }, "a1xe5", false },
  -- landings no J jump joins (a1 to c3 is a king's jump, not J's)
  { CUSTOM_RING, JUMPER_J, "a1xc3xe5xa5xa1", false, { "a1x" } },
  { P.majority, nil, "a3xc5", false },      -- legal only without the majority rule
  { P.majority, nil, "c3-b4", false },      -- a quiet move where a capture is due
  { P.majority, nil, "g1-f2", false },
  { nil, nil, "a1-h8", false },
  { nil, nil, "b6-b5", false },
  { nil, nil, "Kb6-a5", false },            -- b6 holds a pawn
  { nil, nil, "b6-a5=K", false },           -- no promotion there
  { nil, nil, "", false },
  { nil, nil, "hello", false },
  { nil, nil, "i9-j10", false },
}

describe("move text", function()
  for _, row in ipairs(TEXTS) do
    local fen, rules, texts = row[1], row[2], row[3]
    it(("prints %s"):format(table.concat(texts, " ")), function()
      local b = board(fen, rules)
      assert.are.same(texts, H.texts(b:moves()))
    end)
  end

  it("prints the ring either way round", function()
    local ms = board(P.ring):moves()
    assert.are.equal(1, #ms)
    local t = tostring(ms[1])
    assert.is_true(t == "d4xf6xh4xf2xd4" or t == "d4xf2xh4xf6xd4", "ring printed as " .. t)
    assert.are.equal("d4", ms[1].from)
    assert.are.equal("d4", ms[1].to)
    assert.are.equal(4, #ms[1].path)
    assert.are.equal(4, #ms[1].captures)
    assert.are.equal("K", ms[1].piece)
    assert.is_true(ms[1].jump)
  end)

  for _, row in ipairs(PARSE) do
    local fen, rules, input, want, needles = row[1], row[2], row[3], row[4], row[5]
    local what = want and ("reads %q as %s"):format(input, want) or ("refuses %q"):format(input)
    it(what .. " in " .. (fen or "start") .. " " .. H.rules_text(rules), function()
      local b = board(fen, rules)
      local m, msg = b:parse(input)
      if want then
        assert(m, ("parse(%q) failed: %s"):format(input, tostring(msg)))
        assert.are.equal(H.norm_key(want), H.move_key(m))
        -- the same input plays
        local c = b:copy()
        assert.are.equal(m, c:play(input))
      else
        assert.is_nil(m, ("parse(%q) accepted %s"):format(input, tostring(m)))
        assert.are.equal("string", type(msg))
        assert.is_true(#msg > 0)
        for _, s in ipairs(needles or {}) do
          assert.is_truthy(msg:find(s, 1, true), ("message %q does not list %s"):format(msg, s))
        end
        local ok = pcall(b.play, b, input)
        assert.is_false(ok, "play accepted " .. input)
      end
    end)
  end

  -- docs/reference/rules.md texts from the move fields.
  local function expected_text(m)
    local s
    if m.jump then
      s = m.from
      for _, sq in ipairs(m.path) do s = s .. "x" .. sq end
    elseif m.take then
      s = m.from .. "x" .. m.to
    else
      s = m.from .. "-" .. m.to
    end
    return s .. (m.promotion and ("=" .. m.promotion) or "")
  end

  -- Every legal move prints as docs/reference/rules.md says and reads back to itself.
  local function check_round_trip(b, where, failures)
    for _, m in ipairs(b:moves()) do
      local t = tostring(m)
      if t ~= expected_text(m) then
        failures[#failures + 1] = ("%s: %s printed as %s"):format(where, expected_text(m), t)
      end
      local back, msg = b:parse(t)
      if not back then
        failures[#failures + 1] = ("%s: parse(%q) failed: %s"):format(where, t, tostring(msg))
      elseif back ~= m or H.move_key(back) ~= H.move_key(m) then
        failures[#failures + 1] = ("%s: parse(%q) gave %s"):format(where, t, tostring(back))
      end
    end
  end

  it("every legal move reads back to itself (hand-built positions)", function()
    local failures = {}
    for _, row in ipairs(LEGAL) do
      check_round_trip(board(row[2], row[3]), (row[2] or "start") .. " " .. H.rules_text(row[3]), failures)
    end
    assert(#failures == 0, table.concat(failures, "\n"))
  end)

  it("every legal move reads back to itself (conformance positions)", function()
    local failures = {}
    for _, row in ipairs(H.load_conformance()) do
      check_round_trip(board(H.full_fen(row.fen), { majority = false }), row.fen, failures)
      if #failures > 20 then break end
    end
    assert(#failures == 0, table.concat(failures, "\n"))
  end)

  it("play takes a move object or text and returns the move; history lists them", function()
    local b = cheskers.new()
    local m = b:moves()[1]
    assert.are.equal(m, b:play(m))
    local m2 = b:play("a3-b4")
    assert.are.equal("a3-b4", tostring(m2))
    local h = b:history()
    assert.are.equal(2, #h)
    assert.are.equal(m, h[1])
    assert.are.equal(m2, h[2])
    assert.are.equal(m2, b:undo())
    assert.are.equal(m, b:undo())
    assert.is_nil(b:undo())
    assert.are.equal(START, b:fen())
  end)
end)

-- ---- end of the game -------------------------------------------------------------

-- fen, rules, moves to play, expected winner and reason (nil: game goes on).
local ENDS = {
  { "a pawn jumps Black's last king", "8/8/7p/8/3k4/2P5/8/6K1 w 0 1", nil, { "c3xe5" }, "white", "kings" },
  { "a camel takes Black's last king", "8/8/7p/8/3k4/8/8/4C1K1 w 0 1", nil, { "e1xd4" }, "white", "kings" },
  { "a black pawn jumps White's last king", "7k/8/8/4p3/3K4/P7/8/8 b 0 1", nil, { "e5xc3" }, "black", "kings" },
  { "Black to move without a king has lost", "8/8/7p/8/8/2P5/8/6K1 b 0 1", nil, {}, "white", "kings" },
  { "a king left, the game goes on", "8/8/7p/8/3k4/2P5/8/6K1 w 0 1", nil, {}, nil, nil },
  { "Black stalemated by a pawn step loses", "7k/8/5P1P/8/8/8/8/6K1 w 0 1", nil, { "h6-g7" }, "white", "stalemate" },
  { "Black with no legal move loses", "7k/6P1/5P2/8/8/8/8/6K1 b 0 1", nil, {}, "white", "stalemate" },
  { "White with no legal move loses", "7k/8/8/8/8/2p5/1p6/K7 w 0 1", nil, {}, "black", "stalemate" },
}

describe("end of the game", function()
  for _, row in ipairs(ENDS) do
    local name, fen, rules, seq, winner, reason = table.unpack(row, 1, 6)
    it(name, function()
      assert(H.parse_fen(fen), "bad test FEN " .. fen)
      local b = board(fen, rules)
      if #seq > 0 then
        assert.is_nil(b:result(), "the game is over before the moves")
      end
      H.play_all(b, seq)
      local w, r = b:result()
      assert.are.equal(winner, w)
      assert.are.equal(reason, r)
      if winner then
        assert.are.same({}, b:moves())
        assert.are.equal(0, b:count())
        assert.are.equal(0, b:perft(1))
      else
        assert.is_true(b:count() > 0)
      end
      if #seq > 0 then
        b:undo()
        assert.is_nil(b:result(), "undo does not reopen the game")
        assert.is_true(b:count() > 0)
      end
    end)
  end
end)

-- ---- draws -------------------------------------------------------------------------

-- W: Kg1; B: kb8. Kings shuffle g1-h2-g1, b8-a7-b8: the start position comes
-- back after plies 4 and 8 (2nd and 3rd occurrence).
local SHUFFLE_FEN = "1k6/8/8/8/8/8/8/6K1 w 0 1"
local SHUFFLE = { "g1-h2", "b8-a7", "h2-g1", "a7-b8", "g1-h2", "b8-a7", "h2-g1", "a7-b8" }

-- fen, rules, moves, result after each ply (false: goes on; else "reason"),
-- and b:quiet() after each ply when given.
local DRAWS = {
  { "draw_repetition = 3: the third occurrence", SHUFFLE_FEN, { draw_repetition = 3 }, SHUFFLE,
    { false, false, false, false, false, false, false, "repetition" } },
  { "draw_repetition = 2: the second occurrence", SHUFFLE_FEN, { draw_repetition = 2 }, SHUFFLE,
    { false, false, false, "repetition" } },
  { "no draw by repetition by default", SHUFFLE_FEN, nil, SHUFFLE,
    { false, false, false, false, false, false, false, false } },
  -- W: Kg1 Pa3; B: kb8. The pawn move resets the count.
  { "draw_quiet_plies = 4: a pawn move resets the count", "1k6/8/8/8/8/P7/8/6K1 w 0 1",
    { draw_quiet_plies = 4 }, { "g1-h2", "b8-c7", "a3-b4", "c7-b8", "h2-g1", "b8-c7", "g1-h2" },
    { false, false, false, false, false, false, "quiet" }, { 1, 2, 0, 1, 2, 3, 4 } },
  { "draw_quiet_plies counts from the FEN's counter", "1k6/8/8/8/8/8/8/6K1 w 2 1",
    { draw_quiet_plies = 4 }, { "g1-h2", "b8-a7" }, { false, "quiet" }, { 3, 4 } },
  { "no quiet draw by default", "1k6/8/8/8/8/8/8/6K1 w 97 1", nil, SHUFFLE,
    { false, false, false, false, false, false, false, false }, { 98, 99, 100, 101, 102, 103, 104, 105 } },
  -- W: Kg1 Ce1; B: kh8 pd4. A capture resets the count.
  { "a capture resets the quiet count", "7k/8/8/8/3p4/8/8/4C1K1 w 5 1",
    { draw_quiet_plies = 7 }, { "e1xd4", "h8-g7" }, { false, false }, { 0, 1 } },
}

describe("draws", function()
  for _, row in ipairs(DRAWS) do
    local name, fen, rules, seq, results, quiet = table.unpack(row, 1, 6)
    it(name, function()
      local b = board(fen, rules)
      assert.is_nil(b:result())
      for i = 1, #results do
        local mv = seq[i]
        b:play(mv)
        local w, r = b:result()
        if results[i] then
          assert.are.equal("draw", w, "after ply " .. i .. " " .. mv)
          assert.are.equal(results[i], r, "after ply " .. i .. " " .. mv)
          assert.are.equal(0, b:count(), "a finished game has no moves")
          assert.are.same({}, b:moves())
        else
          assert.is_nil(w, ("after ply %d %s: %s %s"):format(i, mv, tostring(w), tostring(r)))
        end
        if quiet then assert.are.equal(quiet[i], b:quiet(), "quiet after ply " .. i) end
      end
      -- taking the last move back reopens the game
      if results[#results] then
        b:undo()
        assert.is_nil(b:result())
        assert.is_true(b:count() > 0)
      end
    end)
  end
end)

-- ---- FEN -------------------------------------------------------------------------------

-- Bad positions: each error names its fault (any one of the strings given,
-- case-insensitive).
local BAD_FEN = {
  { "3k4/8/8/8/8/8/8/1K6 w 0 1", "piece on light square b1", { "light" } },
  { "3k4/8/8/8/2k5/8/8/4K3 w 0 1", "piece on light square c4", { "light" } },
  { "3k3/8/8/8/8/8/8/4K3 w 0 1", "rank 8 adds up to 7", { "rank" } },
  { "3k4/8/8/8/8/8/8/4K4 w 0 1", "rank 1 adds up to 9", { "rank" } },
  { "3k4/8/8/8/8/8/8/4Q3 w 0 1", "unknown letter Q", { "q" } },
  { "3k4/8/8/8/8/8/8/4K2x w 0 1", "unknown letter x", { "x" } },
  { "1P1k4/8/8/8/8/8/8/4K3 w 0 1", "white pawn on rank 8", { "b8", "promot" } },
  { "3k4/8/8/8/8/8/8/p3K3 w 0 1", "black pawn on rank 1", { "a1", "promot" } },
  { "3k4/8/8/8/8/8/8/4K3 x 0 1", "bad side to move", {} },
  { "3k4/8/8/8/8/8/4K3 w 0 1", "seven ranks", {} },
  { "hello", "not a position", {} },
  { "", "empty", {} },
}

describe("FEN", function()
  for _, row in ipairs(BAD_FEN) do
    local fen, fault, needles = row[1], row[2], row[3]
    it(("refuses %q (%s)"):format(fen, fault), function()
      local ok, err = pcall(cheskers.new, fen)
      assert.is_false(ok, "accepted " .. fen)
      err = tostring(err):lower()
      if #needles > 0 then
        local found = false
        for _, s in ipairs(needles) do found = found or err:find(s, 1, true) ~= nil end
        assert.is_true(found, ("error %q does not name the fault (%s)"):format(err, fault))
      end
    end)
  end

  local ROUND = {
    START,
    START:gsub(" b ", " w "),
    "1k6/8/8/8/8/8/8/6K1 w 5 17",
    "3k4/8/8/8/8/K5p1/3P1P2/8 b 12 40",
  }
  for _, f in pairs(P) do ROUND[#ROUND + 1] = f end

  it("reads and writes positions unchanged (hand-written and conformance)", function()
    local list = {}
    for _, f in ipairs(ROUND) do list[#list + 1] = f end
    for _, row in ipairs(H.load_conformance()) do list[#list + 1] = H.full_fen(row.fen) end
    local failures = {}
    for _, f in ipairs(list) do
      local p = assert(H.parse_fen(f), "bad test FEN " .. f)
      local b = cheskers.new(f)
      local canon = H.write_fen(p)
      if b:fen() ~= canon then
        failures[#failures + 1] = ("%s -> %s"):format(f, b:fen())
      end
      for _, sq in ipairs(H.SQUARES) do
        if b:get(sq) ~= p.board[sq] then
          failures[#failures + 1] = ("%s: get(%s) = %s, expected %s"):format(f, sq,
            tostring(b:get(sq)), tostring(p.board[sq]))
        end
      end
      if b:turn() ~= (p.side == "w" and "white" or "black") then
        failures[#failures + 1] = f .. ": turn " .. b:turn()
      end
      if b:quiet() ~= p.quiet or b:moveno() ~= p.moveno then
        failures[#failures + 1] = ("%s: quiet %s moveno %s"):format(f, b:quiet(), b:moveno())
      end
      if #failures > 20 then break end
    end
    assert(#failures == 0, table.concat(failures, "\n"))
  end)

  it("the counters are optional: 0 and 1", function()
    local b = cheskers.new("1k6/8/8/8/8/8/8/6K1 w")
    assert.are.equal("1k6/8/8/8/8/8/8/6K1 w 0 1", b:fen())
    assert.are.equal(0, b:quiet())
    assert.are.equal(1, b:moveno())
  end)

  it("play and undo keep the pieces where docs/reference/rules.md puts them", function()
    -- the ring: the king is back on d4, the four pieces are gone
    local b = board(P.ring)
    b:play(b:moves()[1])
    assert.are.equal("1k6/8/8/8/3K4/8/8/8 b 0 2", b:fen())  -- White did not move first: 2
    b:undo()
    assert.are.equal(P.ring, b:fen())
    -- a promotion puts the chosen piece on the last rank
    b = board(P.promo_stop_white)
    b:play("b6xd8=C")
    assert.are.equal("C", b:get("d8"))
    assert.is_nil(b:get("c7"))
    assert.is_nil(b:get("b6"))
    assert.are.equal("p", b:get("e7"))
    -- a take replaces the piece
    b = board(P.lone_take)
    b:play("e1xd4")
    assert.are.equal("C", b:get("d4"))
    assert.is_nil(b:get("e1"))
  end)
end)

-- ---- random games: reference moves, make/undo, hash -----------------------------

-- Rule sets for random games. `oracle`: compare every position with the
-- reference generator (left out where docs/reference/rules.md leaves a choice open:
-- capture "all"/"optional" with the majority rule, and draws).
local GAME_RULES = {
  { rules = nil, oracle = true },
  { rules = { majority = false }, oracle = true },
  { rules = { capture = "jumps" }, oracle = true },
  { rules = { capture = "jumps", majority = false }, oracle = true },
  { rules = { capture = "all", majority = false }, oracle = true },
  { rules = { capture = "optional", majority = false }, oracle = true },
  { rules = { capture = "all" }, oracle = false },
  { rules = { capture = "optional" }, oracle = false },
  { rules = { flying_kings = true }, oracle = true },
  { rules = { flying_kings = true, majority = false }, oracle = true },
  { rules = { pawns_capture_backward = true }, oracle = true },
  { rules = { pawns_capture_backward = true, flying_kings = true, majority = false }, oracle = true },
  { rules = { promote = "K" }, oracle = true },
  { rules = { promote = "BC" }, oracle = true },
  { rules = { first = "white" }, oracle = true },
  { rules = { draw_repetition = 3, draw_quiet_plies = 20 }, oracle = false },
}
local GAMES, MAX_PLIES, SEED = 4, 150, 20240601

-- Checks one position and returns a list of faults (strings).
local function check_position(b, rules, use_oracle)
  local faults = {}
  local fen = b:fen()
  local p, err = H.parse_fen(fen)
  if not p then return { "fen() wrote an unreadable position " .. fen .. ": " .. err } end
  local moves = b:moves()
  local w, reason = b:result()
  if (#moves == 0) ~= (w ~= nil) then
    faults[#faults + 1] = ("%s: %d moves but result %s %s"):format(fen, #moves, tostring(w), tostring(reason))
  end
  if b:count() ~= #moves then
    faults[#faults + 1] = ("%s: count() %d, #moves() %d"):format(fen, b:count(), #moves)
  end
  if reason == "stalemate" and w == b:turn() then
    faults[#faults + 1] = fen .. ": the stalemated side to move wins"
  end
  if reason == "kings" then
    local loser = w == "white" and "k" or "K"
    for _, c in pairs(p.board) do
      if c == loser then faults[#faults + 1] = fen .. ": lost by kings with a king left" break end
    end
  end
  if use_oracle and reason ~= "repetition" and reason ~= "quiet" then
    local ok, report = H.compare_moves(moves, H.reference_moves(p, rules))
    if not ok then faults[#faults + 1] = ("%s %s: %s"):format(fen, H.rules_text(rules), report) end
  end
  for _, m in ipairs(moves) do
    local back, msg = b:parse(tostring(m))
    if back ~= m then
      faults[#faults + 1] = ("%s %s: parse(%q) gave %s"):format(fen, H.rules_text(rules),
        tostring(m), tostring(back or msg))
    end
  end
  if b:hash() ~= cheskers.new(fen, rules):hash() then
    faults[#faults + 1] = fen .. ": hash differs from the hash of the same position read from its FEN"
  end
  return faults, moves
end

-- Checks the board after m was played (pieces moved, removed, promoted).
local function check_played(before, b, m)
  local mover = before.board[m.from]
  local white = mover:upper() == mover
  local want = m.promotion or mover:upper()
  if not white then want = want:lower() end
  local faults = {}
  if b:get(m.to) ~= want then
    faults[#faults + 1] = ("%s: %s on %s after the move, expected %s"):format(tostring(m), tostring(b:get(m.to)), m.to, want)
  end
  if m.from ~= m.to and b:get(m.from) ~= nil then
    faults[#faults + 1] = tostring(m) .. ": start square not empty"
  end
  for _, sq in ipairs(m.captures) do
    if sq ~= m.to and b:get(sq) ~= nil then
      faults[#faults + 1] = tostring(m) .. ": captured piece left on " .. sq
    end
  end
  if m.promotion and mover:upper() ~= "P" then
    faults[#faults + 1] = tostring(m) .. ": promotion of a " .. mover
  end
  return faults
end

-- A random move, avoiding the capture of a king when there is another move,
-- so that games last long enough to see kings, promotions and long chains.
local function pick(b, moves)
  local calm = {}
  for _, m in ipairs(moves) do
    local king = false
    for _, sq in ipairs(m.captures) do
      local c = b:get(sq)
      if c == "K" or c == "k" then king = true end
    end
    if not king then calm[#calm + 1] = m end
  end
  if #calm == 0 then calm = moves end
  return calm[math.random(#calm)]
end

describe("random games", function()
  for gi, g in ipairs(GAME_RULES) do
    it(("agree with docs/reference/rules.md; make/undo restore fen and hash: rules %s"):format(H.rules_text(g.rules)), function()
      math.randomseed(SEED + gi)
      local faults = {}
      local function fail(list)
        for _, f in ipairs(list) do faults[#faults + 1] = f end
      end
      for _ = 1, GAMES do
        local b = cheskers.new(nil, g.rules)
        local start_fen, start_hash = b:fen(), b:hash()
        local trail = {}   -- {fen, hash, move}
        for _ = 1, MAX_PLIES do
          local f, moves = check_position(b, g.rules, g.oracle)
          fail(f)
          if #moves == 0 or #faults > 0 then break end
          local m = pick(b, moves)
          local before = H.parse_fen(b:fen())
          trail[#trail + 1] = { b:fen(), b:hash(), m }
          local played = b:play(m)
          if played ~= m then fail({ "play returned " .. tostring(played) .. " for " .. tostring(m) }) end
          fail(check_played(before, b, m))
        end
        if #b:history() ~= #trail then
          fail({ ("history has %d moves, %d played"):format(#b:history(), #trail) })
        end
        for i = #trail, 1, -1 do
          local u = b:undo()
          local fen, hash, m = trail[i][1], trail[i][2], trail[i][3]
          if u ~= m then fail({ ("undo %d returned %s, expected %s"):format(i, tostring(u), tostring(m)) }) end
          if b:fen() ~= fen then fail({ ("undo %d: fen %s, expected %s"):format(i, b:fen(), fen) }) end
          if b:hash() ~= hash then fail({ ("undo %d: hash differs at %s"):format(i, fen) }) end
          if #faults > 0 then break end
        end
        if #faults == 0 then
          assert.are.equal(start_fen, b:fen())
          assert.are.equal(start_hash, b:hash())
          assert.is_nil(b:undo())
        end
        if #faults > 0 then break end
      end
      assert(#faults == 0, table.concat(faults, "\n", 1, math.min(#faults, 10)))
    end)
  end
end)

local POSITIONS, DENSITY = 100, 0.45

describe("random positions", function()
  for gi, g in ipairs(GAME_RULES) do
    if g.oracle then
      it(("agree with docs/reference/rules.md; every move played and taken back: rules %s"):format(H.rules_text(g.rules)), function()
        math.randomseed(SEED * 3 + gi)
        local faults = {}
        for _ = 1, POSITIONS do
          local fen = H.random_position(DENSITY)
          local b = cheskers.new(fen, g.rules)
          local f, moves = check_position(b, g.rules, true)
          for _, x in ipairs(f) do faults[#faults + 1] = x end
          local before, hash = H.parse_fen(b:fen()), b:hash()
          for _, m in ipairs(moves) do
            b:play(m)
            for _, x in ipairs(check_played(before, b, m)) do faults[#faults + 1] = fen .. ": " .. x end
            if b:hash() ~= cheskers.new(b:fen(), g.rules):hash() then
              faults[#faults + 1] = fen .. ": after " .. tostring(m) .. " the hash differs from a fresh board's"
            end
            b:undo()
            if b:fen() ~= fen or b:hash() ~= hash then
              faults[#faults + 1] = fen .. ": undo of " .. tostring(m) .. " gave " .. b:fen()
            end
          end
          if #faults > 10 then break end
        end
        assert(#faults == 0, table.concat(faults, "\n", 1, math.min(#faults, 10)))
      end)
    end
  end
end)

-- ---- hash and copy ---------------------------------------------------------------

describe("hash", function()
  it("is equal for the same position reached by different move orders", function()
    local a = H.play_all(cheskers.new(), { "h6-g5", "a3-b4", "b6-a5", "g3-h4" })
    local b = H.play_all(cheskers.new(), { "b6-a5", "g3-h4", "h6-g5", "a3-b4" })
    assert.are.equal(a:fen(), b:fen())
    assert.are.equal(a:hash(), b:hash())
    assert.are_not.equal(cheskers.new():hash(), a:hash())
  end)

  it("is equal for king moves in either order", function()
    -- W: Kc1 Ke1; B: kd8 kf8 (quiet counters differ from the pawn case)
    local fen = "3k1k2/8/8/8/8/8/8/2K1K3 w 0 1"
    local a = H.play_all(cheskers.new(fen), { "c1-b2", "d8-c7", "e1-f2", "f8-g7" })
    local b = H.play_all(cheskers.new(fen), { "e1-f2", "f8-g7", "c1-b2", "d8-c7" })
    assert.are.equal(a:fen(), b:fen())
    assert.are.equal(a:hash(), b:hash())
  end)

  it("depends on the side to move, not on the counters", function()
    local w = cheskers.new("1k6/8/8/8/8/8/8/6K1 w 0 1")
    assert.are_not.equal(w:hash(), cheskers.new("1k6/8/8/8/8/8/8/6K1 b 0 1"):hash())
    assert.are.equal(w:hash(), cheskers.new("1k6/8/8/8/8/8/8/6K1 w 9 30"):hash())
    assert.are.equal("integer", math.type(w:hash()))
  end)

  it("tells pieces apart", function()
    -- the same square holding each piece in turn
    local seen = {}
    for _, c in ipairs({ "K", "B", "C", "k", "b", "c", "P", "p" }) do
      local fen = ("1k6/8/8/8/3%s4/8/8/6K1 w 0 1"):format(c)
      local h = cheskers.new(fen):hash()
      assert.is_nil(seen[h], "same hash for two positions: " .. fen)
      seen[h] = true
    end
  end)
end)

describe("copy", function()
  it("makes an independent board with the same position, rules and history", function()
    local b = cheskers.new(nil, { majority = false, draw_repetition = 4 })
    H.play_all(b, { "b6-a5", "a3-b4" })
    local c = b:copy()
    assert.are.equal(b:fen(), c:fen())
    assert.are.equal(b:hash(), c:hash())
    assert.are.same(b:rules(), c:rules())
    assert.are.same(H.texts(b:history()), H.texts(c:history()))
    c:play(c:moves()[1])
    assert.are_not.equal(b:fen(), c:fen())
    assert.are.equal(2, #b:history())
    assert.are.equal(3, #c:history())
    -- undo on the copy goes back through the shared history
    c:undo(); c:undo(); c:undo()
    assert.are.equal(START, c:fen())
    assert.are_not.equal(START, b:fen())
    b:undo()
    assert.are.equal(1, #b:history())
    assert.are.equal(0, #c:history())
  end)
end)

-- ---- rule options ------------------------------------------------------------------

local DEFAULTS = {
  majority = true, capture = "mixed", promote = "KBC", first = "black",
  flying_kings = false, pawns_capture_backward = false,
  draw_repetition = 0, draw_quiet_plies = 0,
}

-- rule spec, the name the error must mention
local BAD_RULES = {
  { { foo = true }, "foo" },
  { { majority = "yes" }, "majority" },
  { { majority = 1 }, "majority" },
  { { capture = "some" }, "capture" },
  { { capture = true }, "capture" },
  { { promote = "" }, "promote" },
  { { promote = "KQ" }, "promote" },
  { { promote = "P" }, "promote" },
  { { first = "red" }, "first" },
  { { flying_kings = 1 }, "flying_kings" },
  { { pawns_capture_backward = "no" }, "pawns_capture_backward" },
  { { draw_repetition = 1 }, "draw_repetition" },
  { { draw_repetition = -2 }, "draw_repetition" },
  { { draw_repetition = 2.5 }, "draw_repetition" },
  { { draw_quiet_plies = -1 }, "draw_quiet_plies" },
  { { draw_quiet_plies = 1.5 }, "draw_quiet_plies" },
  { "nosuchpreset", "nosuchpreset" },
}

local GOOD_RULES = {
  { nil, {} },
  { "golomb", {} },
  { {}, {} },
  { { majority = false }, { majority = false } },
  { { capture = "jumps" }, { capture = "jumps" } },
  { { capture = "all" }, { capture = "all" } },
  { { capture = "optional" }, { capture = "optional" } },
  { { promote = "K" }, { promote = "K" } },
  { { first = "white" }, { first = "white" } },
  { { flying_kings = true, pawns_capture_backward = true }, { flying_kings = true, pawns_capture_backward = true } },
  { { draw_repetition = 2, draw_quiet_plies = 50 }, { draw_repetition = 2, draw_quiet_plies = 50 } },
  { { draw_repetition = 0, draw_quiet_plies = 0 }, {} },
}

describe("rule options", function()
  for _, row in ipairs(BAD_RULES) do
    local spec, name = row[1], row[2]
    it("refuses " .. H.rules_text(spec), function()
      for _, call in ipairs({
        function() return cheskers.new(nil, spec) end,
        function() return cheskers.rules(spec) end,
      }) do
        local ok, err = pcall(call)
        assert.is_false(ok, "accepted " .. H.rules_text(spec))
        assert.is_truthy(tostring(err):find(name, 1, true),
          ("error %q does not name %s"):format(tostring(err), name))
      end
    end)
  end

  for _, row in ipairs(GOOD_RULES) do
    local spec, changed = row[1], row[2]
    it("accepts " .. H.rules_text(spec) .. " and fills in the defaults", function()
      local want = {}
      for k, v in pairs(DEFAULTS) do want[k] = v end
      for k, v in pairs(changed) do want[k] = v end
      local got = cheskers.rules(spec)
      for k, v in pairs(want) do assert.are.equal(v, got[k], k) end
      local b = cheskers.new(nil, spec)
      local got2 = b:rules()
      for k, v in pairs(want) do assert.are.equal(v, got2[k], k) end
    end)
  end

  it("b:rules() recreates the same rules", function()
    local spec = { majority = false, capture = "jumps", promote = "BC", flying_kings = true }
    local b = cheskers.new(P.majority, spec)
    local c = cheskers.new(P.majority, b:rules())
    assert.are.same(H.texts(b:moves()), H.texts(c:moves()))
    assert.are.equal(b:perft(3), c:perft(3))
  end)
end)
