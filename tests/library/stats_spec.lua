-- tests/library/stats_spec.lua - cheskers.stats: Elo with its interval, SPRT,
-- Wilson and Newcombe intervals, Welch's interval, means and quantiles.
-- Expected values are worked out by hand (the arithmetic is in the
-- comments) or taken from published examples, never from the program.
local statistics = require "cheskers.stats"

describe("Elo", function()
  it("maps scores to Elo and back: 75% is 400 log10(3) = +190.85", function()
    assert.near(0.5, statistics.expected(0), 1e-12)
    -- 1 / (1 + 10^(-400/400)) = 1 / 1.1 = 10/11
    assert.near(10 / 11, statistics.expected(400), 1e-12)
    -- -400 log10(1/0.75 - 1) = -400 log10(1/3) = 400 log10(3) = 190.848...
    assert.near(190.848, statistics.elo_of(0.75), 1e-3)
    assert.equal(math.huge, statistics.elo_of(1))
    assert.equal(-math.huge, statistics.elo_of(0))
  end)

  it("gives 3 wins and 1 loss +190.85 with the interval [-126.46, +inf]", function()
    -- s = 0.75; per-game variance (3 (1 - .75)^2 + 1 (.75)^2) / 4 = (0.1875 + 0.5625) / 4 = 0.1875
    -- se = sqrt(0.1875 / 4) = 0.216506; low score 0.75 - 1.96 se = 0.325647
    -- -400 log10(1/0.325647 - 1) = -126.456; the high score 1.174 > 1: +inf
    local e, lo, hi = statistics.elo(3, 0, 1)
    assert.near(190.848, e, 1e-3)
    assert.near(-126.456, lo, 1e-3)
    assert.equal(math.huge, hi)
  end)

  it("an even score is 0 with a symmetric interval; no games: 0 in (-inf, +inf)", function()
    local e, lo, hi = statistics.elo(10, 0, 10)
    assert.equal(0, e)
    assert.near(-lo, hi, 1e-9)
    assert.same({ 0, -math.huge, math.huge }, { statistics.elo(0, 0, 0) })
  end)

  it("all wins: +inf, with a finite low end from half a game added to each outcome", function()
    -- 5.5 wins, 0.5 draws, 0.5 losses: s = 5.75 / 6.5 = 0.884615
    -- variance (5.5 (0.115385)^2 + 0.5 (0.384615)^2 + 0.5 (0.884615)^2) / 6.5 = 0.082840
    -- se = sqrt(0.082840 / 5) = 0.128717; low score 1 - 1.96 se = 0.747714 -> +188.74
    local e, lo = statistics.elo(5, 0, 0)
    assert.equal(math.huge, e)
    assert.near(188.738, lo, 1e-3)
  end)
end)

describe("SPRT", function()
  it("has the bounds log(beta / (1 - alpha)) and log((1 - beta) / alpha)", function()
    local llr, lower, upper, d = statistics.sprt(0, 0, 0, 0, 50)
    assert.equal(0, llr)
    assert.near(-2.944439, lower, 1e-6)    -- log(0.05 / 0.95)
    assert.near(2.944439, upper, 1e-6)
    assert.is_nil(d)
  end)

  it("gives 95 wins, 2 draws, 3 losses an LLR of 142.06 between Elo 0 and 100: H1", function()
    -- counts + 0.5: 95.5, 2.5, 3.5 (101.5); score 96.75 / 101.5 = 0.953202
    -- variance (95.5 (0.046798)^2 + 2.5 (0.453202)^2 + 3.5 (0.953202)^2) / 101.5 = 0.038450
    -- s0 = 0.5, s1 = 1 / (1 + 10^-0.25) = 0.640065; n = 100, s = 0.96
    -- LLR = (s1 - s0) (2 n s - n (s0 + s1)) / (2 var) = 0.140065 * 77.9935 / 0.076901 = 142.055
    local llr, _, _, d = statistics.sprt(95, 2, 3, 0, 100)
    assert.near(142.055, llr, 1e-2)
    assert.equal("H1", d)
    local _, _, _, d0 = statistics.sprt(3, 2, 95, 0, 100)
    assert.equal("H0", d0)
    local _, _, _, dn = statistics.sprt(2, 1, 2, 0, 100)
    assert.is_nil(dn)
  end)
end)

