-- cheskers.stats - the statistics of matches, experiments and reports (and
-- later tournaments): Elo with its interval, SPRT, Wilson and Newcombe
-- intervals for rates, Welch's interval for a difference of means, Holm,
-- Benjamini-Hochberg, equivalence (TOST), Cochran's Q, Fieller's ratio,
-- quantiles. Pure functions of counts; no I/O.
--
--   stats.Z95                                   1.959963984540054
--   stats.expected(elo) -> score                1 / (1 + 10^(-elo/400))
--   stats.elo_of(score) -> elo                  the inverse (+-inf at 1 and 0)
--   stats.elo(w, d, l) -> elo, lo, hi           Elo difference, 95% interval
--   stats.sprt(w, d, l, elo0, elo1 [, alpha, beta]) -> llr, lower, upper, decision
--   stats.wilson(k, n [, z]) -> lo, hi          Wilson score interval
--   stats.newcombe(k1, n1, k2, n2 [, z]) -> d, lo, hi   (nil when a sample is empty)
--   stats.mean(xs) -> mean                      (0 for an empty list)
--   stats.mean_var(xs) -> mean, variance        sample variance (n - 1)
--   stats.proportion_se(k, n) -> se             sqrt(p (1 - p) / n), p = k / n
--   stats.welch(m1, v1, n1, m2, v2, n2 [, z]) -> d, lo, hi
--   stats.quantile(sorted, q) -> x              type 7 (R's default)
-- Design research (cheskers.measures, the report):
--   stats.normal_cdf(z), stats.normal_quantile(p), stats.p_two_sided(z)
--   stats.p_proportions(k1, n1, k2, n2) -> p    pooled two-proportion z-test
--   stats.p_welch(m1, v1, n1, m2, v2, n2) -> p
--   stats.holm(ps) -> adjusted ps               Holm's step-down correction
--   stats.bh(ps) -> q-values                    Benjamini-Hochberg (false discovery rate)
--   stats.tost(interval, d, margin) -> p        equivalence within +-margin (two one-sided
--                                               tests) from an interval function z -> lo, hi
--   stats.chi2_sf(x, df) -> p                   P(chi-square with df degrees > x)
--   stats.heterogeneity(ds, ses) -> q, df, p    Cochran's Q: do the differences ds differ?
--   stats.power_n(p1, p2 [, alpha, power]) -> games per variant
--   stats.mean_ci(xs [, z]) -> mean, lo, hi
--   stats.z_difference(a, b) -> z               of b.value - a.value, two estimates
--                                               {value, lo, hi} with 95% intervals
--   stats.solve_inverse(A [, b]) -> x, inverse  (nil when A is singular)
--   stats.logistic(X, y [, clusters, max_iter, opts]) -> {beta, cov, cov_cluster, iterations}
--                                               opts: ridge, center, offset, progress (cheskers.tune)
--   stats.ratio_ci(a, b, va, vb, cab [, z]) -> r, lo, hi, se   delta method
--   stats.fieller(a, b, va, vb, cab [, z]) -> lo, hi, bounded  Fieller's interval of a / b
-- Racing (cheskers.design):
--   stats.bonferroni_z(alpha, m) -> z           the normal quantile of each of m two-sided
--                                               intervals whose family-wise error is <= alpha
--   stats.bounded_mean_ci(mean, n [, z]) -> lo, hi   the mean of n values in [0, 1]
local M = {}

M.Z95 = 1.959963984540054

function M.expected(elo) return 1 / (1 + 10 ^ (-elo / 400)) end

function M.elo_of(s)
  if s <= 0 then return -math.huge end
  if s >= 1 then return math.huge end
  return -400 * math.log(1 / s - 1, 10)
end

-- The per-game variance of the score of w wins, d draws, l losses.
local function score_variance(w, d, l)
  local n = w + d + l
  local s = (w + d / 2) / n
  return (w * (1 - s) ^ 2 + d * (0.5 - s) ^ 2 + l * s ^ 2) / n
end

-- Elo difference for w wins, d draws, l losses, with its 95% interval (a
-- normal approximation of the mean score, mapped through elo_of).
function M.elo(w, d, l)
  local n = w + d + l
  if n == 0 then return 0, -math.huge, math.huge end
  local s = (w + d / 2) / n
  local var = score_variance(w, d, l)
  if var == 0 then
    -- every game the same result: the variance of the counts with half a
    -- game added to each outcome, so that the interval has a finite end
    var = score_variance(w + 0.5, d + 0.5, l + 0.5)
  end
  local se = math.sqrt(var / n)
  return M.elo_of(s), M.elo_of(s - 1.96 * se), M.elo_of(s + 1.96 * se)
end

-- Sequential probability ratio test of H0: elo = elo0 against H1: elo =
-- elo1 (a normal approximation of the trinomial GSPRT). decision: "H1"
-- (accept elo1: the first side is stronger), "H0", or nil (go on).
function M.sprt(w, d, l, elo0, elo1, alpha, beta)
  alpha, beta = alpha or 0.05, beta or 0.05
  local lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
  local n = w + d + l
  if n == 0 then return 0, lower, upper, nil end
  local s = (w + d / 2) / n
  -- the variance from counts with half a game added to each outcome, so
  -- that it is never 0 (all wins) early on
  local var = score_variance(w + 0.5, d + 0.5, l + 0.5)
  local s0, s1 = M.expected(elo0), M.expected(elo1)
  local llr = (s1 - s0) * (2 * n * s - n * (s0 + s1)) / (2 * var)
  local decision = llr >= upper and "H1" or llr <= lower and "H0" or nil
  return llr, lower, upper, decision
end

-- Wilson score interval for k successes in n trials: low, high (0, 0 for n = 0).
function M.wilson(k, n, z)
  z = z or M.Z95
  if n == 0 then return 0, 0 end
  local p = k / n
  local z2 = z * z
  local denom = 1 + z2 / n
  local center = (p + z2 / (2 * n)) / denom
  local half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
  return math.max(0, center - half), math.min(1, center + half)
end

-- Difference of two proportions k1/n1 - k2/n2 with its interval by
-- Newcombe's hybrid score method (method 10 of Newcombe 1998, built on
-- Wilson intervals): d, low, high. nil when a sample is empty.
function M.newcombe(k1, n1, k2, n2, z)
  if n1 == 0 or n2 == 0 then return nil end
  local p1, p2 = k1 / n1, k2 / n2
  local l1, u1 = M.wilson(k1, n1, z)
  local l2, u2 = M.wilson(k2, n2, z)
  local d = p1 - p2
  return d, d - math.sqrt((p1 - l1) ^ 2 + (u2 - p2) ^ 2), d + math.sqrt((u1 - p1) ^ 2 + (p2 - l2) ^ 2)
