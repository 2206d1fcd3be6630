-- tests/variant_ref.lua - a slow, plain reference move generator for rule
-- variants, written from docs/reference/rules.md and docs/reference/lua_api.md (never from
-- the core): pawns, kings (short or flying), pawns capturing backward, the
-- majority rule, capture = "mixed", and piece kinds defined by leap and ride
-- vectors with capture style take or jump and the compulsory flag.
--
--   ref.moves(position, rules) -> set of move keys (helpers.key form)
-- position: { board = {square = letter}, side = "w"/"b" } (helpers.parse_fen)
-- rules: a rule table (majority, flying_kings, pawns_capture_backward,
-- promote, pieces); capture must be "mixed" (the default).
local H = require "helpers"

local ref = {}

local DEFAULT_KINDS = {
  B = { rides = { { 1, 1 } }, capture = "take" },
  C = { leaps = { { 1, 3 } }, capture = "take" },
}

-- The 8 symmetries of each vector, without duplicates.
local function expand(list)
  local out, seen = {}, {}
  for _, v in ipairs(list or {}) do
    local a, b = v[1], v[2]
    for _, s in ipairs({ { a, b }, { -a, b }, { a, -b }, { -a, -b },
                         { b, a }, { -b, a }, { b, -a }, { -b, -a } }) do
      local k = s[1] .. "," .. s[2]
      if not seen[k] then seen[k] = true; out[#out + 1] = s end
    end
  end
  return out
end

-- How each piece letter moves: {leaps = dirs, rides = dirs, jump = bool,
-- compulsory = bool}; pawns are handled apart.
local function kinds_of(rules)
  local defs = {}
  for l, d in pairs(DEFAULT_KINDS) do defs[l] = d end
  for l, d in pairs(rules.pieces or {}) do defs[l] = d end
  local kinds = {}
  for l, d in pairs(defs) do
    local jump = d.capture == "jump"
    local compulsory = d.compulsory
    if compulsory == nil then compulsory = jump end
    kinds[l] = { leaps = expand(d.leaps), rides = expand(d.rides), jump = jump, compulsory = compulsory }
  end
  local diag = expand({ { 1, 1 } })
  if rules.flying_kings then
    kinds.K = { leaps = {}, rides = diag, jump = true, compulsory = true }
  else
    kinds.K = { leaps = diag, rides = {}, jump = true, compulsory = true }
  end
  return kinds
end

local function at(f, r) return H.name(f, r) end

function ref.moves(pos, rules)
  rules = rules or {}
  local board, white = pos.board, pos.side == "w"
  local kinds = kinds_of(rules)
  local promote = rules.promote or "KBC"
  local majority = rules.majority ~= false

  local function mine(p) return p ~= nil and ((p == p:upper()) == white) end
  local function enemy(p) return p ~= nil and not mine(p) end

  -- a side without kings has lost: no moves
  local kings = { w = 0, b = 0 }
  for _, p in pairs(board) do
    if p == "K" then kings.w = kings.w + 1 elseif p == "k" then kings.b = kings.b + 1 end
  end
  if kings.w == 0 or kings.b == 0 then return {} end

  local last_rank = white and 7 or 0
  local forward = white and 1 or -1
  local jumps, takes, quiet = {}, {}, {}
  local function add(list, from, to, caps, promo, compulsory)
    local key = H.key(from, to, caps, promo)
    list[key] = list[key] or { count = #caps, compulsory = compulsory }
  end

  for sq, p in pairs(board) do
    if mine(p) then
      local L = p:upper()
      local f0, r0 = H.coords(sq)
      if L == "P" then
        -- steps
        for _, df in ipairs({ -1, 1 }) do
          local t = at(f0 + df, r0 + forward)
          if t and not board[t] then
            if r0 + forward == last_rank then
              for c in promote:gmatch(".") do add(quiet, sq, t, {}, c, false) end
            else
              add(quiet, sq, t, {}, nil, false)
            end
          end
        end
      end
      -- jump chains (pawns, and jump-style kinds)
      local k = kinds[L]
      if L == "P" or k.jump then
        local dirs = {}
        if L == "P" then
          for _, df in ipairs({ -1, 1 }) do
            dirs[#dirs + 1] = { df, forward, false }
            if rules.pawns_capture_backward then dirs[#dirs + 1] = { df, -forward, false } end
          end
        else
          for _, d in ipairs(k.leaps) do dirs[#dirs + 1] = { d[1], d[2], false } end
          for _, d in ipairs(k.rides) do dirs[#dirs + 1] = { d[1], d[2], true } end
        end
        local captured = {}
        local function occupied(s) return s ~= sq and board[s] ~= nil end
        local function chain(s, caps)
          local more = false
          local f, r = H.coords(s)
          for _, d in ipairs(dirs) do
            local over, landings
            if not d[3] then
              over = at(f + d[1], r + d[2])
              local land = at(f + 2 * d[1], r + 2 * d[2])
              if over and land and not occupied(land) then landings = { land } end
            else
              local i = 1
              while at(f + i * d[1], r + i * d[2]) and not occupied(at(f + i * d[1], r + i * d[2])) do
                i = i + 1
              end
              over = at(f + i * d[1], r + i * d[2])
              landings = {}
              local j = i + 1
              while at(f + j * d[1], r + j * d[2]) and not occupied(at(f + j * d[1], r + j * d[2])) do
                landings[#landings + 1] = at(f + j * d[1], r + j * d[2])
                j = j + 1
              end
            end
            if over and landings and #landings > 0 and occupied(over) and enemy(board[over])
               and not captured[over] then
              for _, land in ipairs(landings) do
                more = true
                captured[over] = true
                caps[#caps + 1] = over
                local _, lr = H.coords(land)
                if L == "P" and lr == last_rank then
                  for c in promote:gmatch(".") do add(jumps, sq, land, caps, c, true) end
                else
                  chain(land, caps)
                end
                caps[#caps] = nil
                captured[over] = nil
              end
            end
          end
          if not more and #caps > 0 then add(jumps, sq, s, caps, nil, L == "P" or k.compulsory) end
        end
        chain(sq, {})
      end
      if L ~= "P" then
        -- leaps, rides, takes
        for _, d in ipairs(k.leaps) do
          local t = at(f0 + d[1], r0 + d[2])
          if t then
            if not board[t] then add(quiet, sq, t, {}, nil, false)
            elseif enemy(board[t]) and not k.jump then add(takes, sq, t, { t }, nil, k.compulsory) end
          end
        end
        for _, d in ipairs(k.rides) do
          local i = 1
          while true do
            local t = at(f0 + i * d[1], r0 + i * d[2])
            if not t then break end
            if board[t] then
              if enemy(board[t]) and not k.jump then add(takes, sq, t, { t }, nil, k.compulsory) end
              break
            end
            add(quiet, sq, t, {}, nil, false)
            i = i + 1
          end
        end
      end
    end
  end

  -- the capture rule (mixed): any compulsory capture restricts the moves to
  -- captures; the majority rule then keeps the longest compulsory jumps
  local must, max = false, 0
  for _, list in ipairs({ jumps, takes }) do
    for _, m in pairs(list) do
      if m.compulsory then must = true end
    end
  end
  for _, m in pairs(jumps) do
    if m.compulsory and m.count > max then max = m.count end
  end
  local out = {}
  for key, m in pairs(jumps) do
    if not (must and majority and m.compulsory and m.count < max) then out[key] = true end
  end
  for key in pairs(takes) do out[key] = true end
  if not must then
    for key in pairs(quiet) do out[key] = true end
  end
  return out
end

return ref