describe("intervals and summaries", function()
  local z2 = statistics.Z95 ^ 2

  it("Wilson interval of 10 out of 10 is [1 / (1 + z^2/10), 1]", function()
    local lo, hi = statistics.wilson(10, 10)
    assert.near(1 / (1 + z2 / 10), lo, 1e-12)
    assert.near(1, hi, 1e-12)
  end)

  it("Wilson interval is symmetric: 0 of 10 mirrors 10 of 10", function()
    local lo, hi = statistics.wilson(0, 10)
    assert.near(0, lo, 1e-12)
    assert.near(1 - 1 / (1 + z2 / 10), hi, 1e-12)
  end)

  it("Wilson interval of 5 of 10 is 0.5 +- z/(1+z^2/n) sqrt(1/4n + z^2/4n^2)", function()
    local lo, hi = statistics.wilson(5, 10)
    local half = statistics.Z95 / (1 + z2 / 10) * math.sqrt(0.25 / 10 + z2 / 400)
    assert.near(0.5 - half, lo, 1e-12)
    assert.near(0.5 + half, hi, 1e-12)
    assert.near(0.2366, lo, 1e-4)   -- the textbook value
  end)

  it("Wilson interval of no games is [0, 0]", function()
    assert.same({ 0, 0 }, { statistics.wilson(0, 0) })
  end)

  it("differences of rates have Newcombe's hybrid score intervals (his published examples)", function()
    -- Newcombe (1998), Statistics in Medicine 17:873, method 10, z = 1.96
    local d, lo, hi = statistics.newcombe(56, 70, 48, 80, 1.96)
    assert.near(0.2, d, 1e-12)
    assert.near(0.0524, lo, 5e-5)
    assert.near(0.3339, hi, 5e-5)
    d, lo, hi = statistics.newcombe(9, 10, 3, 10, 1.96)
    assert.near(0.6, d, 1e-12)
    assert.near(0.1705, lo, 5e-5)
    assert.near(0.8090, hi, 5e-5)
    assert.is_nil(statistics.newcombe(1, 0, 1, 2))
  end)

  it("quartiles interpolate between order statistics", function()
    local xs = { 1, 2, 3, 4 }
    assert.equal(1.75, statistics.quantile(xs, 0.25))
    assert.equal(2.5, statistics.quantile(xs, 0.5))
    assert.equal(3.25, statistics.quantile(xs, 0.75))
    assert.equal(1, statistics.quantile(xs, 0))
    assert.equal(4, statistics.quantile(xs, 1))
    assert.equal(7, statistics.quantile({ 7 }, 0.25))
  end)


  it("Welch: means 10 and 8 of 4 and 9 values with variances 4 and 9: 2 +- 1.96 sqrt(2)", function()
    -- se = sqrt(4/4 + 9/9) = sqrt(2) = 1.414214; 1.959964 * 1.414214 = 2.771808
    local d, lo, hi = statistics.welch(10, 4, 4, 8, 9, 9)
    assert.near(2, d, 1e-12)
    assert.near(2 - 2.771808, lo, 1e-6)
    assert.near(2 + 2.771808, hi, 1e-6)
    assert.is_nil(statistics.welch(1, 0, 1, 2, 0, 5))   -- one value: no interval
  end)

  it("mean and sample variance: 2 4 4 4 5 5 7 9 has mean 5 and variance 32 / 7", function()
    -- squared deviations 9 1 1 1 0 0 4 16 = 32, over n - 1 = 7
    local m, v = statistics.mean_var({ 2, 4, 4, 4, 5, 5, 7, 9 })
    assert.equal(5, m)
    assert.near(32 / 7, v, 1e-12)
    assert.same({ 0, 0 }, { statistics.mean_var({}) })
    assert.same({ 3, 0 }, { statistics.mean_var({ 3 }) })
  end)
end)