end

-- The mean of xs (0 for an empty list), summed in floats.
function M.mean(xs)
  return (M.mean_var(xs))
end

-- The standard error of a share k / n (the normal approximation).
function M.proportion_se(k, n)
  local p = k / n
  return math.sqrt(p * (1 - p) / n)
end

-- Mean and sample variance (divided by n - 1; 0 for fewer than 2 values).
function M.mean_var(xs)
  local n = #xs
  if n == 0 then return 0, 0 end
  local sum = 0.0      -- in floats: a sum of integers would wrap
  for _, x in ipairs(xs) do sum = sum + x end
  local mean = sum / n
  local sq = 0
  for _, x in ipairs(xs) do sq = sq + (x - mean) ^ 2 end
  return mean, n > 1 and sq / (n - 1) or 0
end

-- Difference of two means m1 - m2 (sample variances v1, v2 of n1, n2
-- values) with Welch's unpooled standard error and a normal quantile z
-- (default 95%): d, low, high. nil unless both samples have 2 values.
function M.welch(m1, v1, n1, m2, v2, n2, z)
  if n1 < 2 or n2 < 2 then return nil end
  z = z or M.Z95
  local d = m1 - m2
  local se = math.sqrt(v1 / n1 + v2 / n2)
  return d, d - z * se, d + z * se
end

-- ---- design research: p-values, Holm, power, logistic fits -------------------
-- (used by cheskers.measures and the experiment report)

-- The standard normal distribution function. erfc by the Chebyshev-fitted
-- exponential of Numerical Recipes' erfcc (fractional error < 1.2e-7).
function M.normal_cdf(z)
  local x = math.abs(z) / math.sqrt(2)
  local t = 1 / (1 + 0.5 * x)
  local poly = -x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
    + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
    + t * (-0.82215223 + t * 0.17087277))))))))
  local erfc = t * math.exp(poly)
  return z >= 0 and 1 - erfc / 2 or erfc / 2
end

-- The normal quantile (inverse of normal_cdf) by bisection: exact to 1e-10.
function M.normal_quantile(p)
  assert(p > 0 and p < 1, "normal_quantile: p must be in (0, 1)")
  local lo, hi = -40.0, 40.0
  for _ = 1, 200 do
    local mid = (lo + hi) / 2
    if M.normal_cdf(mid) < p then lo = mid else hi = mid end
    if hi - lo < 1e-10 then break end
  end
  return (lo + hi) / 2
