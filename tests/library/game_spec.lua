-- tests/library/game_spec.lua - the bot loader (cheskers.bots: spec grammar,
-- lookup, errors, fresh instances) and the game loop (cheskers.game: the
-- fault policy, adjudication, the per-ply observer, random opening plies).
local cheskers = require "cheskers"
local bots = require "cheskers.bots"
local game = require "cheskers.game"
local H = require "helpers"

-- Time limits are multiplied by CHESKERS_TIME_SCALE (the sanitizer and
-- valgrind runs are slower).
local SCALE = tonumber(os.getenv("CHESKERS_TIME_SCALE") or "") or 1

local function tmpfile(text)
  local p = H.tmpname(".lua")
  local f = assert(io.open(p, "w"))
  f:write(text)
  f:close()
  return p
end

local function first_mover(name)
  return bots.load({ name = name or "first", choose = function(b) return b:moves()[1] end })
end

describe("bot specs", function()
  local ROWS = {
    -- spec, name, options (or nil and a message fragment)
    { "greedy", "greedy", {} },
    { "engine:level=3,mobility=-2", "engine", { level = 3, mobility = -2 } },
    { "my/bot.lua:depth=2:fast=true", "my/bot.lua", { depth = 2, fast = true } },
    { "x:c=1.5,name=abc,off=false", "x", { c = 1.5, name = "abc", off = false } },
    { "x:book=\"a,b:c\",q='7'", "x", { book = "a,b:c", q = "7" } },
    { "x:depth", nil, "option 'depth' is not written name=value" },
    { "x:k='open", nil, "option 'k': the quote ' is not closed" },
    -- the core's grammar, as rules text reads it (cheskers.read_options)
    { "engine:level=3,pawn=1.5,x='a b'", "engine", { level = 3, pawn = 1.5, x = "a b" } },
    { "x:a=1 b=-2.5e1, c=txt", "x", { a = 1, b = -25.0, c = "txt" } },
    { "x:big=99999999999999999999", "x", { big = 1e20 } },
    { "x:t={1,2}", "x", { t = "{1,2}" } },
    { "x:a=1,a=2", nil, "option 'a' given twice" },
    { "x:a=", nil, "option 'a' has no value after =" },
    { ":k=1", nil, "no bot name" },
  }
  for _, row in ipairs(ROWS) do
    it("reads " .. row[1], function()
      local name, opts = bots.parse_spec(row[1])
      if row[2] then
        assert.equal(row[2], name)
        assert.same(row[3], opts)
      else
        assert.is_nil(name)
        assert.matches(row[3], opts, 1, true)
      end
    end)
  end
end)

