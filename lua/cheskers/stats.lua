-- cheskers.stats - the statistics of matches, experiments and reports (and
-- later tournaments): Elo with its interval, SPRT, Wilson and Newcombe
-- intervals for rates, Welch's interval for a difference of means,
-- quantiles. Pure functions of counts; no I/O.
--
--   stats.Z95                                   1.959963984540054
--   stats.expected(elo) -> score                1 / (1 + 10^(-elo/400))
--   stats.elo_of(score) -> elo                  the inverse (+-inf at 1 and 0)
--   stats.elo(w, d, l) -> elo, lo, hi           Elo difference, 95% interval
--   stats.sprt(w, d, l, elo0, elo1 [, alpha, beta]) -> llr, lower, upper, decision
--   stats.wilson(k, n [, z]) -> lo, hi          Wilson score interval
--   stats.newcombe(k1, n1, k2, n2 [, z]) -> d, lo, hi   (nil when a sample is empty)
--   stats.mean_var(xs) -> mean, variance        sample variance (n - 1)
--   stats.welch(m1, v1, n1, m2, v2, n2 [, z]) -> d, lo, hi
--   stats.quantile(sorted, q) -> x              type 7 (R's default)
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

-- Mean and sample variance (divided by n - 1; 0 for fewer than 2 values).
function M.mean_var(xs)
  local n = #xs
  if n == 0 then return 0, 0 end
  local sum = 0
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

return M