describe("one of each function", function()
  it("stats.lua defines each of its functions once (a second definition would silently win)", function()
    local f = assert(io.open("lua/cheskers/stats.lua"))
    local text = f:read("a")
    f:close()
    local seen = {}
    for name in text:gmatch("\nfunction M%.([%w_]+)") do
      assert.is_nil(seen[name], "stats." .. name .. " is defined twice")
      seen[name] = true
    end
    assert.is_true(seen.normal_cdf)
  end)

  it("the normal distribution: Phi(0) = 1/2, Phi(1.959964) = 0.975, Phi(-1) = 0.1587 (tables)", function()
    assert.near(0.5, statistics.normal_cdf(0), 1e-7)
    assert.near(0.975, statistics.normal_cdf(1.959964), 1e-6)
    assert.near(0.158655, statistics.normal_cdf(-1), 1e-6)
    assert.near(1.959964, statistics.normal_quantile(0.975), 1e-5)
  end)
end)

describe("solving linear systems", function()
  it("solves 2x + y = 3, x + 3y = 5: x = 4/5, y = 7/5, with the inverse (1/5) {{3, -1}, {-1, 2}}", function()
    local x, inv = statistics.solve_inverse({ { 2, 1 }, { 1, 3 } }, { 3, 5 })
    assert.near(0.8, x[1], 1e-12)
    assert.near(1.4, x[2], 1e-12)
    assert.near(0.6, inv[1][1], 1e-12)
    assert.near(-0.2, inv[1][2], 1e-12)
    assert.near(0.4, inv[2][2], 1e-12)
  end)

  it("needs pivoting: {{0, 1}, {1, 0}} is its own inverse", function()
    local _, inv = statistics.solve_inverse({ { 0, 1 }, { 1, 0 } })
    assert.same({ { 0, 1 }, { 1, 0 } }, inv)
  end)

  it("inverts a matrix of small entries (the limit is relative): 1e-13 I has the inverse 1e13 I", function()
    local _, inv = statistics.solve_inverse({ { 1e-13, 0 }, { 0, 1e-13 } })
    assert.is_table(inv)
    assert.near(1e13, inv[1][1], 1)
    assert.equal(0, inv[1][2])
  end)

  it("refuses singular matrices, also when rounding leaves a tiny pivot (rows 1 2 3, 4 5 6, 7 8 9)", function()
    assert.is_nil(statistics.solve_inverse({ { 1, 2 }, { 2, 4 } }))
    assert.is_nil(statistics.solve_inverse({ { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 9 } }))
    assert.is_nil(statistics.solve_inverse({ { 0.1, 0.2, 0.3 }, { 0.4, 0.5, 0.6 }, { 0.7, 0.8, 0.9 } }))
  end)

  it("the difference of two estimates: z = (1.5 - 1) / sqrt(0.1^2 + 0.1^2) = 3.536 from their intervals", function()
    local function m(v) return { value = v, lo = v - 0.196, hi = v + 0.196 } end   -- se 0.196/1.96 = 0.1
    assert.near(0.5 / math.sqrt(0.02), statistics.z_difference(m(1), m(1.5)), 1e-3)
    assert.near(-0.5 / math.sqrt(0.02), statistics.z_difference(m(1.5), m(1)), 1e-3)
    assert.equal(0, statistics.z_difference({ value = 1, lo = 1, hi = 1 }, { value = 2, lo = 2, hi = 2 }))
  end)
end)