describe("the bot loader", function()
  it("names unknown bots and the known ones in one line", function()
    local ok, err = pcall(bots.load, "nosuchbot")
    assert.is_false(ok)
    assert.matches("^bot nosuchbot: no such bot %(bots: .*greedy.*builtin%-random%)$", err)
  end)

  it("suggests the nearest known bot name for a typo", function()
    assert.has_error(function() bots.load("randon") end, "bot randon: no such bot (did you mean 'random'?)")
    assert.has_error(function() bots.load("engnie:level=2") end, "bot engnie:level=2: no such bot (did you mean 'engine'?)")
    assert.has_error(function() bots.load("builtin-randm") end,
                     "bot builtin-randm: no such bot (did you mean 'builtin-random'?)")
  end)

  it("refuses unknown loader options and bad limits", function()
    assert.has_error(function() bots.load("random", { sandbx = true }) end,
                     "bots.load: unknown option 'sandbx' (did you mean 'sandbox'?)")
    assert.has_error(function() bots.load("random", { sandbox = { time = 0 } }) end,
                     "bots.load: sandbox: time must be a number > 0 and <= 100000000, not 0")
    assert.has_error(function() bots.load("random", { sandbox = { tiem = 1 } }) end,
                     "bots.load: sandbox: unknown limit 'tiem' (did you mean 'time'?)")
    assert.has_error(function() bots.load("random", { dirs = "x" }) end,
                     "bots.load: dirs must be a list of texts, not 'x'")
  end)

  it("refuses options for a bot without configure, and bad options", function()
    assert.has_error(function() bots.load("random:depth=2") end, "bot random:depth=2: takes no options")
    assert.has_error(function() bots.load("builtin-greedy:x=1") end, "bot builtin-greedy:x=1: takes no options")
    assert.has_error(function() bots.load("engine:level") end,
                     "bot engine:level: option 'level' is not written name=value")
  end)

  it("says where a bot file has a syntax error, in one line", function()
    local path = tmpfile("return { choose = function(b)\n  return b:moves()[1]\n")
    local ok, err = pcall(bots.load, path)
    os.remove(path)
    assert.is_false(ok)
    assert.equal("bot " .. path .. ": syntax error at line 3 of " .. path
                 .. ": 'end' expected (to close 'function' at line 1) near <eof>", err)
  end)

  it("loads a fresh instance each time: no state shared", function()
    local path = tmpfile("local n = 0\nreturn { choose = function(b) n = n + 1 return b:moves()[1] end,"
                         .. " count = function() return n end }")
    local a, b = bots.load(path), bots.load(path)
    os.remove(path)
    a.choose(cheskers.new())
    assert.are_not.equal(a.choose, b.choose)
    assert.are_not.equal(bots.load("builtin-greedy"), bots.load("builtin-greedy"))
  end)

  -- the shipped bots declare their options (docs/guide/bots.md): the wording is
  -- cheskers.schema's, the ranges those the bots' headers give
  local SHIPPED = {
    { "engine:levle=3", "bot engine:levle=3: unknown option 'levle' (did you mean 'level'?)" },
    { "engine:level=x", "bot engine:level=x: level must be a whole number from 1 to 10, not 'x'" },
    { "engine:level=0", "bot engine:level=0: level must be a whole number from 1 to 10, not 0" },
    { "engine:level=2.5", "bot engine:level=2.5: level must be a whole number from 1 to 10, not 2.5" },
    { "engine:time=0", "bot engine:time=0: time must be a number > 0 and <= 1000000000, not 0" },
    { "engine:mobilty=3", "bot engine:mobilty=3: unknown option 'mobilty' (did you mean 'mobility'?)" },
    { "engine:mobility=y", "bot engine:mobility=y: mobility must be a whole number from -100000 to 100000, not 'y'" },
    { "alphabeta:depht=2", "bot alphabeta:depht=2: unknown option 'depht' (did you mean 'depth'?)" },
    { "alphabeta:nodes=-1", "bot alphabeta:nodes=-1: nodes must be a whole number from 1 to 1000000000000, not -1" },
    { "mcts:c=-1", "bot mcts:c=-1: c must be a number from 0 to 1000, not -1" },
    { "mcts:iteration=5", "bot mcts:iteration=5: unknown option 'iteration' (did you mean 'iterations'?)" },
    { "greedy:depth=1", "bot greedy:depth=1: takes no options" },
  }
  for _, row in ipairs(SHIPPED) do
    it("checks the options of a shipped bot: " .. row[1], function()
      assert.has_error(function() bots.load(row[1]) end, row[2])
      assert.has_error(function() bots.load(row[1], { sandbox = true }) end, row[2])
    end)
  end

  it("gives configure the options of a shipped bot once they fit", function()
    assert.equal("engine-3", bots.load("engine:level=3,mobility=0").name)
    -- every weight of the engine is an option
    for _, w in ipairs(cheskers.engine.names) do bots.load("engine:" .. w .. "=1") end
  end)

  it("checks a bot file's options against what it declares, then calls configure", function()
    local path = tmpfile("local got\nreturn { choose = function() return got end,"
      .. " configure = function(o) got = o end,"
      .. " options = { n = { type = 'integer', min = 1, max = 9 }, mode = { type = 'string', values = { 'fast', 'slow' } },"
      .. " flag = 'boolean', x = 'number' } }")
    assert.same({ n = 3, mode = "fast", flag = true }, bots.load(path .. ":n=3,mode=fast,flag=true").choose())
    assert.has_error(function() bots.load(path .. ":mdoe=fast") end,
                     "bot " .. path .. ":mdoe=fast: unknown option 'mdoe' (did you mean 'mode'?)")
    assert.has_error(function() bots.load(path .. ":mode=fats") end,
                     "bot " .. path .. ":mode=fats: mode must be 'fast' or 'slow', not 'fats' (did you mean 'fast'?)")
    assert.has_error(function() bots.load(path .. ":x=1e999") end,
                     "bot " .. path .. ":x=1e999: x must be a number, not inf")
    os.remove(path)
  end)

  it("refuses a bad declaration of options, and options declared without configure", function()
    local ROWS = {
      { "options = { n = 5 }, configure = print",
        "options: n must be one of 'integer', 'number', 'boolean', 'string' or a table {type =, min =, max =, "
        .. "above =, values =}, not 5" },
      { "options = { n = 'int' }, configure = print",
        "options: n must be one of 'integer', 'number', 'boolean', 'string' or a table {type =, min =, max =, "
        .. "above =, values =}, not 'int' (did you mean 'integer'?)" },
      { "options = { n = { type = 'integer', mn = 1 } }, configure = print",
        "options: n: unknown field 'mn' (did you mean 'min'?)" },
      { "options = { n = { type = 'int' } }, configure = print",
        "options: n: type must be one of 'integer', 'number', 'boolean', 'string', not 'int' (did you mean 'integer'?)" },
      { "options = 'n'", "it declares options but has no configure function" },
    }
    for _, row in ipairs(ROWS) do
      local path = tmpfile("return { choose = function(b) return b:moves()[1] end, " .. row[1] .. " }")
      assert.has_error(function() bots.load(path) end, "bot " .. path .. ": " .. row[2])
      os.remove(path)
    end
  end)

  it("says a bot that declares no options takes none", function()
    local path = tmpfile("return { choose = function(b) return b:moves()[1] end, configure = print, options = {} }")
    assert.has_error(function() bots.load(path .. ":a=1") end, "bot " .. path .. ":a=1: takes no options")
    os.remove(path)
  end)

  it("reads a sandboxed bot's declaration raw: its metamethods do not run in the loader", function()
    local path = tmpfile("local mt = { __index = function() while true do end end,"
      .. " __pairs = function() while true do end end, __len = function() while true do end end }\n"
      .. "return { choose = function(b) return b:moves()[1] end, configure = function() end,"
      .. " options = setmetatable({ n = setmetatable({ type = 'integer', max = 3 }, mt) }, mt) }")
    assert.has_error(function() bots.load(path .. ":n=4", { sandbox = true }) end,
                     "bot " .. path .. ":n=4: n must be a whole number <= 3, not 4")
    assert.is_table(bots.load(path .. ":n=2", { sandbox = true }))
    os.remove(path)
  end)

  it("passes the typed options to configure", function()
    local path = tmpfile("local got\nreturn { choose = function() return got end,"
                         .. " configure = function(o) got = o end }")
    local bot = bots.load(path .. ":n=3,flag=true,s='x y'")
    os.remove(path)
    assert.same({ n = 3, flag = true, s = "x y" }, bot.choose())
  end)

  it("looks in the folders given first", function()
    local path = tmpfile("return { name = 'mine', choose = function(b) return b:moves()[1] end }")
    local dir, file = path:match("^(.*)/([^/]+)%.lua$")
    local bot = bots.load(file, { dirs = { dir } })
    os.remove(path)
    assert.equal("mine", bot.name)
  end)
end)

