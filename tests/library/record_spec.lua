-- tests/library/record_spec.lua - game records (cheskers.record): written, read back,
-- numbered by the side that moves first, tags, comments, errors.
-- Positions and moves are worked out by hand from docs/reference/rules.md (see
-- the comments); nothing is copied from the program's output.
local cheskers = require "cheskers"
local record = require "cheskers.record"
local rulespec = require "cheskers.rulespec"

local START = "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b 0 1"

-- From the start (Black first): d6-e5, c3-d4; Black must jump e5xc3 (over
-- d4; from c3 the landings a1 and e1 are taken, so the chain ends); White
-- must take back: b2xd4 (or d2xb4).
local GAME = { "d6-e5", "c3-d4", "e5xc3", "b2xd4" }

local function played(moves, fen, rules)
  local b = cheskers.new(fen, rules)
  for _, m in ipairs(moves) do b:play(m) end
  return b
end

local function texts(b)
  local t = {}
  for i, m in ipairs(b:history()) do t[i] = tostring(m) end
  return t
end

-- the tag lines of a record, name -> value
local function tags_of(text)
  local t = {}
  for name, value in text:gmatch('%[(%w+) "(.-)"%]') do t[name] = value end
  return t
end

describe("record.write", function()
  it("numbers the moves with Black first and ends with the result", function()
    local text = record.write(played(GAME))
    assert.truthy(text:find("\n\n1. d6-e5 c3-d4 2. e5xc3 b2xd4 *\n", 1, true))
  end)

  it("writes the Rules, White, Black, Result and Date tags, no FEN from the start", function()
    local t = tags_of(record.write(played(GAME)))
    assert.equal("golomb", t.Rules)
    assert.equal("?", t.White)
    assert.equal("?", t.Black)
    assert.equal("*", t.Result)
    assert.truthy(t.Date:match("^%d%d%d%d%.%d%d%.%d%d$"))
    assert.is_nil(t.FEN)
  end)

  it("writes PGN's seven-tag roster first, in its order, unknown ones as '?'", function()
    -- PGN standard, 8.1.1: Event, Site, Date, Round, White, Black, Result
    local text = record.write(played(GAME), { White = "me", Round = "3.2" })
    local names = {}
    for name in text:gmatch('%[(%w+) "') do names[#names + 1] = name end
    assert.are.same({ "Event", "Site", "Date", "Round", "White", "Black", "Result", "Rules" }, names)
    local t = tags_of(text)
    assert.are.same({ "?", "?", "3.2", "me" }, { t.Event, t.Site, t.Round, t.White })
  end)

  it("writes SetUp \"1\" with a FEN tag (PGN), after the roster", function()
    local text = record.write(played({ "c3xe5" }, "8/8/8/8/3k4/2P5/8/K7 w 0 1"))
    assert.truthy(text:find('[Result "1-0"]\n[Rules "golomb"]\n[SetUp "1"]\n[FEN "8/8/8/8/3k4/2P5/8/K7 w 0 1"]\n',
                            1, true), text)
  end)

  it("keeps the tags it is given, quotes escaped", function()
    local text = record.write(played(GAME), { White = 'Solomon "Sol" Golomb', Black = "Martin",
                                              Date = "1948.01.01", Event = "test" })
    local b, tags = record.read(text)
    assert.truthy(b)
    assert.equal('Solomon "Sol" Golomb', tags.White)
    assert.equal("Martin", tags.Black)
    assert.equal("1948.01.01", tags.Date)
    assert.equal("test", tags.Event)
  end)

  it("writes a FEN tag and 'N...' for a game that starts with the second side", function()
    -- W: Ka1 Pc3; B: kh8 pd4 pf6. White must jump c3xe5xg7.
    local fen = "7k/8/5p2/8/3p4/2P5/8/K7 w 0 1"
    local text = record.write(played({ "c3xe5xg7" }, fen))
    assert.equal(fen, tags_of(text).FEN)
    assert.truthy(text:find("\n1... c3xe5xg7 *\n", 1, true))
  end)

  it("writes the result of a finished game", function()
    -- W: Ka1 Pc3; B: kd4 alone. c3xe5 takes Black's last king: White wins.
    local text = record.write(played({ "c3xe5" }, "8/8/8/8/3k4/2P5/8/K7 w 0 1"))
    assert.equal("1-0", tags_of(text).Result)
    assert.truthy(text:find("c3xe5 1-0\n", 1, true))
  end)

  it("numbers by the rules' first side: White first", function()
    -- first = white: White opens (c3-d4), Black answers (d6-e5)
    local b = played({ "c3-d4", "d6-e5", "d4-c5" }, nil, { first = "white" })
    local text = record.write(b)
    assert.truthy(text:find("\n1. c3-d4 d6-e5 2. d4-c5 *\n", 1, true))
    assert.equal("first=white", tags_of(text).Rules)
  end)

  it("wraps long move text", function()
    local b = cheskers.new()
    for _ = 1, 40 do
      local ms = b:moves()
      if #ms == 0 then break end
      b:play(ms[1])
    end
    for line in record.write(b):gmatch("[^\n]+") do
      assert.truthy(#line <= 79, line)
    end
  end)

  it("never breaks a line between a move number and its move", function()
    -- games of 1 to 120 plies (first legal move each time): the breaks fall
    -- at every place in a move pair
    local b = cheskers.new()
    local wrapped = 0
    for _ = 1, 120 do
      local ms = b:moves()
      if #ms == 0 then break end
      b:play(ms[1])
      local text = record.write(b)
      local moves = text:match("\n\n(.*)$")
      local lines = 0
      for line in moves:gmatch("[^\n]+") do
        assert.is_nil(line:match("%d+%.+$"), line)
        assert.truthy(#line <= 79, line)
        lines = lines + 1
      end
      if lines > 1 then wrapped = wrapped + 1 end
    end
    assert.is_true(wrapped >= 10, "only " .. wrapped .. " records took more than one line")
  end)
end)

describe("record.read", function()
  it("reads back what write wrote: position, moves, rules", function()
    local b0 = played(GAME)
    local b = assert(record.read(record.write(b0)))
    assert.equal(b0:fen(), b:fen())
    assert.same(GAME, texts(b))
  end)

  it("reads back changed rules", function()
    local rules = { majority = false, capture = "jumps", promote = "KC", draw_quiet_plies = 40 }
    local b0 = played({ "d6-e5" }, nil, rules)
    local text = record.write(b0)
    -- options in the order of their names (the core's, sorted)
    assert.equal("capture=jumps draw_quiet_plies=40 majority=false promote=KC", tags_of(text).Rules)
    local b = assert(record.read(text))
    assert.same(b0:rules(), b:rules())
    assert.same({ "d6-e5" }, texts(b))
  end)

  it("reads a game from a position", function()
    local fen = "7k/8/5p2/8/3p4/2P5/8/K7 w 0 1"
    local b = assert(record.read(record.write(played({ "c3xe5xg7" }, fen))))
    assert.same({ "c3xe5xg7" }, texts(b))
    assert.equal(fen, record.initial(b):fen())
  end)

  it("skips comments, NAGs, annotations; reads numbers glued to moves and the result", function()
    local b, tags = record.read(table.concat({
      '[Rules "golomb"]',
      '',
      '1.d6-e5 {a comment',
      'over two lines} c3-d4 $1 ; the rest of the line: e5xc3',
      '2. e5xc3! b2xd4?! 1-0',
    }, "\n"))
    assert.truthy(b, tags)
    assert.same(GAME, texts(b))
    assert.equal("1-0", tags.Result)
  end)

  it("reads chess-style numbers too (White's moves numbered, '1...' before Black's first)", function()
    -- the numbers are not checked: "1... d6-e5 2. c3-d4 e5xc3" is the game of "1. d6-e5 c3-d4 2. e5xc3"
    local b = assert(record.read("1... d6-e5 2. c3-d4 e5xc3 *"))
    local c = assert(record.read("1. d6-e5 c3-d4 2. e5xc3 *"))
    assert.are.equal(c:fen(), b:fen())
    assert.are.equal(3, #b:history())
  end)

  it("reads move text without any tag: the default rules from the start", function()
    local b = assert(record.read("1. d6-e5 c3-d4 *"))
    assert.equal(START, record.initial(b):fen())
    assert.same({ "d6-e5", "c3-d4" }, texts(b))
  end)

  it("names the line of an illegal move", function()
    local b, err = record.read('[Rules "golomb"]\n\n1. d6-e5 c3-d4\n2. d6-d5 *\n')
    assert.is_nil(b)
    assert.truthy(err:match("^line 4: "), err)
    assert.truthy(err:find("d6-d5", 1, true), err)
  end)

  it("names the line of a bad tag", function()
    local b, err = record.read('[White "x"]\n[Black x]\n\n1. d6-e5 *\n')
    assert.is_nil(b)
    assert.truthy(err:match("^line 2: "), err)
  end)

  it("names the line of a bad position", function()
    local b, err = record.read('[Rules "golomb"]\n[FEN "8/8/8/8 w"]\n\n*\n')
    assert.is_nil(b)
    assert.truthy(err:match("^line 2: "), err)
  end)

  it("names the line of bad rules", function()
    local b, err = record.read('[Rules "majority=maybe"]\n\n*\n')
    assert.is_nil(b)
    assert.truthy(err:match("^line 1: "), err)
    assert.truthy(err:find("majority", 1, true), err)
  end)

  it("reads several games with read_all; read takes the first", function()
    local text = record.write(played(GAME), { White = "A" }) .. "\n"
      .. record.write(played({ "d6-c5" }), { White = "B" })
    local games = assert(record.read_all(text))
    assert.equal(2, #games)
    assert.same(GAME, texts(games[1].board))
    assert.equal("A", games[1].tags.White)
    assert.same({ "d6-c5" }, texts(games[2].board))
    assert.equal("B", games[2].tags.White)
    local b, tags = record.read(text)
    assert.same(GAME, texts(b))
    assert.equal("A", tags.White)
  end)
end)

describe("record rules text", function()
  it("is golomb for the defaults", function()
    assert.equal("golomb", rulespec.format(cheskers.rules()))
  end)

  it("reads preset names and option lists", function()
    assert.equal("golomb", rulespec.parse_text(" golomb "))
    assert.same({ majority = false, capture = "jumps", draw_repetition = 3 },
                rulespec.parse_text("majority=false, capture=jumps draw_repetition=3"))
    assert.same({ start = "7k/8/8/8/8/8/8/K7 w 0 1" }, rulespec.parse_text("start='7k/8/8/8/8/8/8/K7 w 0 1'"))
  end)

  it("refuses text that is not name=value", function()
    local r, err = rulespec.parse_text("majority false")
    assert.is_nil(r)
    assert.truthy(err:find("name=value", 1, true))
  end)
end)

describe("record errors", function()
  -- a hostile record must not get echoed whole into the message
  local BIG = ("x"):rep(200000)
  local CASES = {
    { "[" .. BIG .. "\n", "^line 1: bad tag line: %[x+%.%.%.$", 80 },
    { "1. " .. BIG .. " *\n", "^line 1: move 1 %(x+%.%.%.%): ", 40 },
    { '[Rules "' .. BIG .. '=1"]\n\n*\n', "^line 1: unknown rule option 'x+%.%.%.'$", 40 },
  }
  for i, c in ipairs(CASES) do
    it("echoes at most a short piece of the input (case " .. i .. ")", function()
      local b, err = record.read(c[1])
      assert.is_nil(b)
      assert.matches(c[2], err)
      local longest = 0
      for run in err:gmatch("x+") do longest = math.max(longest, #run) end
      assert.is_true(longest <= c[3], "echoed " .. longest .. " characters")
      assert.is_true(#err < 200, err)
    end)
  end
end)