describe("the study's statistics: equivalence, false discovery rate, interaction, ratios", function()
  it("TOST of a symmetric interval: d = 1, se = 2, margin 5 gives max(1 - Phi(3), Phi(-2)) = 0.02275", function()
    -- H0 d <= -5: z = (1 + 5) / 2 = 3, p = 0.00135; H0 d >= 5: z = (5 - 1) / 2 = 2, p = 0.02275
    local function welch(z) return 1 - 2 * z, 1 + 2 * z end
    assert.near(0.02275, statistics.tost(welch, 1, 5), 1e-5)
    -- the same interval with margin 4.29: z = 1.645 for the upper end, p = 0.05 (tables: Phi(1.645) = 0.95)
    assert.near(0.05, statistics.tost(welch, 1, 1 + 2 * 1.644854), 1e-5)
    -- an estimate outside the margins is never equivalent
    assert.equal(1, statistics.tost(welch, 6, 5))
    assert.equal(1, statistics.tost(welch, -5, 5))
  end)

  it("TOST of rates: 50 of 100 against 50 of 100 is equivalent at 5% exactly at the 90% Newcombe bound", function()
    -- Wilson at p = 1/2, n = 100, z = 1.644854: centre 1/2,
    --   half = z / (1 + z^2/100) sqrt(1/400 + z^2/40000) = 1.601525 * 0.050670 = 0.081149;
    -- Newcombe's upper bound: sqrt(2) * 0.081149 = 0.114762 (the lower is its mirror)
    local function rates(z) local _, lo, hi = statistics.newcombe(50, 100, 50, 100, z) return lo, hi end
    assert.near(0.05, statistics.tost(rates, 0, 0.114762), 1e-4)
    assert.is_true(statistics.tost(rates, 0, 0.2) < 0.01)
    assert.is_true(statistics.tost(rates, 0, 0.05) > 0.2)
  end)

  it("Benjamini-Hochberg: the 15 p-values of their 1995 paper reject 4 at 5%", function()
    -- Benjamini and Hochberg (1995), section 4: 15 p-values, the step-up rule rejects the 4 smallest
    -- (0.0095 <= 4/15 0.05 = 0.0133; 0.0201 > 5/15 0.05 and no larger p passes its bound)
    local ps = { 0.0201, 0.0001, 0.0004, 0.0019, 0.0095, 0.0278, 0.0298, 0.0344, 0.0459,
                 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.0000 }
    local q, n = statistics.bh(ps), 0
    for _, x in ipairs(q) do if x < 0.05 then n = n + 1 end end
    assert.equal(4, n)
    -- q of 0.0095 (4th of 15): min(15 * 0.0095 / 4, later ratios) = 0.035625
    assert.near(0.035625, q[5], 1e-12)
    -- 0.01, 0.04, 0.03, 0.005 (m = 4): sorted ratios 0.02, 0.02, 0.04, 0.04
    assert.same({ 0.02, 0.04, 0.04, 0.02 }, statistics.bh({ 0.01, 0.04, 0.03, 0.005 }))
    assert.same({ 1 }, statistics.bh({ 1 }))
  end)

  it("the chi-square tail at the 5% points of the tables (df 1 to 5) and P(chi2_2 > x) = exp(-x/2)", function()
    for df, x in ipairs({ 3.841459, 5.991465, 7.814728, 9.487729, 11.070498 }) do
      assert.near(0.05, statistics.chi2_sf(x, df), 1e-6)
    end
    assert.near(math.exp(-1.5), statistics.chi2_sf(3, 2), 1e-12)
    assert.near(0.01, statistics.chi2_sf(6.634897, 1), 1e-6)
    assert.equal(1, statistics.chi2_sf(0, 3))
  end)

  it("Cochran's Q: differences 0 and 2 with standard errors 1 give Q = 2, P(chi2_1 > 2) = 0.1573", function()
    -- weighted mean 1; Q = (0 - 1)^2 + (2 - 1)^2 = 2 = z^2 of the difference 2 / sqrt(2)
    local q, df, p = statistics.heterogeneity({ 0, 2 }, { 1, 1 })
    assert.near(2, q, 1e-12)
    assert.equal(1, df)
    assert.near(0.157299, p, 1e-5)
    -- 1, 2, 6 with standard errors 1, 1, 2: weights 1, 1, 1/4, mean (1 + 2 + 1.5) / 2.25 = 2;
    -- Q = 1 + 0 + 16 / 4 = 5, df 2, p = exp(-2.5) = 0.082085
    q, df, p = statistics.heterogeneity({ 1, 2, 6 }, { 1, 1, 2 })
    assert.near(5, q, 1e-12)
    assert.equal(2, df)
    assert.near(math.exp(-2.5), p, 1e-9)
    assert.is_nil(statistics.heterogeneity({ 1 }, { 1 }))
    assert.is_nil(statistics.heterogeneity({ 1, 2 }, { 1, 0 }))
  end)

  it("Fieller's interval of 4 / 2 (variances 1 and 1/4, independent) is [0.9211, 4.3428], not symmetric", function()
    -- the textbook form with g = z^2 vb / b^2 = 0.9604 / 4 = 0.2401 and no covariance:
    --   (r +- (z / b) sqrt(va + r^2 vb - g va)) / (1 - g)
    --   = (2 +- 0.98 sqrt(1 + 1 - 0.2401)) / 0.7599 = (2 +- 1.300076) / 0.7599
    local z = 1.959964
    local g = z * z * 0.25 / 4
    local half = z / 2 * math.sqrt(1 + 4 * 0.25 - g * 1)
    local lo, hi, bounded = statistics.fieller(4, 2, 1, 0.25, 0)
    assert.is_true(bounded)
    assert.near((2 - half) / (1 - g), lo, 1e-5)
    assert.near((2 + half) / (1 - g), hi, 1e-5)
    assert.near(0.9211, lo, 1e-4)
    assert.near(4.3428, hi, 1e-4)
    -- the delta method's interval is 2 +- 1.96 sqrt(1/4 + 16 (1/4) / 16) = [0.614, 3.386]: Fieller's
    -- stretches to the high side, where a small denominator pushes the ratio
    assert.is_true(hi - 2 > 2 - lo)
    -- a denominator not distinct from 0 (2 < 1.96 * 1.5): no bounded interval
    local l2, h2, b2 = statistics.fieller(4, 2, 1, 2.25, 0)
    assert.same({ -math.huge, math.huge, false }, { l2, h2, b2 })
  end)

  it("Fieller with a covariance: the interval is the set where a - r b is not rejected", function()
    -- at each end r, (a - r b)^2 = z^2 (va - 2 r cab + r^2 vb): the t statistic of a - r b is exactly z
    local a, b, va, vb, cab, z = 3, 1.5, 0.3, 0.05, 0.06, 1.959964
    local lo, hi = statistics.fieller(a, b, va, vb, cab)
    for _, r in ipairs({ lo, hi }) do
      assert.near(z, math.abs(a - r * b) / math.sqrt(va - 2 * r * cab + r * r * vb), 1e-6)
    end
    assert.is_true(lo < a / b and a / b < hi)
  end)
end)

describe("the small statistics every module takes from stats (one owner)", function()
  it("mean: the sum over the count, in floats (0 for none)", function()
    assert.equal(2.5, statistics.mean({ 1, 2, 3, 4 }))
    assert.equal(0, statistics.mean({}))
    assert.equal(math.maxinteger + 0.0, statistics.mean({ math.maxinteger, math.maxinteger }))   -- no wrap
  end)

  it("proportion_se: sqrt(p (1 - p) / n)", function()
    assert.near(0.0433012702, statistics.proportion_se(25, 100), 1e-9)   -- sqrt(0.25 * 0.75 / 100)
    assert.equal(0, statistics.proportion_se(0, 10))
  end)
end)
