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

-- The SVG text. title: a heading line.
function M.svg(stats, title)
  local out = {}
  local function add(fmt, ...) out[#out + 1] = fmt:format(...) end
  local several = false
  for _, g in ipairs(stats) do
    if g.experiment ~= stats[1].experiment then several = true end
  end
  local function label(g) return several and (g.experiment .. " / " .. g.variant) or g.variant end

  -- ---- geometry ----
  local longest = 10
  for _, g in ipairs(stats) do longest = math.max(longest, #label(g)) end
  local lx = math.min(300, 24 + longest * 7.2)     -- label column
  local px0, px1 = lx + 10, W - 80                  -- plot area of the rate bars
  local bar, gap = 13, 18
  local row = 3 * bar + gap
  local y = 20
  local parts_y = {}
  parts_y.title = y + 14
  y = y + 34
  parts_y.legend = y
  y = y + 26
  parts_y.rates_top = y + 30
  y = parts_y.rates_top + 6 + #stats * row
  parts_y.rates_bottom = y
  y = y + 40
  parts_y.hist_title = y
  y = y + 14
  local cols = #stats > 1 and 2 or 1
  local panel_w = (W - 40 - (cols - 1) * 30) / cols
  local panel_h = 150
  local rows = math.ceil(#stats / cols)
  parts_y.hist_top = y
  local H = y + rows * (panel_h + 62) + 10

  add('<?xml version="1.0" encoding="UTF-8"?>')
  add('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
      .. 'font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">', W, H, W, H)
  add('<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>', W, H)
  add('<text x="20" y="%d" font-size="18" font-weight="bold">%s</text>', parts_y.title,
      esc(title or "Cheskers rule experiment"))

  -- legend
  local x = 20
  for _, side in ipairs(SIDES) do
    local c = COLORS[side]
    add('<rect x="%d" y="%d" width="14" height="14" fill="%s" stroke="%s"/>', x, parts_y.legend,
        c.fill, c.stroke)
    add('<text x="%d" y="%d">%s</text>', x + 20, parts_y.legend + 12, c.label)
    x = x + 120
  end
  add('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000" stroke-width="1.5"/>', x, parts_y.legend + 7,
      x + 24, parts_y.legend + 7)
  add('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000"/>', x, parts_y.legend + 2, x, parts_y.legend + 12)
  add('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000"/>', x + 24, parts_y.legend + 2, x + 24,
      parts_y.legend + 12)
  add('<text x="%d" y="%d">95%% interval (Wilson)</text>', x + 32, parts_y.legend + 12)

  -- ---- win rates ----
  local top, bottom = parts_y.rates_top, parts_y.rates_bottom
  local function px(p) return px0 + p * (px1 - px0) end
  add('<text x="20" y="%d" font-size="14" font-weight="bold">Results per variant</text>', top - 10)
  for i = 0, 4 do
    local gx = px(i / 4)
    add('<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="%s"/>', f(gx), top, f(gx), bottom,
        i == 0 and "#444" or "#ddd")
    add('<text x="%s" y="%d" text-anchor="middle" fill="#444">%d%%</text>', f(gx), bottom + 14, i * 25)
  end
  for i, g in ipairs(stats) do
    local ry = top + 6 + (i - 1) * row
    add('<text x="%s" y="%s" text-anchor="end" font-weight="bold">%s</text>', f(lx), f(ry + bar + 4),
        esc(label(g)))
    add('<text x="%s" y="%s" text-anchor="end" fill="#555" font-size="11">%d games</text>', f(lx),
        f(ry + 2 * bar + 6), g.games)
    for j, side in ipairs(SIDES) do
      local r, c = g.rates[side], COLORS[side]
      local by = ry + (j - 1) * bar
      add('<rect x="%s" y="%s" width="%s" height="%d" fill="%s" stroke="%s" stroke-width="0.6">'
          .. '<title>%s: %.1f%% (95%% CI %.1f-%.1f%%), %d of %d</title></rect>',
          f(px0), f(by + 1), f(math.max(0, px(r.p) - px0)), bar - 2, c.fill, c.stroke,
          esc(c.label), 100 * r.p, 100 * r.lo, 100 * r.hi, g[side], g.games)
      -- the interval: a black whisker on a white halo, visible on any bar
      local cy = by + bar / 2
      local whisker = ('M%s %sV%sM%s %sH%sM%s %sV%s'):format(f(px(r.lo)), f(cy - 4), f(cy + 4),
        f(px(r.lo)), f(cy), f(px(r.hi)), f(px(r.hi)), f(cy - 4), f(cy + 4))
      add('<path d="%s" fill="none" stroke="#fff" stroke-width="3.5" stroke-opacity="0.85"/>', whisker)
      add('<path d="%s" fill="none" stroke="#000" stroke-width="1.4"/>', whisker)
      add('<text x="%s" y="%s" font-size="10" fill="#333">%.1f%%</text>', f(px1 + 8), f(by + bar - 3),
          100 * r.p)
    end
  end

  -- ---- game lengths ----
  add('<text x="20" y="%d" font-size="14" font-weight="bold">Game length (plies), share of games per bin</text>',
      parts_y.hist_title)
  local maxlen = 0
  for _, g in ipairs(stats) do maxlen = math.max(maxlen, g.plies.max or 0) end
  local bw = bin_width(maxlen, 30)
  local nbins = math.floor(maxlen / bw) + 1
  local shares, ymax = {}, 0
  for i, g in ipairs(stats) do
    local counts = {}
    for b = 1, nbins do counts[b] = 0 end
    for _, len in ipairs(g.lengths) do
      local b = math.floor(len / bw) + 1
      counts[b] = counts[b] + 1
    end
    shares[i] = {}
    for b = 1, nbins do
      shares[i][b] = g.games > 0 and counts[b] / g.games or 0
      ymax = math.max(ymax, shares[i][b])
    end
  end
  if ymax == 0 then ymax = 1 end
  ymax = math.ceil(ymax * 20) / 20        -- round up to 5%
  for i, g in ipairs(stats) do
    local c = (i - 1) % cols
    local r = (i - 1) // cols
    local x0 = 20 + c * (panel_w + 30) + 36
    local pw = panel_w - 36
    local y0 = parts_y.hist_top + r * (panel_h + 62) + 24
    local ph = panel_h - 20
    add('<text x="%s" y="%s" font-weight="bold">%s</text>', f(x0), f(y0 - 8), esc(label(g)))
    add('<text x="%s" y="%s" text-anchor="end" fill="#555" font-size="11">median %s, mean %.1f, n=%d</text>',
        f(x0 + pw), f(y0 - 8), ("%g"):format(g.plies.median), g.plies.mean, g.games)
    add('<rect x="%s" y="%s" width="%s" height="%s" fill="#fafafa" stroke="#ccc"/>', f(x0), f(y0), f(pw), f(ph))
    for t = 0, 2 do
      local yy = y0 + ph - t / 2 * ph
      add('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e4e4e4"/>', f(x0), f(yy), f(x0 + pw), f(yy))
      add('<text x="%s" y="%s" text-anchor="end" font-size="10" fill="#444">%g%%</text>', f(x0 - 4),
          f(yy + 3), 100 * ymax * t / 2)
    end
    local colw = pw / nbins
    for b = 1, nbins do
      local s = shares[i][b]
      if s > 0 then
        local h = s / ymax * ph
        add('<rect x="%s" y="%s" width="%s" height="%s" fill="#5b8db8" stroke="#2f5f87" stroke-width="0.5">'
            .. '<title>%d-%d plies: %.1f%%</title></rect>',
            f(x0 + (b - 1) * colw + 0.5), f(y0 + ph - h), f(math.max(0.5, colw - 1)), f(h),
            (b - 1) * bw, b * bw - 1, 100 * s)
      end
    end
    if g.games > 0 then
      local mx = x0 + (g.plies.median / (nbins * bw)) * pw
      add('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#c0392b" stroke-width="1.5" stroke-dasharray="4 3"/>',
          f(mx), f(y0), f(mx), f(y0 + ph))
    end
    local step = math.max(1, math.ceil(nbins / 6))
    for b = 0, nbins, step do
      local xx = x0 + b * colw
      add('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#444"/>', f(xx), f(y0 + ph), f(xx), f(y0 + ph + 4))
      add('<text x="%s" y="%s" text-anchor="middle" font-size="10" fill="#444">%d</text>', f(xx),
          f(y0 + ph + 15), b * bw)
    end
  end
  add('<text x="20" y="%d" font-size="10" fill="#777">Dashed red line: median length. Bins of %d %s.</text>',
      H - 8, bw, bw == 1 and "ply" or "plies")
  add('</svg>')
  return table.concat(out, "\n") .. "\n"
end

return M
