-- tests/library/measures_spec.lua - the design measures of rule experiments
-- (cheskers.measures) on made-up evaluation traces, the statistics they
-- rest on (Holm, power, the normal distribution, logistic regression, the
-- delta method), and piece values: recovered from synthetic outcomes of
-- known coefficients and from a real handicap (White without its bishop).
-- Every expected value is worked out by hand in the comments.
local measures = require "cheskers.measures"
local statistics = require "cheskers.stats"
local experiment = require "cheskers.experiment"
local selfplay = require "cheskers.selfplay"

-- A White win. Thresholds (centipawns): drama 200, lead 50, killer 200, doubt 50.
--   index  1   2    3     4     5    6   7    8      9
local WIN = { 0, 60, 250, -100, -220, -30, 80, 300, 10000 }
-- A Black win: White's view.
local LOSS = { 0, -300, -60, 10, -10000 }

describe("design measures of one game", function()
  it("drama: the winner was at -T or worse at some point", function()
    -- White's lowest is -220 <= -200: drama; with T = 250, -220 > -250: none
    assert.equal(1, measures.drama(WIN, "white", 200))
    assert.equal(0, measures.drama(WIN, "white", 250))
    -- Black's view is the negation: 0, 300, 60, -10, 10000; lowest -10 > -200
    assert.equal(0, measures.drama(LOSS, "black", 200))
    -- Black's lowest -10 <= -5
    assert.equal(1, measures.drama(LOSS, "black", 5))
    assert.is_nil(measures.drama(WIN, "draw", 200))
  end)

  it("lead changes: sign changes of the side ahead, level positions skipped", function()
    -- sides with L = 50: 0 level, +, +, -, -, level, +, +, +: + -> - and - -> + : 2
    assert.equal(2, measures.lead_changes(WIN, 50))
    -- L = 150: level, level, +, -, -, level, level, +, +: still 2
    assert.equal(2, measures.lead_changes(WIN, 150))
    -- L = 250: only -> 300 and 10000 are ahead (250 is not > 250): 0
    assert.equal(0, measures.lead_changes(WIN, 250))
    -- LOSS, L = 50: level, -, -, level, -: 0
    assert.equal(0, measures.lead_changes(LOSS, 50))
  end)

  it("decided at: the share of the game before the winner's lead held", function()
    -- from the end White is > 50 at 10000, 300, 80 (indices 9, 8, 7), not at
    -- -30 (6): the lead holds from index 7: (7 - 1) / (9 - 1) = 0.75
    assert.near(0.75, measures.decided_at(WIN, "white", 50), 1e-12)
    -- L = 90: 80 is not > 90, holds from index 8: 7 / 8
    assert.near(7 / 8, measures.decided_at(WIN, "white", 90), 1e-12)
    -- Black ahead only at the last position (index 5): 4 / 4 = 1
    assert.equal(1, measures.decided_at(LOSS, "black", 50))
    -- ahead from the start: 0
    assert.equal(0, measures.decided_at({ 100, 200, 10000 }, "white", 50))
    assert.is_nil(measures.decided_at(WIN, "draw", 50))
  end)

  it("killer moves: plies that swing the evaluation by more than K, the game's end left out", function()
    -- steps 2..8: 60, 190, 350*, 120, 190, 110, 220*; the last (9700) left out: 2
    assert.equal(2, measures.killer_moves(WIN, 200))
    -- K = 100: 190*, 350*, 120*, 190*, 110*, 220* = 6
    assert.equal(6, measures.killer_moves(WIN, 100))
    -- LOSS steps 2..4: 300*, 240*, 70: 2
    assert.equal(2, measures.killer_moves(LOSS, 200))
  end)

  it("uncertainty: the share of positions within U of 0", function()
    -- |e| <= 50: 0 and -30: 2 of 9
    assert.near(2 / 9, measures.uncertainty(WIN, 50), 1e-12)
    -- LOSS: 0 and 10: 2 of 5
    assert.near(0.4, measures.uncertainty(LOSS, 50), 1e-12)
  end)

  it("summarizes games with 95% intervals; records without a trace are left out", function()
    local th = measures.thresholds(nil)     -- defaults: drama 2, lead 0.5 pawns ...
    assert.same({ drama = 200, lead = 50, killer = 200, doubt = 50 }, th)
    local s = measures.summarize({
      { trace = WIN, result = "white" }, { trace = LOSS, result = "black" },
      { result = "draw" } }, th)
    -- drama 1 of 2; Wilson(1, 2): centre 0.5, half = 1.96/(1+1.92) sqrt(.125 + .9604/4 ... )
    local lo, hi = statistics.wilson(1, 2)
    -- its standard error (for the report's contrasts): sqrt(0.5 * 0.5 / 2) = 0.353553
    assert.same({ value = 0.5, lo = lo, hi = hi, n = 2, se = math.sqrt(0.125) }, s.drama)
    -- lead changes 2 and 0: mean 1, variance 2, se sqrt(2/2) = 1: 1 +- 1.96, cut at 0 (not the se)
    assert.near(1, s.lead_changes.value, 1e-12)
    assert.near(1, s.lead_changes.se, 1e-12)
    assert.equal(0, s.lead_changes.lo)
    assert.near(2.959964, s.lead_changes.hi, 1e-6)
    -- decided at 0.75 and 1: mean 0.875; cut at 1 above
    assert.near(0.875, s.decided_at.value, 1e-12)
    assert.equal(1, s.decided_at.hi)
    assert.equal(2, s.killer_moves.n)
  end)

  it("refuses unknown and negative thresholds", function()
    assert.has_error(function() measures.thresholds({ dramma = 1 }) end)
    assert.has_error(function() measures.thresholds({ drama = -1 }) end)
    assert.equal(150, measures.thresholds({ drama = 1.5 }).drama)
  end)
end)

describe("statistics of design research", function()
  it("the normal distribution and its quantiles", function()
    assert.near(0.975, statistics.normal_cdf(1.959964), 1e-6)
    assert.near(0.5, statistics.normal_cdf(0), 1e-7)
    assert.near(1.959964, statistics.normal_quantile(0.975), 1e-5)
    assert.near(0.841621, statistics.normal_quantile(0.8), 1e-5)
    assert.near(0.05, statistics.p_two_sided(1.959964), 1e-6)
  end)

  it("Holm's adjustment", function()
    -- sorted: 0.005 x4 = 0.02, 0.01 x3 = 0.03, 0.03 x2 = 0.06, 0.04 x1 = 0.04 -> 0.06 (monotone)
    local adj = statistics.holm({ 0.01, 0.04, 0.03, 0.005 })
    local want = { 0.03, 0.06, 0.06, 0.02 }
    for i = 1, 4 do assert.near(want[i], adj[i], 1e-12) end
    assert.near(1, statistics.holm({ 0.5, 0.6 })[1], 1e-12)   -- 0.5 x 2 = 1, capped
  end)

  it("the power line: 1565 games per variant for 50% against 55%", function()
    -- za = 1.959964, zb = 0.841621, pbar = 0.525:
    -- (1.959964 sqrt(2 .525 .475) + 0.841621 sqrt(.25 + .2475))^2 / .05^2
    -- = (1.384171 + 0.593626)^2 / 0.0025 = 3.911681 / 0.0025 = 1564.7 -> 1565
    assert.equal(1565, statistics.power_n(0.5, 0.55))
    assert.is_true(statistics.power_n(0.5, 0.55, 0.01) > 1565)
  end)

  it("a pooled two-proportion z-test", function()
    -- 60/100 against 40/100: pooled 0.5, se sqrt(.25 (2/100)) = 0.070711, z = 2.828427
    -- p = 2 (1 - Phi(2.828427)) = 0.004678
    assert.near(0.004678, statistics.p_proportions(60, 100, 40, 100), 1e-5)
    assert.equal(1, statistics.p_proportions(0, 10, 0, 10))
  end)

  it("logistic regression by Newton-Raphson: a saturated binary model", function()
    -- x = 0: 3 of 4 are 1, x = 1: 1 of 4. The fit matches each group's log odds:
    -- b0 = log 3, b0 + b1 = log(1/3), so b1 = -2 log 3. var(b0) = 1 / (4 .75 .25) = 4/3,
    -- var(b0 + b1) = 4/3 too; cov(b0, b1) = -var(b0) = -4/3; var(b1) = 8/3.
    local X, y = {}, {}
    for _, r in ipairs({ { 0, 1 }, { 0, 1 }, { 0, 1 }, { 0, 0 }, { 1, 1 }, { 1, 0 }, { 1, 0 }, { 1, 0 } }) do
      X[#X + 1] = { 1, r[1] }
      y[#y + 1] = r[2]
    end
    local fit = statistics.logistic(X, y)
    assert.near(math.log(3), fit.beta[1], 1e-8)
    assert.near(-2 * math.log(3), fit.beta[2], 1e-8)
    assert.near(4 / 3, fit.cov[1][1], 1e-6)
    assert.near(8 / 3, fit.cov[2][2], 1e-6)
    assert.near(-4 / 3, fit.cov[1][2], 1e-6)
  end)

  it("logistic regression says why it cannot fit", function()
    local fit, why = statistics.logistic({ { 1, 0 }, { 1, 0 } }, { 1, 0 })
    assert.is_nil(fit)
    assert.matches("singular", why)
    fit, why = statistics.logistic({ { 1, 0 }, { 1, 1 } }, { 0, 1 })  -- separated
    assert.is_nil(fit)
    assert.matches("convergence", why)
  end)

  it("the delta method for a ratio", function()
    -- a = 2, b = 1, var a = .04, var b = .01, cov 0: var = .04 + 4 (.01) = .08
    local r, lo, hi, se = statistics.ratio_ci(2, 1, 0.04, 0.01, 0)
    assert.equal(2, r)
    assert.near(math.sqrt(0.08), se, 1e-12)
    assert.near(2 - 1.959964 * math.sqrt(0.08), lo, 1e-5)
    assert.near(2 + 1.959964 * math.sqrt(0.08), hi, 1e-5)
  end)
end)

describe("piece values", function()
  it("recover known coefficients from synthetic games", function()
    -- White's score drawn from logit P(win) = 0.1 + 0.5 dP + 1.5 dB + 1.0 dC:
    -- a bishop is worth 1.5 / 0.5 = 3 pawns, a camel 2.
    math.randomseed(42)
    local recs = {}
    for g = 1, 20000 do
      local dP, dB, dC = math.random(-3, 3), math.random(-1, 1), math.random(-1, 1)
      local p = 1 / (1 + math.exp(-(0.1 + 0.5 * dP + 1.5 * dB + 1.0 * dC)))
      recs[g] = { mat_kinds = "BCP", mat = { { 0, dB, dC, dP } },
                  result = math.random() < p and "white" or "black" }
    end
    local pv = assert(measures.piece_values(recs))
    assert.same({ "P", "B", "C" }, pv.kinds)
    assert.near(3, pv.values.B.value, 0.3)
    assert.near(2, pv.values.C.value, 0.25)
    assert.is_true(pv.values.B.lo < 3 and 3 < pv.values.B.hi)
    assert.is_true(pv.values.C.lo < 2 and 2 < pv.values.C.hi)
    assert.near(0.1, pv.beta.first, 0.1)
    assert.equal(1, pv.values.P.value)
    -- Fieller's interval, not the delta method's: skewed to the high side (a ratio's spread is),
    -- bounded since the pawn's coefficient is far from 0
    for _, k in ipairs({ "B", "C" }) do
      local v = pv.values[k]
      assert.is_true(v.bounded)
      assert.is_true(v.hi - v.value > v.value - v.lo, k .. ": the interval is not skewed")
    end
  end)

  it("say when the pawn's coefficient is not distinct from 0: no bounded interval", function()
    -- the result depends on the bishop only; the pawn difference is noise: bP ~ 0
    math.randomseed(7)
    local recs = {}
    for g = 1, 400 do
      local dP, dB = math.random(-1, 1), math.random(-1, 1)
      local p = 1 / (1 + math.exp(-1.5 * dB))
      recs[g] = { mat_kinds = "BP", mat = { { 0, dB, dP } }, result = math.random() < p and "white" or "black" }
    end
    local pv = assert(measures.piece_values(recs))
    local v = pv.values.B
    assert.is_false(v.bounded)
    assert.same({ -math.huge, math.huge }, { v.lo, v.hi })
  end)

  it("find the bishop worth something when White starts without it", function()
    local start = "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/2K1K1C1 b 0 1"
    local e = selfplay.prepare(experiment.normalize({ name = "handicap", games = 400,
      bots = "builtin-greedy", random_plies = 4, trace = false,
      variants = { { name = "white-no-bishop", rules = { start = start } } } }, "handicap"))
    local recs = {}
    for g = 1, 400 do recs[g] = selfplay.play_game(e, e.variants[1], g, 1) end
    local pv = assert(measures.piece_values(recs))
    assert.is_true(pv.values.B.value > 0)
    assert.is_true(pv.values.B.lo > 0, "the bishop's interval excludes 0")
  end)

  it("need the pawn count to differ somewhere", function()
    local pv, why = measures.piece_values({ { mat_kinds = "BP", mat = { { 0, 1, 0 } }, result = "white" } })
    assert.is_nil(pv)
    assert.matches("pawn", why)
  end)
end)
