-- cheskers.chart - the SVG chart of an experiment report: win rates with
-- their 95% intervals per variant, and a game-length histogram per variant
-- (shared bins and scale, so the panels compare). Input: the list that
-- cheskers.experiment.summarize returns. Plain SVG 1.1, no scripts, no
-- external fonts: it opens in any browser and in rsvg-convert.
local M = {}

local W = 920              -- chart width
local COLORS = {
  white = { fill = "#f2d38a", stroke = "#8a6a1c", label = "White wins" },
  black = { fill = "#2b4a5c", stroke = "#13232c", label = "Black wins" },
  draw  = { fill = "#a9b4bf", stroke = "#5d6873", label = "Draws" },
}
local SIDES = { "white", "black", "draw" }

local function esc(s)
  return (tostring(s):gsub("[&<>\"']", {
    ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }))
end

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

local function header(add, L, title)
  add('<?xml version="1.0" encoding="UTF-8"?>')
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
  add('<text x="20" y="%d" font-size="10" fill="#777">Dashed red line: median length. Bins of %d %s.</text>',
      L.H - 8, B.width, B.width == 1 and "ply" or "plies")
end

-- The SVG text. title: a heading line.
function M.svg(stats, title)
  local out = {}
  local function add(fmt, ...) out[#out + 1] = fmt:format(...) end
  local several = false
  for _, g in ipairs(stats) do
    if g.experiment ~= stats[1].experiment then several = true end
  end
  local function label(g) return several and (g.experiment .. " / " .. g.variant) or g.variant end
  local L = layout(stats, label)
  header(add, L, title)
  legend(add, L)
  rate_bars(add, L, stats, label)
  histograms(add, L, stats, label)
  add('</svg>')
  return table.concat(out, "\n") .. "\n"
end

return M