end

-- Two-sided p-value of a z statistic.
function M.p_two_sided(z) return 2 * (1 - M.normal_cdf(math.abs(z))) end

-- Two-sided p-value of k1/n1 = k2/n2 (pooled two-proportion z-test); 1
-- when the pooled rate is 0 or 1 (no evidence of a difference).
function M.p_proportions(k1, n1, k2, n2)
  if n1 == 0 or n2 == 0 then return 1 end
  local p = (k1 + k2) / (n1 + n2)
  local se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
  if se == 0 then return 1 end
  return M.p_two_sided((k1 / n1 - k2 / n2) / se)
end

-- Two-sided p-value of Welch's z for a difference of means (1 when both
-- variances are 0 and the means equal, 0 when they differ).
function M.p_welch(m1, v1, n1, m2, v2, n2)
  if n1 < 2 or n2 < 2 then return 1 end
  local se = math.sqrt(v1 / n1 + v2 / n2)
  if se == 0 then return m1 == m2 and 1 or 0 end
  return M.p_two_sided((m1 - m2) / se)
end

-- The positions 1..#ps ordered by ascending p-value.
local function ascending(ps)
  local idx = {}
  for i = 1, #ps do idx[i] = i end
  table.sort(idx, function(a, b) return ps[a] < ps[b] end)
  return idx
end

-- Holm's step-down adjustment of a list of p-values (Holm 1979): the
-- adjusted list, in the same order. A test is significant at level a when
-- its adjusted p < a; the family-wise error rate is then <= a under any
-- dependence between the tests.
function M.holm(ps)
  local m, idx = #ps, ascending(ps)
  local adj, running = {}, 0
  for rank, i in ipairs(idx) do
    running = math.max(running, math.min(1, (m - rank + 1) * ps[i]))
    adj[i] = running
  end
  return adj
end

-- Benjamini and Hochberg's (1995) step-up adjustment of a list of p-values:
-- the q-values, in the same order. Declaring every test with q < a keeps
-- the expected share of false discoveries among them <= a (for independent
-- or positively dependent tests): a weaker promise than Holm's, for the
-- exploratory tests of a report. q(i) = min over j >= i of m p(j) / j, p
-- sorted ascending, at most 1.
function M.bh(ps)
  local m, idx = #ps, ascending(ps)
  local q, running = {}, 1
  for rank = m, 1, -1 do
    local i = idx[rank]
    running = math.min(running, m * ps[i] / rank)
    q[i] = running
  end
  return q
end

-- The p-value of equivalence within +-margin by two one-sided tests
-- (Schuirmann 1987): the larger of the p-values of "d <= -margin" and of
-- "d >= margin". interval(z) -> lo, hi is the estimate's two-sided interval
-- at the normal quantile z (Newcombe's for rates, Welch's for means); each
-- one-sided p is 1 - Phi(z) at the z where that end of the interval touches
-- the margin, so that "equivalent at 5%" is "the 90% interval lies inside
-- (-margin, margin)". 1 when the estimate d is not inside the margins.
function M.tost(interval, d, margin)
  if d ~= d or math.abs(d) >= margin then return 1 end
  local function one_sided(reaches)   -- reaches(z): that end is at or past the margin
    local lo, hi = 0.0, 40.0
    if not reaches(hi) then return 0 end
    for _ = 1, 200 do
      local mid = (lo + hi) / 2
      if reaches(mid) then hi = mid else lo = mid end
      if hi - lo < 1e-10 then break end
    end
    return 1 - M.normal_cdf((lo + hi) / 2)
  end
  local p_high = one_sided(function(z) local _, hi = interval(z) return hi >= margin end)
  local p_low = one_sided(function(z) local lo = interval(z) return lo <= -margin end)
  return math.max(p_low, p_high)
end

-- The upper tail of the chi-square distribution with df (a positive
-- integer) degrees of freedom, in closed form: for even df,
-- exp(-x/2) sum_{k < df/2} (x/2)^k / k!; for odd df, 2 (1 - Phi(sqrt x))
-- + sqrt(2 x / pi) exp(-x/2) sum_{k = 1}^{(df-1)/2} x^(k-1) / (1 3 5 ... (2k-1)).
function M.chi2_sf(x, df)
  if x <= 0 then return 1 end
  local h = x / 2
  if df % 2 == 0 then
    local term, sum = 1.0, 1.0
    for k = 1, df / 2 - 1 do term = term * h / k; sum = sum + term end
    return math.min(1, math.exp(-h) * sum)
  end
  local term, sum = math.sqrt(2 * x / math.pi) * math.exp(-h), 0.0
  for k = 1, (df - 1) // 2 do
    if k > 1 then term = term * x / (2 * k - 1) end
    sum = sum + term
  end
  return math.min(1, 2 * (1 - M.normal_cdf(math.sqrt(x))) + sum)
