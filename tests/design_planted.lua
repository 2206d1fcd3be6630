-- tests/design_planted.lua - the planted-truth checks of design search
-- (issue 33; docs/notes/findings.md, "Design search"), shared by
-- tests/library/design_spec.lua (small budgets, make test) and `make design-check`
-- (larger ones, make check-all), which runs this file:
--   ./cheskers tests/design_planted.lua [large]
-- prints each check's numbers and exits 1 when one fails. The truths are
-- planted by construction: candidates that play the same game (A/A),
-- Bernoulli games of a known rate at a target's bound, White or Black
-- without a bishop; never taken from the program's output.
local cheskers = require "cheskers"
local design = require "cheskers.design"

local P = {}

P.START = cheskers.START
-- White without its bishop (a1), Black without its bishop (h8)
P.NO_WHITE_BISHOP = "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/2K1K1C1 b 0 1"
P.NO_BLACK_BISHOP = "1c1k1k2/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b 0 1"

function P.design(t)
  local d = { name = "t", players = { bots = "builtin-greedy" }, max_plies = 80, random_plies = 2,
              racing = { round = 20, looks = 4, alpha = 0.05 } }
  for k, v in pairs(t) do d[k] = v end
  return design.normalize(d)
end

-- P(X >= k) for X ~ Binomial(n, p), each term in logarithms (the binomial
-- coefficients of 2000 seeds overflow a double).
function P.binomial_tail(n, p, k)
  local sum = 0
  for x = k, n do
    local logc = 0
    for i = 1, x do logc = logc + math.log((n - x + i) / i) end
    sum = sum + math.exp(logc + x * math.log(p) + (n - x) * math.log(1 - p))
  end
  return sum
end

-- The largest count of seeds with a false claim that is not unlikely (1%)
-- when each seed errs with probability alpha: more would refute the bound.
function P.tolerance(n, alpha)
  local c = 0
  while P.binomial_tail(n, alpha, c + 1) > 0.01 do c = c + 1 end
  return c
end

-- Racing on Bernoulli games of draw rate p (4 candidates, a known truth).
local function bernoulli(p, target, seed, racing)
  local d = P.design { seed = seed, space = { majority = { true, false }, pawns_capture_backward = { true, false } },
                       targets = { target }, racing = racing }
  local rng = seed * 7919
  local function draw()
    rng = (rng * 1103515245 + 12345) % 2147483648
    return rng / 2147483648
  end
  local games = {}
  return design.run(d, { play = function(c, n)
    games[c.label] = games[c.label] or {}
    local list = games[c.label]
    while #list < n do
      list[#list + 1] = { result = draw() < p and "draw" or "white", first = "black", plies = 40 }
    end
    return { table.unpack(list, 1, n) }
  end })
end

-- Over seeds: in how many did racing reject a candidate whose draw rate is
-- exactly at the bound (at_least 0.30, truth 0.30), and in how many did it
-- claim "meets" for a rate just below (truth 0.29)? Both are false claims.
function P.known_rates(seeds, racing)
  racing = racing or { round = 50, looks = 6, alpha = 0.05 }
  local false_reject, false_meet = 0, 0
  for seed = 1, seeds do
    for _, c in ipairs(bernoulli(0.30, { measure = "draws", at_least = 0.30 }, seed, racing).candidates) do
      if c.status == "rejected" then false_reject = false_reject + 1 break end
    end
    for _, c in ipairs(bernoulli(0.29, { measure = "draws", at_least = 0.30 }, seed, racing).candidates) do
      if c.status == "meets" then false_meet = false_meet + 1 break end
    end
  end
  return false_reject, false_meet
end

-- A/A: 4 candidates that play the same game (the same rules named twice, a
-- draw rule longer than any game). Over seeds: in how many was one declared
-- to meet the target and another rejected (declared different), and how
-- many claims were made in all.
function P.aa(seeds, racing)
  racing = racing or { round = 20, looks = 3, alpha = 0.05 }
  local differ, claims = 0, 0
  for seed = 1, seeds do
    local r = design.run(P.design {
      seed = seed, max_plies = 60,
      space = { promote = { "KBC", "CBK" }, draw_quiet_plies = { 0, 1000 } },
      targets = { { measure = "first_mover_score", within = { 0.30, 0.75 } } },
      racing = racing,
    })
    local seen = {}
    for _, c in ipairs(r.candidates) do
      seen[c.status] = true
      if c.status ~= "undecided" then claims = claims + 1 end
    end
    if seen.meets and seen.rejected then differ = differ + 1 end
  end
  return differ, claims
end

-- Golomb's start and White without its bishop, target White's score within
-- 30-85%: the result and the handicapped candidate.
function P.handicap(racing)
  local r = design.run(P.design {
    space = { start = { P.START, P.NO_WHITE_BISHOP } },
    targets = { { measure = "white_score", within = { 0.3, 0.85 } } },
    players = { bots = "engine:nodes=30" }, max_plies = 100,
    racing = racing or { round = 20, looks = 6 },
  })
  for _, c in ipairs(r.candidates) do if c.label == "start=2" then return r, c end end
end

-- Golomb's start, White without its bishop, Black without its bishop:
-- White's score at least 72% is met by the third alone (Black's handicap).
function P.known_answer(racing)
  return design.run(P.design {
    space = { start = { P.START, P.NO_WHITE_BISHOP, P.NO_BLACK_BISHOP } },
    targets = { { measure = "white_score", at_least = 0.72 } },
    players = { bots = "engine:nodes=30" }, max_plies = 100,
    racing = racing or { round = 30, looks = 8 },
  })
end

-- ./cheskers tests/design_planted.lua [large]
local function main(large)
  local failed = 0
  local function check(ok, text)
    print((ok and "ok    " or "FAIL  ") .. text)
    if not ok then failed = failed + 1 end
  end
  local seeds_aa, seeds_rates = large and 100 or 20, large and 2000 or 200
  local differ, claims = P.aa(seeds_aa, large and { round = 50, looks = 6, alpha = 0.05 } or nil)
  check(differ <= P.tolerance(seeds_aa, 0.05) and claims > 0,
        ("A/A: declared different in %d of %d seeds (tolerance %d at alpha 0.05), %d claims in all")
          :format(differ, seeds_aa, P.tolerance(seeds_aa, 0.05), claims))
  local fr, fm = P.known_rates(seeds_rates)
  local tol = P.tolerance(seeds_rates, 0.05)
  check(fr <= tol and fm <= tol, ("known rates: a false rejection in %d and a false 'meets' in %d of %d seeds "
        .. "(tolerance %d at alpha 0.05)"):format(fr, fm, seeds_rates, tol))
  local r, c = P.handicap(large and { round = 50, looks = 10 } or nil)
  check(c.status == "rejected" and c.looks <= 2, ("planted handicap: %s after %d games (look %d of %d); "
        .. "White's score %.3f [%.3f, %.3f]"):format(c.status, c.games, c.looks, r.design.looks,
        c.estimates[1].value, c.estimates[1].lo, c.estimates[1].hi))
  local k = P.known_answer(large and { round = 50, looks = 10 } or nil)
  local ranked = design.ranked(k)
  check(#ranked == 1 and ranked[1].label == "start=3", ("known answer: %d rule set(s) meet, %s; %d games, "
        .. "grid %d"):format(#ranked, ranked[1] and ranked[1].label or "none", k.games, k.grid))
  os.exit(failed == 0 and 0 or 1)
end

if arg and type(arg[0]) == "string" and arg[0]:match("design_planted%.lua$") then main(arg[1] == "large") end

return P
