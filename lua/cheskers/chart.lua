-- cheskers.chart - the SVG charts of experiment reports: win rates with
-- their 95% intervals per variant, and a game-length histogram per variant
-- (shared bins and scale, so the panels compare) (M.svg; input: the list
-- that cheskers.report.summarize returns); estimates with intervals as
-- dots and whiskers (M.intervals: design measures, piece values); the
-- evaluation traces of sample games (M.traces). Plain SVG 1.1, no
-- scripts, no external fonts: it opens in any browser and in rsvg-convert.
-- opts.inline: no XML declaration (for an SVG inside an HTML page).
local M = {}

local W = 920              -- chart width
local COLORS = {
  white = { fill = "#f2d38a", stroke = "#8a6a1c", label = "White wins" },
  black = { fill = "#2b4a5c", stroke = "#13232c", label = "Black wins" },
  draw  = { fill = "#a9b4bf", stroke = "#5d6873", label = "Draws" },
}
local SIDES = { "white", "black", "draw" }

-- Text for XML/HTML: entities, and no byte XML 1.0 forbids (cheskers.escape).
local esc = require("cheskers.escape").xml

local function f(x) return ("%.1f"):format(x) end

-- A bin width from a "nice" list giving at most maxbins bins over 0..top.
local function bin_width(top, maxbins)
  for _, w in ipairs({ 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000 }) do
    if math.floor(top / w) + 1 <= maxbins then return w end
  end
  return math.ceil((top + 1) / maxbins)
end

