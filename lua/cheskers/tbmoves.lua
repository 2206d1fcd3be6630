-- cheskers.tbmoves: every legal move's value by the endgame tablebases,
-- best first, and its wording ("win in 15", "draw", "loss in 8", "not
-- covered"): the REPL's `tb` and the analysis board of cheskers serve.
--
--   tbmoves.list(b, t) -> { {move =, text =, value =, distance =}, ... }
--       best first for the mover: wins (fastest first), draws, losses
--       (slowest first), moves no table covers; then by text; or nil,
--       message (b:tb_moves's failure)
--   tbmoves.value_text(e) -> "win in 15" | "draw" | "loss in 8" | "not covered"

local tbmoves = {}

local function rank(e)
  if e.value == "win" then return 0, e.distance end
  if e.value == "draw" then return 1, 0 end
  if e.value == "loss" then return 2, -e.distance end
  return 3, 0
end

local function better(a, b)
  local ra, da = rank(a)
  local rb, db = rank(b)
  if ra ~= rb then return ra < rb end
  if da ~= db then return da < db end
  return a.text < b.text
end

function tbmoves.value_text(e)
  if e.value == "draw" then return "draw" end
  if e.value then return string.format("%s in %d", e.value, e.distance) end
  return "not covered"
end

function tbmoves.list(b, t)
  local list, err = b:tb_moves(t)
  if not list then return nil, err end
  for _, e in ipairs(list) do e.text = tostring(e.move) end
  table.sort(list, better)
  return list
end

return tbmoves
