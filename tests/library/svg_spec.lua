-- tests/library/svg_spec.lua - board diagrams (cheskers.svg) as a reader sees them:
-- the caption, the labelled side-to-move line, the margin around the
-- drawing. (Pieces, arrows, highlights and flipping: puzzle_spec.lua.)
-- The numbers are worked out from the drawing's design: squares of 50
-- units, 20 units for the rank numbers on the left and the file letters
-- below, a 2-unit border, a 24-unit side-to-move line, a 30-unit caption,
-- and a margin of 12 units on every side.
local cheskers = require "cheskers"
local svg = require "cheskers.svg"

local function count(text, plain)
  local n, i = 0, 1
  while true do
    local s, e = text:find(plain, i, true)
    if not s then return n end
    n, i = n + 1, e + 1
  end
end

local function viewbox(text)
  local w, h = text:match('viewBox="0 0 (%d+) (%d+)"')
  return tonumber(w), tonumber(h)
end

local function board_offset(text)
  local x, y = text:match('<g class="board" transform="translate%((%d+) (%d+)%)">')
  return tonumber(x), tonumber(y)
end

describe("SVG diagrams as a reader sees them", function()
  it("shows the title as a visible caption above the board (and as <title>)", function()
    local text = svg.render(cheskers.new(), { title = "Golomb & <start>" })
    assert.equal(1, count(text, "<title>Golomb &amp; &lt;start&gt;</title>"))
    local caption = text:match('<text class="caption"[^>]*>([^<]*)</text>')
    assert.equal("Golomb &amp; &lt;start&gt;", caption)
    -- the caption sits in the band above the board group
    local y = tonumber(text:match('<text class="caption" x="[%d.]+" y="(%d+)"'))
    local _, top = board_offset(text)
    assert.is_true(y > 12 and y < top, "caption at y=" .. y .. ", board from " .. top)
  end)

  it("has no caption without a title", function()
    local text = svg.render(cheskers.new())
    assert.equal(0, count(text, 'class="caption"'))
    assert.equal(0, count(text, "<title>"))
  end)

  it("labels the side to move in words", function()
    local b = cheskers.new()          -- Black moves first (docs/reference/rules.md)
    assert.equal(1, count(b:svg(), ">Black to move</text>"))
    b:play("d6-e5")
    local text = b:svg()
    assert.equal(1, count(text, ">White to move</text>"))
    assert.equal(0, count(text, "Black to move"))
    assert.equal(0, count(b:svg { turn = false }, "to move"))
  end)

  it("leaves a margin of 12 units on every side", function()
    -- width: 12 + 20 (rank numbers) + 8 * 50 + 2 (border) + 12 = 446;
    -- height: 12 + 8 * 50 + 2 + 20 (file letters) + 24 (side to move) + 12 = 470
    local text = svg.render(cheskers.new())
    assert.same({ 446, 470 }, { viewbox(text) })
    assert.same({ 12, 12 }, { board_offset(text) })
    -- a caption adds its 30 units above the board
    text = svg.render(cheskers.new(), { title = "t" })
    assert.same({ 446, 500 }, { viewbox(text) })
    assert.same({ 12, 42 }, { board_offset(text) })
    -- without coordinates nor the side to move: 12 + 402 + 12
    text = svg.render(cheskers.new(), { coords = false, turn = false })
    assert.same({ 446, 426 }, { viewbox(text) })
  end)

  it("draws the side-to-move line inside the bottom margin", function()
    local text = svg.render(cheskers.new())
    local _, top = board_offset(text)
    local cy = tonumber(text:match('<g class="turn"><circle cx="%d+" cy="(%d+)" r="7"'))
    local _, h = viewbox(text)
    -- the disc's centre: 402 + 20 + 24 / 2 = 434 in the board group; its
    -- radius 7 leaves 470 - (12 + 434 + 7) = 17 units below it
    assert.equal(434, cy)
    assert.is_true(h - (top + cy + 7) >= 12)
  end)
end)

describe("SVG options", function()
  -- the option table is checked (svg.OPTIONS, cheskers.schema's wording)
  local ROWS = {
    { { flp = true }, "svg: unknown option 'flp' (did you mean 'flip'?)" },
    { { tittle = "x" }, "svg: unknown option 'tittle' (did you mean 'title'?)" },
    { { size = 0 }, "svg: size must be a whole number from 1 to 100000, not 0" },
    { { size = 0 / 0 }, "svg: size must be a whole number from 1 to 100000, not nan" },
    { { flip = "yes" }, "svg: flip must be true or false, not 'yes'" },
    { { highlight = true }, "svg: highlight must be false or a list of squares or moves, not true" },
    { { arrows = "c3-d4" }, "svg: arrows must be a list of moves, not 'c3-d4'" },
    { { title = {} }, "svg: title must be a text or a number, not a table" },
    { 5, "svg must be a table of options, not 5" },
  }
  for _, row in ipairs(ROWS) do
    it("refuses: " .. row[2], function()
      assert.has_error(function() svg.render(cheskers.new(), row[1]) end, row[2])
      assert.has_error(function() cheskers.new():svg(row[1]) end, row[2])
    end)
  end

  it("takes every documented option", function()
    local text = cheskers.new():svg { flip = true, highlight = { "c3" }, arrows = { "c3-d4", { "a1", "b2" } },
                                      size = 300, coords = false, turn = false, title = "t", id = "x" }
    assert.truthy(text:find('width="300"', 1, true))
  end)
end)