describe("the fault policy", function()
  it("says an illegal move once, in the one move-error wording", function()
    -- Black to move with its king on b8 (docs/reference/rules.md: a king steps one
    -- square diagonally): a1 is empty, the legal moves are b8-a7 and b8-c7
    local liar = bots.load { name = "liar", choose = function() return "a1-h8" end }
    local g = game.play { white = liar, black = liar, board = cheskers.new("1k6/8/8/8/8/8/8/6K1 b 0 1") }
    assert.equal("illegal move", g.reason)
    assert.equal("illegal move a1-h8: a1 is empty; legal moves: b8-a7 b8-c7", g.detail)
  end)

  it("asks one move through game.choose, as the REPL's bot mode does", function()
    local b = cheskers.new("1k6/8/8/8/8/8/8/6K1 b 0 1")
    local fen = b:fen()
    local step = bots.load { name = "step", choose = function(board) return board:moves()[2] end }
    local m = game.choose(step, b, {})
    assert.equal("b8-c7", tostring(m))     -- the second of b8-a7, b8-c7
    assert.equal(fen, b:fen())               -- the board is not played on
    local raiser = bots.load { name = "raiser", choose = function() error("bot bug", 0) end }
    local none, reason, detail = game.choose(raiser, b, {})
    assert.is_nil(none)
    assert.equal("error", reason)
    assert.equal("bot bug", detail)
    local ok, why, d = game.start(bots.load { name = "s", choose = function() end,
                                              new_game = function() error("no start", 0) end }, b:rules())
    assert.same({ false, "error", "no start" }, { ok, why, d })
    assert.is_true(game.start(step, b:rules()))
  end)

  it("reads back the old spelling of the adjudication reason", function()
    assert.equal("max_plies", game.canonical_reason("max plies"))
    assert.equal("max_plies", game.canonical_reason("max_plies"))
    assert.equal("repetition", game.canonical_reason("repetition"))
  end)

  local ROWS = {
    -- bot, reason, what the detail says
    { { choose = function() error("bot bug") end }, "error", "bot bug" },
    { { choose = function() error(("x"):rep(100000)) end }, "error", "xxx" },
    { { choose = function() return "a1-h8" end }, "illegal move", "a1-h8: " },
    { { choose = function() return { from = "a1" } end }, "illegal move", "not a move (table)" },
    { { choose = function() end }, "no move", "choose returned nothing" },
    { { choose = function() while true do end end }, "time", "time" },
    { { new_game = function() error("no") end, choose = function(b) return b:moves()[1] end }, "error", "no" },
  }
  for i, row in ipairs(ROWS) do
    it("makes the side whose bot faults lose: " .. row[2] .. " (" .. i .. ")", function()
      row[1].name = "faulty"
      local g = game.play { white = first_mover(), black = bots.load(row[1]), board = cheskers.new(),
                            move_timeout = 0.3 * SCALE, max_plies = 40 }
      assert.equal("white", g.winner)
      assert.equal("black", g.fault)
      assert.equal(row[2], g.reason)
      assert.matches(row[3], g.detail, 1, true)
      assert.is_true(#g.detail <= 300)
      assert.is_nil(g.detail:find("\n"))
    end)
  end

  it("keeps the bot's own traceback of a Lua error, not the runner's", function()
    local function inner() error("deep bug") end
    local g = game.play { white = bots.load({ name = "tb", choose = function() inner() end }),
                          black = first_mover(), board = cheskers.new() }
    assert.equal("error", g.reason)
    assert.matches("^stack traceback:", g.traceback)
    assert.matches("game_spec.lua:%d+: in [%w ]*'inner'", g.traceback)
    assert.is_nil(g.traceback:find("game.lua", 1, true))
    assert.is_nil(g.traceback:find("sandbox.lua", 1, true))
  end)

  it("raises Ctrl-C instead of losing the game", function()
    local ctrl_c = bots.load({ name = "c", choose = function(b) b:perft(3, function() cheskers.interrupt() end) end })
    local ok, err = pcall(game.play, { white = ctrl_c, black = first_mover(), board = cheskers.new() })
    assert.is_false(ok)
    assert.equal("interrupted", cheskers.error_code(err))
  end)
end)

describe("the game loop", function()
  it("calls the observer before each move with the position it is played from", function()
    local seen = {}
    local g = game.play { white = first_mover(), black = bots.load("builtin-greedy"), board = cheskers.new(),
                          seed = { 4 }, max_plies = 6, random_plies = 2,
                          on_ply = function(b, m, info)
                            assert.truthy(b:parse(tostring(m)))      -- legal where it is played
                            seen[#seen + 1] = { info.ply, info.color, info.random, info.moves and #info.moves }
                          end }
    assert.equal(6, g.plies)
    assert.equal("max_plies", g.reason)
    assert.equal(6, #seen)
    local start = cheskers.new():count()
    -- Black moves first (the start position's side letter is b): plies 1-2
    -- random (moves generated), 3 and 5 the built-in bot playing Black (given
    -- the moves), 4 and 6 the table bot playing White (no list)
    assert.equal("black", cheskers.new():turn())
    assert.same({ 1, "black", true, start }, seen[1])
    assert.equal(true, seen[2][3])
    assert.same({ 3, "black", false }, { seen[3][1], seen[3][2], seen[3][3] })
    assert.is_number(seen[3][4])
    assert.same({ 4, "white", false }, { seen[4][1], seen[4][2], seen[4][3] })
    assert.is_nil(seen[4][4])
    assert.equal(6, #g.moves)
  end)

  it("depends only on the seed", function()
    local function run(seed)
      return table.concat(game.play { white = bots.load("builtin-random"), black = bots.load("builtin-random"),
                                      board = cheskers.new(), seed = { seed }, max_plies = 30 }.moves, " ")
    end
    local a = run(11)
    math.randomseed(99)
    assert.equal(a, run(11))
    assert.are_not.equal(a, run(12))
  end)

  it("adjudicates the N-th repetition as a draw", function()
    local shuffle = bots.load({ name = "shuffle", choose = function(b)
      local h = b:history()
      local last = h[#h - 1]
      if last then return last.to .. "-" .. last.from end
      return b:moves()[1]
    end })
    local g = game.play { white = shuffle, black = shuffle, board = cheskers.new("1k6/8/8/8/8/8/8/6K1 w 0 1"),
                          repetition = 3 }
    assert.equal("repetition", g.reason)
    assert.equal("draw", g.winner)
    -- the start position occurs again after 4 plies and a third time after 8
    assert.equal(8, g.plies)
  end)
end)