-- The geometry of the chart: the label column, the plot area of the rate
-- bars, the y of each part, the histogram panels, the height.
local function layout(stats, label)
  local longest = 10
  for _, g in ipairs(stats) do longest = math.max(longest, #label(g)) end
  local L = { bar = 13, gap = 18 }
  L.lx = math.min(300, 24 + longest * 7.2)          -- label column
  L.px0, L.px1 = L.lx + 10, W - 80                  -- plot area of the rate bars
  L.row = 3 * L.bar + L.gap
  local y = 20
  L.title = y + 14
  y = y + 34
  L.legend = y
  y = y + 26
  L.rates_top = y + 30
  y = L.rates_top + 6 + #stats * L.row
  L.rates_bottom = y
  y = y + 40
  L.hist_title = y
  y = y + 14
  L.cols = #stats > 1 and 2 or 1
  L.panel_w = (W - 40 - (L.cols - 1) * 30) / L.cols
  L.panel_h = 150
  L.hist_top = y
  L.H = y + math.ceil(#stats / L.cols) * (L.panel_h + 62) + 10
  return L
end

local function header(add, L, title, inline)
  if not inline then add('<?xml version="1.0" encoding="UTF-8"?>') end
  add('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
      .. 'font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">', W, L.H, W, L.H)
  add('<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>', W, L.H)
  add('<text x="20" y="%d" font-size="18" font-weight="bold">%s</text>', L.title,
      esc(title or "Cheskers rule experiment"))
end

local function legend(add, L)
  local x, ly = 20, L.legend
  for _, side in ipairs(SIDES) do
    local c = COLORS[side]
    add('<rect x="%d" y="%d" width="14" height="14" fill="%s" stroke="%s"/>', x, ly, c.fill, c.stroke)
    add('<text x="%d" y="%d">%s</text>', x + 20, ly + 12, c.label)
    x = x + 120
  end
  add('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000" stroke-width="1.5"/>', x, ly + 7, x + 24, ly + 7)
  add('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000"/>', x, ly + 2, x, ly + 12)
  add('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000"/>', x + 24, ly + 2, x + 24, ly + 12)
  add('<text x="%d" y="%d">95%% interval (Wilson)</text>', x + 32, ly + 12)
end

-- The x of a rate p on the rate bars.
local function rate_x(L, p) return L.px0 + p * (L.px1 - L.px0) end

local function rate_grid(add, L)
  add('<text x="20" y="%d" font-size="14" font-weight="bold">Results per variant</text>', L.rates_top - 10)
  for i = 0, 4 do
    local gx = rate_x(L, i / 4)
    add('<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="%s"/>', f(gx), L.rates_top, f(gx), L.rates_bottom,
        i == 0 and "#444" or "#ddd")
    add('<text x="%s" y="%d" text-anchor="middle" fill="#444">%d%%</text>', f(gx), L.rates_bottom + 14, i * 25)
  end
end

-- One bar of a variant (side's rate at height by) with its interval.
local function rate_bar(add, L, g, side, by)
  local r, c, bar = g.rates[side], COLORS[side], L.bar
  add('<rect x="%s" y="%s" width="%s" height="%d" fill="%s" stroke="%s" stroke-width="0.6">'
      .. '<title>%s: %.1f%% (95%% CI %.1f-%.1f%%), %d of %d</title></rect>',
      f(L.px0), f(by + 1), f(math.max(0, rate_x(L, r.p) - L.px0)), bar - 2, c.fill, c.stroke,
      esc(c.label), 100 * r.p, 100 * r.lo, 100 * r.hi, g[side], g.games)
  -- the interval: a black whisker on a white halo, visible on any bar
  local cy = by + bar / 2
  local lo, hi = rate_x(L, r.lo), rate_x(L, r.hi)
  local whisker = ('M%s %sV%sM%s %sH%sM%s %sV%s'):format(f(lo), f(cy - 4), f(cy + 4),
    f(lo), f(cy), f(hi), f(hi), f(cy - 4), f(cy + 4))
  add('<path d="%s" fill="none" stroke="#fff" stroke-width="3.5" stroke-opacity="0.85"/>', whisker)
  add('<path d="%s" fill="none" stroke="#000" stroke-width="1.4"/>', whisker)
  add('<text x="%s" y="%s" font-size="10" fill="#333">%.1f%%</text>', f(L.px1 + 8), f(by + bar - 3), 100 * r.p)
end

local function rate_bars(add, L, stats, label)
  rate_grid(add, L)
  for i, g in ipairs(stats) do
    local ry = L.rates_top + 6 + (i - 1) * L.row
    add('<text x="%s" y="%s" text-anchor="end" font-weight="bold">%s</text>', f(L.lx), f(ry + L.bar + 4),
        esc(label(g)))
    add('<text x="%s" y="%s" text-anchor="end" fill="#555" font-size="11">%d games</text>', f(L.lx),
        f(ry + 2 * L.bar + 6), g.games)
    for j, side in ipairs(SIDES) do rate_bar(add, L, g, side, ry + (j - 1) * L.bar) end
  end
end

-- The shared bins of the length histograms: width, count, the share of
-- each variant's games per bin, and the top of the scale.
local function length_bins(stats)
  local maxlen = 0
  for _, g in ipairs(stats) do maxlen = math.max(maxlen, g.plies.max or 0) end
  local B = { width = bin_width(maxlen, 30), shares = {}, ymax = 0 }
  B.count = math.floor(maxlen / B.width) + 1
  for i, g in ipairs(stats) do
    local counts = {}
    for b = 1, B.count do counts[b] = 0 end
    for _, len in ipairs(g.lengths) do
      local b = math.floor(len / B.width) + 1
      counts[b] = counts[b] + 1
    end
    B.shares[i] = {}
    for b = 1, B.count do
      B.shares[i][b] = g.games > 0 and counts[b] / g.games or 0
      B.ymax = math.max(B.ymax, B.shares[i][b])
    end
  end
  if B.ymax == 0 then B.ymax = 1 end
  B.ymax = math.ceil(B.ymax * 20) / 20        -- round up to 5%
  return B
end

-- A histogram panel's frame: title, summary, background, y grid.
local function panel_frame(add, P, g, B, name)
  add('<text x="%s" y="%s" font-weight="bold">%s</text>', f(P.x0), f(P.y0 - 8), esc(name))
  add('<text x="%s" y="%s" text-anchor="end" fill="#555" font-size="11">median %s, mean %.1f, n=%d</text>',
      f(P.x0 + P.pw), f(P.y0 - 8), ("%g"):format(g.plies.median), g.plies.mean, g.games)
  add('<rect x="%s" y="%s" width="%s" height="%s" fill="#fafafa" stroke="#ccc"/>', f(P.x0), f(P.y0), f(P.pw), f(P.ph))
  for t = 0, 2 do
    local yy = P.y0 + P.ph - t / 2 * P.ph
    add('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e4e4e4"/>', f(P.x0), f(yy), f(P.x0 + P.pw), f(yy))
    add('<text x="%s" y="%s" text-anchor="end" font-size="10" fill="#444">%g%%</text>', f(P.x0 - 4),
        f(yy + 3), 100 * B.ymax * t / 2)
  end
end

-- A histogram panel's columns, median line and x axis.
local function panel_data(add, P, g, shares, B)
  local colw = P.pw / B.count
  for b = 1, B.count do
    local s = shares[b]
    if s > 0 then
      local h = s / B.ymax * P.ph
      add('<rect x="%s" y="%s" width="%s" height="%s" fill="#5b8db8" stroke="#2f5f87" stroke-width="0.5">'
          .. '<title>%d-%d plies: %.1f%%</title></rect>',
          f(P.x0 + (b - 1) * colw + 0.5), f(P.y0 + P.ph - h), f(math.max(0.5, colw - 1)), f(h),
          (b - 1) * B.width, b * B.width - 1, 100 * s)
    end
  end
  if g.games > 0 then
    local mx = P.x0 + (g.plies.median / (B.count * B.width)) * P.pw
    add('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#c0392b" stroke-width="1.5" stroke-dasharray="4 3"/>',
        f(mx), f(P.y0), f(mx), f(P.y0 + P.ph))
  end
  local step = math.max(1, math.ceil(B.count / 6))
  for b = 0, B.count, step do
    local xx = P.x0 + b * colw
    add('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#444"/>', f(xx), f(P.y0 + P.ph), f(xx), f(P.y0 + P.ph + 4))
    add('<text x="%s" y="%s" text-anchor="middle" font-size="10" fill="#444">%d</text>', f(xx),
        f(P.y0 + P.ph + 15), b * B.width)
  end
end

local function histograms(add, L, stats, label)
  add('<text x="20" y="%d" font-size="14" font-weight="bold">Game length (plies), share of games per bin</text>',
      L.hist_title)
  local B = length_bins(stats)
  for i, g in ipairs(stats) do
    local c, r = (i - 1) % L.cols, (i - 1) // L.cols
    local P = { x0 = 20 + c * (L.panel_w + 30) + 36, pw = L.panel_w - 36,
                y0 = L.hist_top + r * (L.panel_h + 62) + 24, ph = L.panel_h - 20 }
    panel_frame(add, P, g, B, label(g))
    panel_data(add, P, g, B.shares[i], B)
  end
  add('<text x="20" y="%d" font-size="10" fill="#777">Dashed red line: median length. Bins of %s.</text>',
      L.H - 8, require("cheskers").plural(B.width, "ply"))
end

-- The SVG text. title: a heading line; opts.inline (see above).
function M.svg(stats, title, opts)
  local out = {}
  local function add(fmt, ...) out[#out + 1] = fmt:format(...) end
  local several = false
  for _, g in ipairs(stats) do
    if g.experiment ~= stats[1].experiment then several = true end
  end
  local function label(g) return several and (g.experiment .. " / " .. g.variant) or g.variant end
  local L = layout(stats, label)
  header(add, L, title, opts and opts.inline)
  legend(add, L)
  rate_bars(add, L, stats, label)
  histograms(add, L, stats, label)
  add('</svg>')
  return table.concat(out, "\n") .. "\n"
end

-- ---- dots and whiskers ---------------------------------------------------------

-- A "nice" step for about n ticks over a span.
local function tick_step(span, n)
  local raw = span / n
  local mag = 10 ^ math.floor(math.log(raw, 10))
  for _, m in ipairs({ 1, 2, 2.5, 5, 10 }) do
    if m * mag >= raw then return m * mag end
  end
  return 10 * mag
end

local function tick_text(x)
  if x == math.floor(x) then return ("%d"):format(math.floor(x)) end
  return ("%g"):format(tonumber(("%.3g"):format(x)))
end

-- Estimates with their intervals, one row each: rows = list of {label,
-- value, lo, hi} (a row without a value is shown as "-"). opts: title,
-- ref (a value drawn as a dashed line, e.g. 0 or 1), unit (axis label),
-- inline.
function M.intervals(rows, opts)
  opts = opts or {}
  local out = {}
  local function add(fmt, ...) out[#out + 1] = fmt:format(...) end
  local longest = 8
  for _, r in ipairs(rows) do longest = math.max(longest, #r.label) end
  local lx = math.min(320, 24 + longest * 7)
  local x0, x1, rowh, top = lx + 10, W - 40, 20, 44
  local H = top + #rows * rowh + 40
  local lo, hi = opts.ref or math.huge, opts.ref or -math.huge
  for _, r in ipairs(rows) do
    if r.value then lo, hi = math.min(lo, r.lo, r.value), math.max(hi, r.hi, r.value) end
  end
  if lo == math.huge then lo, hi = 0, 1 end
  if hi - lo < 1e-9 then lo, hi = lo - 1, hi + 1 end
  local step = tick_step(hi - lo, 6)
  lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
  local function X(v) return x0 + (v - lo) / (hi - lo) * (x1 - x0) end
  if not opts.inline then add('<?xml version="1.0" encoding="UTF-8"?>') end
  add('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
      .. 'font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">', W, H, W, H)
  add('<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>', W, H)
  add('<text x="20" y="22" font-size="14" font-weight="bold">%s</text>', esc(opts.title or ""))
  local ybot = top + #rows * rowh
  for t = lo, hi + step / 2, step do
    add('<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="#e3e3e3"/>', f(X(t)), top - 6, f(X(t)), ybot)
    add('<text x="%s" y="%d" text-anchor="middle" font-size="10" fill="#555">%s</text>', f(X(t)), ybot + 14,
        tick_text(t))
  end
  if opts.ref then
    add('<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="#c0392b" stroke-dasharray="4 3"/>',
        f(X(opts.ref)), top - 6, f(X(opts.ref)), ybot)
  end
  for i, r in ipairs(rows) do
    local y = top + (i - 1) * rowh + rowh / 2
    add('<text x="%s" y="%s" text-anchor="end">%s</text>', f(lx), f(y + 4), esc(r.label))
    if r.value then
      add('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#2b4a5c" stroke-width="2"/>',
          f(X(r.lo)), f(y), f(X(r.hi)), f(y))
      add('<circle cx="%s" cy="%s" r="4" fill="#f2d38a" stroke="#8a6a1c"/>', f(X(r.value)), f(y))
    else
      add('<text x="%s" y="%s" fill="#777">-</text>', f(x0), f(y + 4))
    end
  end
  add('<text x="%s" y="%d" text-anchor="middle" font-size="11" fill="#333">%s</text>', f((x0 + x1) / 2),
      ybot + 30, esc(opts.unit or "estimate with its 95% interval"))
  add('</svg>')
  return table.concat(out, "\n") .. "\n"
end

-- ---- evaluation traces -----------------------------------------------------------

local TRACE_COLORS = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f" }

-- The evaluation traces of sample games as lines: games = list of {label,
-- trace (centipawns, White's view)}. The axis shows pawns cut at +-limit
-- (default 10). opts: title, limit, inline.
function M.traces(games, opts)
  opts = opts or {}
  local limit = opts.limit or 10
  local out = {}
  local function add(fmt, ...) out[#out + 1] = fmt:format(...) end
  local longest = 1
  for _, g in ipairs(games) do longest = math.max(longest, #g.trace - 1) end
  local x0, x1, y0, y1 = 60, W - 30, 44, 284
  local H = y1 + 40 + math.ceil(#games / 2) * 18
  local function X(i) return x0 + (i - 1) / longest * (x1 - x0) end
  local function Y(cp)
    local p = math.max(-limit, math.min(limit, cp / 100))
    return y0 + (limit - p) / (2 * limit) * (y1 - y0)
  end
  if not opts.inline then add('<?xml version="1.0" encoding="UTF-8"?>') end
  add('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
      .. 'font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">', W, H, W, H)
  add('<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>', W, H)
  add('<text x="20" y="22" font-size="14" font-weight="bold">%s</text>',
      esc(opts.title or "Evaluation after each ply (pawns, White's view)"))
  local step = tick_step(2 * limit, 8)
  for p = -limit, limit + step / 2, step do
    local y = Y(p * 100)
    add('<line x1="%d" y1="%s" x2="%d" y2="%s" stroke="%s"/>', x0, f(y), x1, f(y), p == 0 and "#888" or "#e6e6e6")
    add('<text x="%d" y="%s" text-anchor="end" font-size="10" fill="#555">%s</text>', x0 - 6, f(y + 3), tick_text(p))
  end
  local xs = tick_step(longest, 10)
  for i = 0, longest, xs do
    add('<text x="%s" y="%d" text-anchor="middle" font-size="10" fill="#555">%d</text>', f(X(i + 1)), y1 + 14, i)
  end
  add('<text x="%s" y="%d" text-anchor="middle" font-size="11">ply</text>', f((x0 + x1) / 2), y1 + 28)
  for k, g in ipairs(games) do
    local pts = {}
    for i, cp in ipairs(g.trace) do pts[#pts + 1] = f(X(i)) .. "," .. f(Y(cp)) end
    local color = TRACE_COLORS[(k - 1) % #TRACE_COLORS + 1]
    add('<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>', color, table.concat(pts, " "))
    local lx = 20 + ((k - 1) % 2) * (W / 2)
    local ly = y1 + 46 + ((k - 1) // 2) * 18
    add('<rect x="%d" y="%d" width="14" height="4" fill="%s"/>', lx, ly - 6, color)
    add('<text x="%d" y="%d" font-size="11">%s</text>', lx + 20, ly, esc(g.label))
  end
  add('</svg>')
  return table.concat(out, "\n") .. "\n"
end

return M