end

-- Cochran's Q test of whether k independent estimates ds (standard errors
-- ses) differ: Q = sum w_i (d_i - dbar)^2, w_i = 1 / se_i^2, dbar their
-- weighted mean, against chi-square with k - 1 degrees of freedom. With
-- the differences between two variants at k strengths, this is the test of
-- the variant x strength interaction; for k = 2 it is the z-test of the
-- difference of the two differences (Q = z^2). q, df, p; nil when fewer
-- than 2 estimates or a standard error is 0.
function M.heterogeneity(ds, ses)
  local k = #ds
  if k < 2 then return nil end
  local sw, swd = 0, 0
  for i = 1, k do
    if ses[i] ~= ses[i] or ses[i] <= 0 then return nil end
    local w = 1 / ses[i] ^ 2
    sw, swd = sw + w, swd + w * ds[i]
  end
  local mean, q = swd / sw, 0
  for i = 1, k do q = q + (ds[i] - mean) ^ 2 / ses[i] ^ 2 end
  return q, k - 1, M.chi2_sf(q, k - 1)
end

-- Games per variant needed to tell win rate p1 from p2 with a two-sided
-- test at level alpha (default 0.05) with the given power (default 0.8):
-- the normal approximation of Fleiss (1981), rounded up.
function M.power_n(p1, p2, alpha, power)
  alpha, power = alpha or 0.05, power or 0.8
  if p1 == p2 then return math.huge end
  local za, zb = M.normal_quantile(1 - alpha / 2), M.normal_quantile(power)
  local pbar = (p1 + p2) / 2
  local num = za * math.sqrt(2 * pbar * (1 - pbar)) + zb * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
  return math.ceil(num * num / ((p1 - p2) ^ 2))
end

-- Mean of xs with its 95% normal interval (z * s / sqrt(n)): mean, lo, hi;
-- nil for an empty list, the mean alone as its interval for one value.
function M.mean_ci(xs, z)
  if #xs == 0 then return nil end
  local m, v = M.mean_var(xs)
  local half = (z or M.Z95) * math.sqrt(v / #xs)
  return m, m - half, m + half
end

-- The z statistic of the difference b - a of two independent estimates
-- {value, lo, hi} with 95% normal intervals: each standard error read off
-- its interval, (hi - lo) / (2 * 1.96); 0 when both intervals are points.
function M.z_difference(a, b)
  local se = math.sqrt(((a.hi - a.lo) / (2 * M.Z95)) ^ 2 + ((b.hi - b.lo) / (2 * M.Z95)) ^ 2)
  return se > 0 and (b.value - a.value) / se or 0
end

-- Solves the k x k system A x = b (b may be nil) by Gauss-Jordan
-- elimination with partial pivoting and also returns A's inverse; nil when
-- A is singular to working precision: a pivot below k * 2^-52 times the
-- largest entry of A. The limit is relative, so that a matrix of small
-- entries (an information matrix of few games) still inverts, and one that
-- is singular but for rounding (rows 1 2 3 / 4 5 6 / 7 8 9) does not.
local function solve_inverse(A, b)
  local k = #A
  local a, inv, x = {}, {}, {}
  local scale = 0
  for i = 1, k do
    a[i], inv[i], x[i] = {}, {}, b and b[i] or 0
    for j = 1, k do
      a[i][j], inv[i][j] = A[i][j], i == j and 1 or 0
      scale = math.max(scale, math.abs(A[i][j]))
    end
  end
  local tiny = k * 2 ^ -52 * scale
  for c = 1, k do
    local piv = c
    for r = c + 1, k do if math.abs(a[r][c]) > math.abs(a[piv][c]) then piv = r end end
    if math.abs(a[piv][c]) <= tiny then return nil end
    a[c], a[piv], inv[c], inv[piv], x[c], x[piv] = a[piv], a[c], inv[piv], inv[c], x[piv], x[c]
    local d = a[c][c]
    for j = 1, k do a[c][j], inv[c][j] = a[c][j] / d, inv[c][j] / d end
    x[c] = x[c] / d
    for r = 1, k do
      local f = a[r][c]
      if r ~= c and f ~= 0 then
        for j = 1, k do a[r][j], inv[r][j] = a[r][j] - f * a[c][j], inv[r][j] - f * inv[c][j] end
        x[r] = x[r] - f * x[c]
      end
    end
  end
  return x, inv
end
M.solve_inverse = solve_inverse

local function sigmoid(t) return 1 / (1 + math.exp(-t)) end

-- One IRLS step's gradient X'(y - p) and information X'WX at beta (the
-- linear predictor X beta + offset), with the ridge penalty ridge/2 *
-- |beta - center|^2 (0: none; center nil: 0) taken off the likelihood.
-- Zero features are skipped and the information's lower half copied from
-- the upper: fits over many sparse rows (cheskers.tune) take half the time.
local function logistic_parts(X, y, beta, ridge, center, offset)
  local k = #beta
  local g, H = {}, {}
  for i = 1, k do g[i], H[i] = 0, {} for j = 1, k do H[i][j] = 0 end end
  for r, row in ipairs(X) do
    local eta = offset and offset[r] or 0
    for j = 1, k do eta = eta + row[j] * beta[j] end
    local p = sigmoid(eta)
    local w, res = p * (1 - p), y[r] - p
    for i = 1, k do
      local xi = row[i]
      if xi ~= 0 then
        g[i] = g[i] + xi * res
        local wi, Hi = w * xi, H[i]
        for j = i, k do Hi[j] = Hi[j] + wi * row[j] end
      end
    end
  end
  for i = 1, k do
    for j = 1, i - 1 do H[i][j] = H[j][i] end
    g[i], H[i][i] = g[i] - ridge * (beta[i] - (center and center[i] or 0)), H[i][i] + ridge
  end
  return g, H
