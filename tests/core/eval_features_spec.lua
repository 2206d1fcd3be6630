-- tests/core/eval_features_spec.lua - the evaluation features added for issue 23
-- (free_pawn ... edge, docs/guide/engine.md's weights table), each worked out by
-- hand on positions built for it. A feature is the side to move's count
-- minus the other side's. Squares: docs/reference/rules.md (dark squares only; a
-- pawn's forward cone is every square its steps could reach).
local cheskers = require "cheskers"
local H = require "helpers"

local engine = cheskers.engine

local function pos(pieces, side)
  return H.write_fen({ board = pieces, side = side, quiet = 0, moveno = 1 })
end

local function features(pieces, side)
  return engine.features(cheskers.new(pos(pieces, side)))
end

local NEW = { "free_pawn", "free_advance", "chess_mobility", "king_trapped", "king_danger",
              "advance_end", "trade", "backed", "edge" }

describe("evaluation features", function()
  it("are weights named after the first 15", function()
    local names = engine.names
    assert.equal("tempo", names[15])
    assert.equal(15 + #NEW, #names)
    for i, n in ipairs(NEW) do assert.equal(n, names[15 + i]) end
  end)

  it("are all 0 at the start (the position is symmetric)", function()
    local f = engine.features(cheskers.new())
    for _, n in ipairs(NEW) do assert.equal(0, f[n], n) end
  end)

  -- White: king a1, pawns c5 and g3; Black: king h8, pawn h6; White to move.
  -- 5 pieces of 26: 21 gone.
  local P1 = { a1 = "K", c5 = "P", g3 = "P", h8 = "k", h6 = "p" }

  it("free pawns and their advance", function()
    -- c5's cone (b6 d6, a7 c7 e7, b8 d8 f8) holds no black piece: free,
    -- 4 ranks up. g3's cone (f4 h4 ... d6 f6 h6 ... h8) holds h6 and h8.
    -- h6 going down meets g3 (its cone: g5, f4 h4, e3 g3, ...). White 1 - 0.
    local f = features(P1, "w")
    assert.equal(1, f.free_pawn)
    assert.equal(4, f.free_advance)
    -- seen from Black (to move): the same, negated
    f = features(P1, "b")
    assert.equal(-1, f.free_pawn)
    assert.equal(-4, f.free_advance)
  end)

  it("an enemy king in the cone stops a pawn from being free, an own one does not", function()
    -- A black king on a7 is in c5's cone; a white king there is not an enemy.
    local t = { a1 = "K", c5 = "P", h8 = "k", a7 = "k" }
    assert.equal(0, features(t, "w").free_pawn)
    t.a7 = "K"
    assert.equal(1, features(t, "w").free_pawn)
  end)

  it("endgame scaling: advance times pieces gone / 8; trade: the lead in half pawns", function()
    -- advance: White 4 (c5) + 2 (g3) = 6, Black 2 (h6): 6 * 21 // 8 = 15,
    -- 2 * 21 // 8 = 5: 10. Material in half pawns: White 2 + 2 + 3 = 7,
    -- Black 2 + 3 = 5; (7 - 5) * 21 // 16 = 2.
    local f = features(P1, "w")
    assert.equal(4, f.advance)
    assert.equal(10, f.advance_end)
    assert.equal(2, f.trade)
    f = features(P1, "b")
    assert.equal(-10, f.advance_end)
    assert.equal(-2, f.trade)
    -- a second white king (d2, a piece more: 20 gone): lead 10 - 5 = 5 half
    -- pawns, 5 * 20 // 16 = 6; advance 6 * 20 // 8 = 15 against 2 * 20 // 8 = 5
    local t = { a1 = "K", d2 = "K", c5 = "P", g3 = "P", h8 = "k", h6 = "p" }
    f = features(t, "w")
    assert.equal(6, f.trade)
    assert.equal(10, f.advance_end)
  end)

  it("edge pieces, none trapped, no king in danger", function()
    -- a-file: a1; h-file: h8, h6. No king is hemmed in (b2, g7 empty) and
    -- no enemy piece is within two steps of a king (a1: b2, c1 a3 c3; h8:
    -- g7, f8 f6 h6, h6 being Black's own).
    local f = features(P1, "w")
    assert.equal(1 - 2, f.edge)
    assert.equal(0, f.king_trapped)
    assert.equal(0, f.king_danger)
    assert.equal(0, f.backed)
    assert.equal(0, f.chess_mobility)
  end)

  -- White: bishop a1, king c1, pawns b2 and d2; Black: king e3, camel h8,
  -- pawn h6; Black to move.
  local P2 = { a1 = "B", c1 = "K", b2 = "P", d2 = "P", e3 = "k", h8 = "c", h6 = "p" }

  it("a king hemmed in by pieces is trapped; enemy pieces within two steps are danger", function()
    -- c1's neighbours b2 and d2 are both taken: trapped. e3's d2 is taken,
    -- f2, d4, f4 empty. Within two steps of c1 (b2 d2, a1 a3 c3 e1 e3):
    -- Black's e3, 1. Of e3 (d2 f2 d4 f4, c1 e1 c3 g1 g3 c5 e5 g5): White's
    -- d2 and c1, 2. Black to move: 0 - 1 trapped, 2 - 1 danger.
    local f = features(P2, "b")
    assert.equal(-1, f.king_trapped)
    assert.equal(1, f.king_danger)
  end)

  it("backed pawns, chess mobility, edge and free pawns", function()
    -- b2 has a1 and c1 behind it: backed; d2 has e1 empty; h6 has g7
    -- empty. The camel h8 leaps to g5 and e7 (2 moves); the bishop a1 is
    -- blocked by b2 (0). Edge: Black h8, h6 (2), White a1 (1). b2's cone
    -- (a3 c3, b4 d4, a5 c5 e5, b6 d6 f6, ...) misses e3 and h6: free, 1
    -- rank up; d2's holds e3; h6's holds d2.
    local f = features(P2, "b")
    assert.equal(-1, f.backed)
    assert.equal(2, f.chess_mobility)
    assert.equal(1, f.edge)
    assert.equal(-1, f.free_pawn)
    assert.equal(-1, f.free_advance)
  end)

  it("are antisymmetric: the other side to move negates every one", function()
    local b = cheskers.new()
    math.randomseed(11)
    for _ = 1, 30 do
      local ms = b:moves()
      if #ms == 0 then break end
      b:play(ms[math.random(#ms)])
      local fen = b:fen()
      local other = fen:gsub(" ([wb]) ", function(s) return s == "w" and " b " or " w " end, 1)
      local f, g = engine.features(b), engine.features(cheskers.new(other))
      for _, n in ipairs(NEW) do assert.equal(f[n], -g[n], n .. " in " .. fen) end
    end
  end)

  -- The definitions again, from squares as file and rank numbers rather
  -- than bitboards and tables: the engine must agree on positions of
  -- random games (pieces taken, pawns advanced, kings promoted). All but
  -- chess_mobility (the bishops' and camels' moves, the move generator's:
  -- checked by hand above).
  local function reference(b)
    local at, list = {}, {}
    for name, letter in pairs(b:piece_map()) do
      local x, y = name:byte(1) - 96, tonumber(name:sub(2))
      at[x * 10 + y] = letter
      list[#list + 1] = { x = x, y = y, letter = letter }
    end
    local function on(x, y) return x >= 1 and x <= 8 and y >= 1 and y <= 8 end
    local function white(l) return l == l:upper() end
    local VALUE = { P = 2, K = 3, B = 11, C = 7 }
    local side = { [true] = {}, [false] = {} }
    for _, s in pairs(side) do
      for _, n in ipairs(NEW) do s[n] = 0 end
      s.adv, s.half = 0, 0
    end
    local near = { [true] = {}, [false] = {} }   -- squares within two steps of a king
    local STEPS = { { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } }
    local TWO = { { 2, 2 }, { 2, -2 }, { -2, 2 }, { -2, -2 }, { 2, 0 }, { -2, 0 }, { 0, 2 }, { 0, -2 } }
    for _, p in ipairs(list) do
      local w, kind = white(p.letter), p.letter:upper()
      local s = side[w]
      s.half = s.half + VALUE[kind]
      if p.x == 1 or p.x == 8 then s.edge = s.edge + 1 end
      if kind == "P" then
        local dir = w and 1 or -1
        local a = w and p.y - 1 or 8 - p.y
        s.adv = s.adv + a
        local free = true
        for _, q in ipairs(list) do
          local d = (q.y - p.y) * dir
          if white(q.letter) ~= w and (q.letter:upper() == "P" or q.letter:upper() == "K")
             and d > 0 and math.abs(q.x - p.x) <= d then free = false end
        end
        if free then s.free_pawn, s.free_advance = s.free_pawn + 1, s.free_advance + a end
        local backed = true
        for _, dx in ipairs { -1, 1 } do
          if on(p.x + dx, p.y - dir) and not at[(p.x + dx) * 10 + p.y - dir] then backed = false end
        end
        if backed then s.backed = s.backed + 1 end
      elseif kind == "K" then
        local trapped = true
        for _, d in ipairs(STEPS) do
          local x, y = p.x + d[1], p.y + d[2]
          if on(x, y) then
            near[w][x * 10 + y] = true
            if not at[x * 10 + y] then trapped = false end
          end
        end
        for _, d in ipairs(TWO) do
          if on(p.x + d[1], p.y + d[2]) then near[w][(p.x + d[1]) * 10 + p.y + d[2]] = true end
        end
        if trapped then s.king_trapped = s.king_trapped + 1 end
      end
    end
    for _, p in ipairs(list) do
      local w = white(p.letter)
      if near[not w][p.x * 10 + p.y] then side[not w].king_danger = side[not w].king_danger + 1 end
    end
    local gone = math.max(0, 26 - #list)
    local us, them = side[b:turn() == "white"], side[b:turn() ~= "white"]
    local f = {}
    for _, n in ipairs(NEW) do f[n] = us[n] - them[n] end
    f.advance_end = us.adv * gone // 8 - them.adv * gone // 8
    local lead = (us.half - them.half) * gone
    f.trade = lead >= 0 and lead // 16 or -(-lead // 16)
    return f
  end

  it("agree with their definitions on positions of random games", function()
    math.randomseed(23)
    local seen = 0
    for _ = 1, 40 do
      local b = cheskers.new()
      for _ = 1, 80 do
        local ms = b:moves()
        if #ms == 0 then break end
        b:play(ms[math.random(#ms)])
        local want, got = reference(b), engine.features(b)
        for _, n in ipairs(NEW) do
          if n == "chess_mobility" then want[n] = got[n] end
          assert.equal(want[n], got[n], n .. " in " .. b:fen())
          if want[n] ~= 0 then seen = seen + 1 end
        end
      end
    end
    assert.is_true(seen > 1000, "non-zero features seen: " .. seen)
  end)
end)