end

-- The cluster-robust (sandwich) covariance H^-1 (sum_c s_c s_c') H^-1 of a
-- fit, s_c the score of cluster c (Liang and Zeger 1986): positions of
-- one game are not independent.
local function sandwich(X, y, beta, Hinv, clusters, offset)
  local k = #beta
  local score, order = {}, {}
  for r, row in ipairs(X) do
    local eta = offset and offset[r] or 0
    for j = 1, k do eta = eta + row[j] * beta[j] end
    local res = y[r] - sigmoid(eta)
    local c = clusters[r]
    if not score[c] then score[c] = {} for j = 1, k do score[c][j] = 0 end order[#order + 1] = c end
    for j = 1, k do score[c][j] = score[c][j] + row[j] * res end
  end
  local meat = {}
  for i = 1, k do meat[i] = {} for j = 1, k do meat[i][j] = 0 end end
  for _, c in ipairs(order) do
    local s = score[c]
    for i = 1, k do for j = 1, k do meat[i][j] = meat[i][j] + s[i] * s[j] end end
  end
  local cov = {}
  for i = 1, k do
    cov[i] = {}
    for j = 1, k do
      local sum = 0
      for a = 1, k do
        for b = 1, k do sum = sum + Hinv[i][a] * meat[a][b] * Hinv[b][j] end
      end
      cov[i][j] = sum
    end
  end
  return cov
end

-- Logistic regression of y (0..1; a draw may be 0.5) on the rows of X (each
-- a list of k numbers; put a 1 in for an intercept) by Newton-Raphson
-- (iteratively reweighted least squares). Returns {beta =, cov = (the
-- inverse of the information matrix), cov_cluster = (sandwich by
-- clusters, when given), iterations =}, or nil and a reason (singular
-- information: a column constant or collinear; no convergence: separated
-- data). opts: ridge (lambda >= 0: maximises the log likelihood minus
-- lambda/2 * |beta - center|^2, which makes a singular or separated fit
-- finite; cov is then the inverse of the penalised information), center
-- (a list of k numbers, default 0: what the penalty pulls beta towards),
-- offset (a list of one number a row, added to its linear predictor: a
-- part of the model that is not fitted), progress (function(iteration)
-- before each Newton step).
function M.logistic(X, y, clusters, max_iter, opts)
  local k = X[1] and #X[1] or 0
  if k == 0 then return nil, "no data" end
  local ridge, center, offset = opts and opts.ridge or 0, opts and opts.center, opts and opts.offset
  local progress = opts and opts.progress
  local beta = {}
  for j = 1, k do beta[j] = 0 end
  for it = 1, max_iter or 50 do
    if progress then progress(it) end
    local g, H = logistic_parts(X, y, beta, ridge, center, offset)
    local step = solve_inverse(H, g)
    if not step then   -- at the start: a column constant or collinear; later: p -> 0 or 1
      return nil, it == 1 and "singular information matrix" or "no convergence (separated data)"
    end
    local big = 0
    for j = 1, k do beta[j] = beta[j] + step[j]; big = math.max(big, math.abs(step[j])) end
    if big > 1e3 then return nil, "no convergence (separated data)" end
    if big < 1e-9 then
      local _, H2 = logistic_parts(X, y, beta, ridge, center, offset)
      local _, cov = solve_inverse(H2, nil)
      if not cov then return nil, "singular information matrix" end
      local fit = { beta = beta, cov = cov, iterations = it }
      if clusters then fit.cov_cluster = sandwich(X, y, beta, cov, clusters, offset) end
      return fit
    end
  end
  return nil, "no convergence"
end

-- The ratio a / b of two estimates with its 95% interval by the delta
-- method: var(a/b) = va/b^2 + a^2 vb/b^4 - 2 a cab/b^3. r, lo, hi, se.
function M.ratio_ci(a, b, va, vb, cab, z)
  local r = a / b
  local var = va / b ^ 2 + a ^ 2 * vb / b ^ 4 - 2 * a * cab / b ^ 3
  local se = math.sqrt(math.max(0, var))
  z = z or M.Z95
  return r, r - z * se, r + z * se, se
end

-- Fieller's (1954) interval for the ratio a / b of two normal estimates
-- (variances va, vb, covariance cab): the values r for which a - r b = 0
-- is not rejected, the roots of
--   r^2 (b^2 - z^2 vb) - 2 r (a b - z^2 cab) + (a^2 - z^2 va) = 0.
-- Unlike the delta method it is not symmetric: it stretches towards the
-- side where the denominator's uncertainty pushes the ratio. lo, hi, true
-- when b differs from 0 at this level (b^2 > z^2 vb); otherwise -inf,
-- +inf, false: the data bound the ratio on no side (the exact set is then
-- the whole line or two unbounded rays; either way no usable interval).
function M.fieller(a, b, va, vb, cab, z)
  z = z or M.Z95
  local z2 = z * z
  local qa, qb, qc = b * b - z2 * vb, a * b - z2 * cab, a * a - z2 * va
  if qa <= 0 then return -math.huge, math.huge, false end
  local root = math.sqrt(math.max(0, qb * qb - qa * qc))
  return (qb - root) / qa, (qb + root) / qa, true
end

-- Quantile q (0..1) of a sorted list, linear interpolation between order
-- statistics (the "type 7" of Hyndman and Fan, R's default).
function M.quantile(sorted, q)
  local n = #sorted
  if n == 0 then return 0 end
  local h = (n - 1) * q + 1
  local lo = math.floor(h)
  if lo >= n then return sorted[n] end
  return sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo])
end

-- ---- ratings (tournaments) ----
--
--   stats.ratings(pairs, n [, opts]) -> r       ratings of n players by
--       maximum likelihood in Davidson's model of draws (below)
--     pairs: list of {i, j, w, d, l}: i won w, drew d and lost l games against j
--     opts.prior: virtual draws added to each pairing that was played
--       (as half a win and half a loss each, in the strength part only),
--       default 0; they make a perfect score finite
--     r.elo[i], r.lo[i], r.hi[i]   Elo, mean 0, with its 95% interval
--     r.se[i]                      its standard error (Elo)
--     r.cov[i][j]                  their covariance (Elo^2)
--     r.nu                         the draw parameter (0 without draws)
--     r.finite                     false when some rating is unbounded
--                                  (the pairings' results are not
--                                  strongly connected; then r.elo are
--                                  the last iterate, useless)
--   stats.los(r, i, j) -> p          likelihood that i is stronger than j
--
-- Davidson (1970): with strengths p_i = exp(t_i) and draw parameter nu,
--   P(i beats j) = p_i / D,  P(draw) = nu sqrt(p_i p_j) / D,  P(j beats i) = p_j / D,
--   D = p_i + p_j + nu sqrt(p_i p_j).
-- The win/loss odds are p_i / p_j, so Elo = 400 / ln 10 * t. The log
-- likelihood is concave in (t, ln nu); it is maximized by Newton's method
-- with step halving, t_1 held at 0, then shifted so the mean is 0. The
-- intervals come from the observed information matrix (the negative
-- Hessian at the maximum), inverted: a normal approximation. With no draws
-- nu is 0 (plain Bradley-Terry); with no decisive game nu is not fitted.
-- LOS is Phi((t_i - t_j) / sd(t_i - t_j)) from the same matrix.

local ELO_PER_NAT = 400 / math.log(10)

-- The inverse of the k x k matrix a (solve_inverse), or nil.
local function invert(a)
  local _, inv = solve_inverse(a)
  return inv
end

-- Whether every player can be reached from every other along "scored
-- against" edges (a win or a draw of i against j: i -> j): the condition
-- for finite maximum likelihood strengths.
local function strongly_connected(pairs, n, prior)
  local out = {}
  for i = 1, n do out[i] = {} end
  for _, p in ipairs(pairs) do
    local met = p.w + p.d + p.l > 0 and prior > 0
    if p.w + p.d > 0 or met then out[p.i][#out[p.i] + 1] = p.j end
    if p.l + p.d > 0 or met then out[p.j][#out[p.j] + 1] = p.i end
  end
  local function reach(from, edges)
    local seen, stack, count = { [from] = true }, { from }, 1
    while #stack > 0 do
      local v = table.remove(stack)
      for _, u in ipairs(edges[v]) do
        if not seen[u] then seen[u], count = true, count + 1; stack[#stack + 1] = u end
      end
    end
    return count
  end
  local back = {}
  for i = 1, n do back[i] = {} end
  for v = 1, n do for _, u in ipairs(out[v]) do back[u][#back[u] + 1] = v end end
  return reach(1, out) == n and reach(1, back) == n
end

-- The parameters: t_2..t_n at 2..n, ln nu at n + 1 when fitted (t_1 = 0).
local function param_index(n, fit_nu)
  return function(i) return i > 1 and i - 1 or nil end, fit_nu and n or nil
end

-- Log likelihood, gradient and Hessian of the parameters x.
local function likelihood(pairs, n, x, s)
  local idx, lam_i = param_index(n, s.fit_nu)
  local k = n - 1 + (s.fit_nu and 1 or 0)
  local g, h = {}, {}
  for r = 1, k do g[r] = 0; h[r] = {}; for c = 1, k do h[r][c] = 0 end end
  local nu = s.fit_nu and math.exp(x[lam_i]) or s.nu
  local function t(i) return idx(i) and x[idx(i)] or 0 end
  local ll = 0
  for _, p in ipairs(pairs) do
    local n_ij = p.w + p.d + p.l
    if n_ij > 0 then
      local ti, tj = t(p.i), t(p.j)
      local m = math.max(ti, tj)
      local ew, el = math.exp(ti - m), math.exp(tj - m)
      local ed = nu * math.exp((ti + tj) / 2 - m)
      local den = ew + el + ed
      local pw, pl, pd = ew / den, el / den, ed / den
      local logd = m + math.log(den)
      ll = ll + p.w * (ti - logd) + p.l * (tj - logd)
      if p.d > 0 then ll = ll + p.d * (math.log(nu) + (ti + tj) / 2 - logd) end
      -- in (t_i, t_j, ln nu): outcomes u_w = (1,0,0), u_l = (0,1,0), u_d = (1/2,1/2,1)
      local mean = { pw + pd / 2, pl + pd / 2, pd }
      local obs = { p.w + p.d / 2, p.l + p.d / 2, p.d }
      local uu = { { pw + pd / 4, pd / 4, pd / 2 }, { pd / 4, pl + pd / 4, pd / 2 }, { pd / 2, pd / 2, pd } }
      local where = { idx(p.i), idx(p.j), lam_i }
      for a = 1, 3 do
        local ra = where[a]
        if ra then
          g[ra] = g[ra] + obs[a] - n_ij * mean[a]
          for b = 1, 3 do
            local cb = where[b]
            if cb then h[ra][cb] = h[ra][cb] - n_ij * (uu[a][b] - mean[a] * mean[b]) end
          end
        end
      end
      if s.prior > 0 then
        -- prior/2 virtual wins and losses: plain Bradley-Terry terms
        local q = 1 / (1 + math.exp(tj - ti))
        ll = ll + s.prior / 2 * (math.log(q) + math.log(1 - q))
        local gi, hv = s.prior / 2 - s.prior * q, s.prior * q * (1 - q)
        local ri, rj = idx(p.i), idx(p.j)
        if ri then g[ri] = g[ri] + gi; h[ri][ri] = h[ri][ri] - hv end
        if rj then g[rj] = g[rj] - gi; h[rj][rj] = h[rj][rj] - hv end
        if ri and rj then h[ri][rj] = h[ri][rj] + hv; h[rj][ri] = h[rj][ri] + hv end
      end
    end
  end
  return ll, g, h, k
end

-- Newton's method with step halving from x = 0 (nu = 1): the maximum.
local function maximize(pairs, n, s)
  local k = n - 1 + (s.fit_nu and 1 or 0)
  local x = {}
  for r = 1, k do x[r] = 0 end
  local ll, g, h = likelihood(pairs, n, x, s)
  for _ = 1, 200 do
    local neg = {}
    for r = 1, k do neg[r] = {}; for c = 1, k do neg[r][c] = -h[r][c] end end
    local inv = invert(neg)
    if not inv then break end
    local step, big = {}, 0
    for r = 1, k do
      step[r] = 0
      for c = 1, k do step[r] = step[r] + inv[r][c] * g[c] end
      big = math.max(big, math.abs(step[r]))
    end
    if big < 1e-12 then break end
    local scale, moved = 1, false
    for _ = 1, 60 do
      local y = {}
      for r = 1, k do y[r] = x[r] + scale * step[r] end
      local ll2, g2, h2 = likelihood(pairs, n, y, s)
      if ll2 >= ll - 1e-12 then x, ll, g, h, moved = y, ll2, g2, h2, true break end
      scale = scale / 2
    end
    if not moved or big * scale < 1e-10 then break end
  end
  return x, h, k
end

-- Covariance of (t_1..t_n) with t_1 = 0, from the inverse of the
-- information about t_2..t_n (nu's row included in the inversion).
local function anchored_cov(h, n, k)
  local neg = {}
  for r = 1, k do neg[r] = {}; for c = 1, k do neg[r][c] = -h[r][c] end end
  local inv = invert(neg)
  local cov = {}
  for i = 1, n do
    cov[i] = {}
    for j = 1, n do
      cov[i][j] = (inv and i > 1 and j > 1) and inv[i - 1][j - 1] or (inv and 0 or math.huge)
    end
  end
  return cov
end

-- The covariance of t_i - mean(t): A C A' with A = I - J/n.
local function centred_cov(c, n)
  local row, total = {}, 0
  for i = 1, n do
    row[i] = 0
    for j = 1, n do row[i] = row[i] + c[i][j] end
    total = total + row[i]
  end
  local out = {}
  for i = 1, n do
    out[i] = {}
    for j = 1, n do
      out[i][j] = (c[i][j] - row[i] / n - row[j] / n + total / (n * n)) * ELO_PER_NAT ^ 2
    end
  end
  return out
end

function M.ratings(pairs, n, opts)
  local prior = opts and opts.prior or 0
  local draws, decisive = 0, 0
  for _, p in ipairs(pairs) do draws, decisive = draws + p.d, decisive + p.w + p.l end
  local s = { prior = prior, fit_nu = draws > 0 and decisive > 0, nu = draws > 0 and 1e6 or 0 }
  local r = { n = n, elo = {}, lo = {}, hi = {}, se = {}, prior = prior }
  r.finite = n < 2 or strongly_connected(pairs, n, prior)
  if n < 2 then r.elo[1], r.lo[1], r.hi[1], r.se[1], r.nu, r.cov = 0, 0, 0, 0, 0, { { 0 } } return r end
  local x, h, k = maximize(pairs, n, s)
  r.nu = s.fit_nu and math.exp(x[n]) or s.nu
  local t, mean = { 0 }, 0
  for i = 2, n do t[i] = x[i - 1] end
  for i = 1, n do mean = mean + t[i] / n end
  local cov = centred_cov(anchored_cov(h, n, k), n)
  r.cov = cov
  for i = 1, n do
    r.elo[i] = (t[i] - mean) * ELO_PER_NAT
    r.se[i] = math.sqrt(math.max(0, cov[i][i]))
    r.lo[i], r.hi[i] = r.elo[i] - M.Z95 * r.se[i], r.elo[i] + M.Z95 * r.se[i]
  end
  return r
end

function M.los(r, i, j)
  local var = r.cov[i][i] + r.cov[j][j] - 2 * r.cov[i][j]
  local d = r.elo[i] - r.elo[j]
  if var ~= var or var <= 0 or var == math.huge then return d > 0 and 1 or d < 0 and 0 or 0.5 end
  return M.normal_cdf(d / math.sqrt(var))
end

-- ---- racing (cheskers.design) ------------------------------------------------------

-- The two-sided normal quantile of each of m intervals whose family-wise
-- error is at most alpha (Bonferroni: each interval at level alpha / m, so
-- the chance that any of them misses its true value is at most alpha,
-- whatever their dependence).
function M.bonferroni_z(alpha, m)
  return M.normal_quantile(1 - alpha / (2 * m))
end

-- The interval of the mean of n values in [0, 1] (a score counting a draw
-- 1/2, a share of games): Wilson's score interval with mean * n successes.
-- The variance of such a value is at most mean * (1 - mean), a Bernoulli's,
-- so the interval holds for draws too (conservatively), and unlike the
-- normal interval it is not a point when every game ended alike.
function M.bounded_mean_ci(mean, n, z)
  return M.wilson(mean * n, n, z)
end

return M
