-- tests/library/match_spec.lua - the match runner (cheskers.match): statistics,
-- openings, fault containment with deliberately broken bots, the results
-- file and --resume, game records.
local cheskers = require "cheskers"
local match = require "cheskers.match"
local bots = require "cheskers.bots"
local record = require "cheskers.record"
local json = require "cjson"
local H = require "helpers"

local tmpname = H.tmpname   -- a fresh path in a scratch folder removed afterwards

-- Time limits are multiplied by CHESKERS_TIME_SCALE (the sanitizer and
-- valgrind runs are slower).
local SCALE = tonumber(os.getenv("CHESKERS_TIME_SCALE") or "") or 1

local function read_lines(path)
  local t = {}
  for line in io.lines(path) do t[#t + 1] = line end
  return t
end

-- Bots made on the spot (cheskers.bots.load accepts tables).
local function first_mover(name)
  return { name = name or "first", choose = function(b) return b:moves()[1] end }
end

local BROKEN = {
  { reason = "error", bot = { name = "raiser", choose = function() error("bot bug") end } },
  { reason = "illegal move", bot = { name = "liar", choose = function() return "a1-h8" end } },
  { reason = "illegal move", bot = { name = "table", choose = function() return { from = "a1" } end } },
  { reason = "no move", bot = { name = "mute", choose = function() end } },
  { reason = "time", bot = { name = "looper", choose = function() while true do end end } },
  { reason = "error", bot = { name = "bad start", new_game = function() error("no") end,
                              choose = function(b) return b:moves()[1] end } },
}

-- (Elo and SPRT are tested in stats_spec.lua)

describe("match openings", function()
  it("pairs of games share an opening and colours alternate", function()
    local cfg = { seed = 3, opening_plies = 4 }
    local a, b = match.opening_board(cfg, 1), match.opening_board(cfg, 2)
    assert.are.equal(a:fen(), b:fen())
    assert.are.equal(4, #a:history())
    local fens = {}
    for g = 1, 20, 2 do fens[match.opening_board(cfg, g):fen()] = true end
    local n = 0
    for _ in pairs(fens) do n = n + 1 end
    assert.is_true(n >= 5)       -- varied
    local r = match.run { a = first_mover("A"), b = first_mover("B"), games = 2, seed = 3, max_plies = 6 }
    assert.are.equal("white", r.results[1].a_color)
    assert.are.equal("black", r.results[2].a_color)
    assert.are.equal(r.results[1].opening, r.results[2].opening)
  end)

  it("reads an openings file: positions and move lines", function()
    local path = tmpname()
    local f = assert(io.open(path, "w"))
    f:write("# a comment\n\n1. b6-c5 c3-d4\n", cheskers.START, "\n")
    f:close()
    local list = assert(match.read_openings(path))
    assert.are.equal(2, #list)
    assert.are.same({ "b6-c5", "c3-d4" }, list[1].moves)
    local r = match.run { a = first_mover("A"), b = first_mover("B"), games = 4, openings = list, max_plies = 2 }
    assert.are.equal("b6-c5 c3-d4", r.results[1].opening)
    assert.are.equal(cheskers.START, r.results[3].opening)
    os.remove(path)
  end)
end)

describe("match fault containment", function()
  for _, row in ipairs(BROKEN) do
    it(row.bot.name .. " loses every game by '" .. row.reason .. "' and the match goes on", function()
      local r = match.run { a = row.bot, b = "greedy", games = 2, move_timeout = 0.3 * SCALE, max_plies = 60 }
      assert.are.equal(2, r.played)
      assert.are.equal(2, r.losses)
      for _, res in ipairs(r.results) do
        assert.are.equal(row.reason, res.reason)
        assert.are.equal(0, res.score_a)
        assert.is_string(res.detail)
      end
    end)
  end

  it("Ctrl-C (an interrupted error) stops the match instead of losing a game", function()
    local out = tmpname()
    -- what Ctrl-C raises: the error value of an interrupted core call
    local ctrl_c = { name = "ctrl-c", choose = function(b) b:perft(3, function() cheskers.interrupt() end) end }
    assert.has_error(function() match.run { a = ctrl_c, b = "greedy", games = 2, out = out } end, "interrupted")
    assert.are.equal(1, #read_lines(out))    -- the header, no game
    os.remove(out)
  end)

  it("a C search without limits is cut off at the move's time limit", function()
    local deep = { name = "deep", choose = function(b) return b:search { depth = 100 }.move end }
    local t0 = os.clock()
    local r = match.run { a = deep, b = "greedy", games = 1, move_timeout = 0.2 * SCALE, max_plies = 4 }
    assert.are.equal("max_plies", r.results[1].reason)
    assert.is_true(os.clock() - t0 < 3 * SCALE)
  end)

  it("a bot that plays on the board it is given does not disturb the game", function()
    local vandal = { name = "vandal", choose = function(b)
      local m = b:moves()[1]
      b:play(m)
      b:play(b:moves()[1])
      return m
    end }
    local r = match.run { a = vandal, b = "random", games = 2, max_plies = 40 }
    for _, res in ipairs(r.results) do
      assert.is_not.equal("illegal move", res.reason)
      assert.is_not.equal("error", res.reason)
    end
  end)

  it("adjudicates long games and repetitions as draws", function()
    local r = match.run { a = first_mover("A"), b = first_mover("B"), games = 2, max_plies = 3 }
    assert.are.equal("max_plies", r.results[1].reason)
    assert.are.equal(2, r.draws)
    -- two kings stepping back and forth repeat the position
    local shuffle = { name = "shuffle", choose = function(b)
      local h = b:history()
      local last = h[#h - 1]
      if last then return last.to .. "-" .. last.from end
      return b:moves()[1]
    end }
    local openings = { { fen = "1k6/8/8/8/8/8/8/6K1 w 0 1" } }   -- kings on b8 and g1
    r = match.run { a = shuffle, b = shuffle, games = 1, openings = openings, repetition = 3 }
    assert.are.equal("repetition", r.results[1].reason)
  end)
end)

describe("match results file and resume", function()
  it("writes a header and a JSON line per game, and records", function()
    local out, rec = tmpname(), tmpname()
    local r = match.run { a = "greedy", b = "random", games = 4, seed = 5, out = out, records = rec }
    local lines = read_lines(out)
    assert.are.equal(5, #lines)
    assert.are.equal("greedy", json.decode(lines[1]).fingerprint.a)
    for i = 2, 5 do
      local t = json.decode(lines[i])
      assert.are.equal(i - 1, t.game)
      assert.is_string(t.reason)
      assert.are.equal(r.results[i - 1].winner, t.winner)
    end
    local f = assert(io.open(rec))
    local games = assert(record.read_all(f:read("a")))
    f:close()
    assert.are.equal(4, #games)
    assert.are.equal(#r.results[1].moves + 4, #games[1].board:history())   -- 4 opening plies
    os.remove(out)
    os.remove(rec)
  end)

  it("--resume continues after a kill, replaying only the game cut short", function()
    local full, out = tmpname(), tmpname()
    local cfg = { a = "greedy", b = "random", games = 5, seed = 9 }
    cfg.out = full
    local whole = match.run(cfg)
    -- a kill during game 4: three complete lines and half of the fourth
    local lines = read_lines(full)
    local f = assert(io.open(out, "w"))
    for i = 1, 4 do f:write(lines[i], "\n") end
    f:write(lines[5]:sub(1, 20))
    f:close()
    cfg.out, cfg.resume = out, true
    local resumed = match.run(cfg)
    assert.are.equal(5, resumed.played)
    assert.are.same({ whole.wins, whole.draws, whole.losses }, { resumed.wins, resumed.draws, resumed.losses })
    local after = read_lines(out)
    assert.are.equal(6, #after)
    for i = 2, 6 do
      local x, y = json.decode(lines[i]), json.decode(after[i])
      assert.are.equal(x.game, y.game)
      assert.are.same(x.moves, y.moves)
    end
    -- a different match in the same file is refused
    assert.has_error(function()
      match.run { a = "random", b = "greedy", games = 5, seed = 9, out = out, resume = true }
    end)
    os.remove(full)
    os.remove(out)
  end)
end)

describe("cheskers match command", function()
  it("runs, prints the table, refuses bad arguments", function()
    local cmd = require "cheskers.cmd.match"
    local out = tmpname()
    -- catch what it prints and its error messages
    local printed, stderr = {}, io.stderr
    local real_print = print
    local errfile = io.tmpfile()
    _G.print = function(...) printed[#printed + 1] = table.concat({ ... }, "\t") end
    io.stderr = errfile
    local ok, err = pcall(function()
      assert.are.equal(0, cmd.run { "greedy", "random", "--games", "2", "--quiet", "--out", out })
      assert.are.equal(3, #read_lines(out))
      assert.matches("Elo difference", table.concat(printed, "\n"), 1, true)
      local okg, gerr = pcall(cmd.run, { "greedy", "random", "--games", "0", "--quiet" })   -- (one line, raised)
      assert.is_false(okg)
      assert.matches("--games must be a whole number from 1 to", tostring(gerr), 1, true)
      assert.are.equal(1, cmd.run { "greedy", "random", "--resume", "--quiet" })
      assert.are.equal(1, cmd.run { "greedy", "random", "--sprt", "x", "--quiet" })
    end)
    _G.print, io.stderr = real_print, stderr
    errfile:seek("set")
    local msgs = errfile:read("a")
    errfile:close()
    os.remove(out)
    assert(ok, err)
    assert.is_string(msgs)
  end)
end)

describe("match.table", function()
  it("lines up a bot spec longer than string.format's widths (99)", function()
    local long = "engine:tb=/" .. ("a-long-folder/"):rep(8) .. "tables"
    assert.is_true(#long > 99)
    local lines = {}
    local sum = { played = 2, a = long, b = "random", wins = 1, draws = 0, losses = 1, reasons = { kings = 2 } }
    for line in (match.table(sum) .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = line end
    assert.equal("bot" .. (" "):rep(#long - 3) .. "  games", lines[1]:sub(1, #long + 7))
    assert.equal(long .. "      2", lines[2]:sub(1, #long + 7))
    assert.equal("random" .. (" "):rep(#long - 6) .. "      2", lines[3]:sub(1, #long + 7))
  end)
end)

describe("the game options of match and tournament (match.game_options)", function()
  -- Run a command, its printing and its error messages caught: status, stderr.
  local function run_cmd(name, args)
    local cmd = require("cheskers.cmd." .. name)
    local real_print, stderr, errfile = print, io.stderr, io.tmpfile()
    _G.print = function() end
    io.stderr = errfile
    local ok, status = pcall(cmd.run, args)
    _G.print, io.stderr = real_print, stderr
    errfile:seek("set")
    local msgs = errfile:read("a")
    errfile:close()
    if not ok and not tostring(status):find("\n") then return 1, tostring(status) end   -- a one-line error
    assert(ok, status)
    return status, msgs
  end

  local BAD = {
    { { "--max-plies", "0" }, "--max-plies must be a whole number from 1 to" },
    { { "--nodes", "0" }, "--nodes must be a whole number from 1 to" },
    { { "--opening-plies=-1" }, "--opening-plies must be a whole number from 0 to" },
    { { "--repetition=-2" }, "--repetition must be a whole number from 0 to" },
    { { "--time", "0" }, "--time must be a number > 0 and <=" },
    { { "--move-timeout=-1" }, "--move-timeout must be a number > 0 and <=" },
    { { "--rules", "capture=sometimes" }, "capture" },
  }
  for _, row in ipairs(BAD) do
    it("both refuse " .. table.concat(row[1], " "), function()
      for _, name in ipairs({ "match", "tournament" }) do
        local args = { "random", "greedy", "--games", "1", "--quiet" }
        for _, a in ipairs(row[1]) do args[#args + 1] = a end
        local status, msgs = run_cmd(name, args)
        assert.are.equal(1, status, name)
        assert.matches(row[2], msgs, 1, true)
      end
    end)
  end

  it("both take the same options into the configuration", function()
    local cfg = assert(match.game_options({ games = 3, seed = 5, nodes = 100, time = 0.5, move_timeout = 2,
      opening_plies = 0, max_plies = 50, repetition = 0, sandbox = true, rules = "majority=false" }, {}))
    assert.are.same({ 3, 5, 100, 0.5, 2, 0, 50, 0, true, "majority=false" },
      { cfg.games, cfg.seed, cfg.nodes, cfg.time, cfg.move_timeout, cfg.opening_plies, cfg.max_plies,
        cfg.repetition, cfg.sandbox, cfg.rules_text })
    assert.is_false(cfg.rules.majority)
  end)
end)

describe("match --sandbox (cfg.sandbox)", function()
  local function bot_file(body)
    local path = tmpname() .. ".lua"
    local f = assert(io.open(path, "w"))
    f:write(body)
    f:close()
    return path
  end

  it("plays the shipped bots in the sandbox as without it", function()
    for _, spec in ipairs({ "greedy", "alphabeta:depth=1", "mcts", "engine:level=1", "random" }) do
      local r = match.run { a = spec, b = "random", games = 2, nodes = 500, max_plies = 30, sandbox = true }
      assert.equal(2, r.played)
      for _, g in ipairs(r.results) do
        assert(g.reason ~= "error" and g.reason ~= "time", spec .. ": " .. tostring(g.detail))
      end
    end
  end)

  it("stops a loop at the instruction budget, with the reason, and restores the string methods", function()
    local bot = bot_file("return { name = 'spin', choose = function() while true do end end }")
    local ok, r = pcall(match.run, { a = bot, b = "greedy", games = 2, sandbox = { instructions = 1000000 } })
    os.remove(bot)
    assert(ok, r)
    assert.equal(2, r.losses)
    for _, g in ipairs(r.results) do
      assert.equal("error", g.reason)
      assert.matches("^sandbox: instruction limit", g.detail)
    end
    assert.equal(string, getmetatable("").__index)
    assert.equal("ab", ("a"):rep(2):gsub("aa", "ab"))
  end)

  it("refuses a bot file whose own code breaks the sandbox, and binary chunks", function()
    local bot = bot_file("os.remove('x') return { choose = function() end }")
    assert.has_error(function() bots.load(bot, { sandbox = true }) end,
                     "bot " .. bot .. ": sandbox: 'os.remove' is not available")
    os.remove(bot)
    bot = bot_file(string.dump(function() return { choose = function() end } end))
    assert.has_error(function() bots.load(bot, { sandbox = true }) end,
                     "bot " .. bot .. ": " .. bot .. " is a binary chunk; bots must be text")
    os.remove(bot)
  end)

  it("leaves bots alone without it", function()
    local bot = bot_file("return { name = 'free', "
      .. "choose = function(b) assert(io and os.getenv) return b:moves()[1] end }")
    local r = match.run { a = bot, b = "random", games = 1, max_plies = 6 }
    os.remove(bot)
    assert.equal("max_plies", r.results[1].reason)
  end)
end)

describe("cheskers match as a user runs it", function()
  local exe = os.getenv("CHESKERS") or "./cheskers"
  local dir
  before_each(function()
    local p = io.popen("mktemp -d")
    dir = p:read("l")
    p:close()
  end)
  after_each(function() if dir:match("^/tmp/") then os.execute("rm -rf -- '" .. dir .. "'") end end)

  local function run(args, env)
    local p = io.popen((env or "") .. exe .. " match " .. args .. " 2>&1")
    local text = p:read("a")
    local _, _, code = p:close()
    return text, code
  end

  local write = H.write_file

  it("shows a faulting bot's error and its own traceback as the game ends", function()
    local bot = dir .. "/bad.lua"
    write(bot, "local function deep(t) return t.y.z + 1 end\n"
               .. "return { name = 'bad', choose = function(b) return deep({}) end }\n")
    local text, code = run(bot .. " random --games 1 --quiet")
    assert.equal(0, code)
    -- game 1: the first bot plays White
    local want = "game 1: bad (white) lost by error: " .. bot .. ":1: attempt to index a nil value (field 'y')\n"
                 .. "stack traceback:\n\t" .. bot .. ":1: in "
    assert.matches(want, text, 1, true)
    assert.is_nil(text:find("match.lua", 1, true))     -- not the runner's frames
  end)

  it("prints the table of bots whose specs are longer than 99 characters, aligned", function()
    -- two engines: one name, so each is shown by its spec (format widths of
    -- 100 and more, '%-105s', are refused by string.format)
    local a = "engine:nodes=50,pawn=100,king=220,bishop=300,camel=280,mobility=3,center=5,tempo=2,back_rank=4,advance=1"
    local b = "engine:nodes=60"
    assert.is_true(#a > 99)
    local text, code = run(("%s %s --games 2 --quiet"):format(a, b))
    assert.equal(0, code, text)
    local header = "bot" .. string.rep(" ", #a - 3) .. "  games   wins  draws  losses    score\n"
    assert.truthy(text:find(header, 1, true), text)
    assert.truthy(text:find("\n" .. a .. "      2  ", 1, true), text)
    assert.truthy(text:find("\n" .. b .. string.rep(" ", #a - #b) .. "      2  ", 1, true), text)
    assert.truthy(text:find("Elo difference (" .. a .. " - " .. b .. ")", 1, true), text)
  end)

  -- Runs `cheskers match ARGS...` from Lua code that first breaks the match
  -- library (setup): output, exit code.
  local function run_broken(setup, args)
    local code = setup .. "; os.exit(require('cheskers.cmd.match').run({" .. args .. "}))"
    local p = io.popen(exe .. " -e " .. ("%q"):format(code) .. " 2>&1")     -- no $ nor ` in code
    local text = p:read("a")
    local _, _, status = p:close()
    return text, status
  end

  it("prints the games played when the table cannot be made", function()
    local text, code = run_broken("require('cheskers.match').table = function() error('broken', 0) end",
                                  "'random', 'greedy', '--games', '2', '--quiet'")
    assert.equal(1, code)
    local w, d, l = text:match("^random %+(%d+) =(%d+) %-(%d+) greedy\n")
    assert.truthy(w, text)
    assert.equal(2, w + d + l)
    assert.matches("\ncheskers match: cannot make the table: broken\n$", text)
  end)

  it("prints the games played before an error stopped the match", function()
    local text, code = run_broken("local m = require('cheskers.match'); local play = m.play_game; "
      .. "m.play_game = function(cfg, bots, g) if g == 3 then error('late failure', 0) end "
      .. "return play(cfg, bots, g) end", "'random', 'greedy', '--games', '4', '--quiet'")
    assert.equal(1, code)
    assert.matches("^after 2 of 4 games:\nbot +games", text)
    assert.matches("\nrandom +2 ", text)
    assert.matches("\ncheskers match: late failure\n$", text)
  end)

  it("names the file and line of a syntax error in one line", function()
    local bot = dir .. "/syntax.lua"
    write(bot, "return { name = 'syn',\n  choose = function(b) return end\n")
    local text, code = run(bot .. " random --games 1 --quiet")
    assert.equal(1, code)
    assert.equal("cheskers match: bot " .. bot .. ": syntax error at line 3 of " .. bot
                 .. ": '}' expected (to close '{' at line 1) near <eof>\n", text)
  end)

  it("creates the folders of --out and --records", function()
    local out, rec = dir .. "/a/b/results.jsonl", dir .. "/c/d/games.txt"
    local _, code = run(("greedy random --games 2 --quiet --out %s --records %s"):format(out, rec))
    assert.equal(0, code)
    assert.truthy(io.open(out))
    local f = assert(io.open(rec))
    local _, records = f:read("a"):gsub("%[Event ", "")
    f:close()
    assert.equal(2, records)
  end)

  it("refuses --resume into results of another seed, saying so", function()
    local out = dir .. "/r.jsonl"
    run("greedy random --games 2 --quiet --out " .. out)
    local text, code = run("greedy random --games 2 --seed 2 --quiet --resume --out " .. out)
    assert.equal(1, code)
    assert.matches("holds results of other inputs", text, 1, true)
    assert.matches("seed: 1 there, 2 here", text, 1, true)
  end)

  it("keeps the games of --out when run again, refuses another match's file, --restart starts over", function()
    local out = dir .. "/m.jsonl"
    local _, code = run("greedy random --games 2 --max-plies 2 --quiet --out " .. out)
    assert.equal(0, code)
    -- mark game 1 as ended by repetition: a rerun that keeps it says so
    local f = assert(io.open(out))
    local text = f:read("a")
    f:close()
    local marked, n = text:gsub('("game":1,[^\n]*"reason":)"max_plies"', '%1"repetition"')
    assert.equal(1, n)
    write(out, marked)
    local shown
    shown, code = run("greedy random --games 2 --max-plies 2 --quiet --out " .. out)
    assert.equal(0, code, shown)
    assert.matches("ended by: max_plies 1, repetition 1\n", shown, 1, true)
    -- another match into the same file: refused, the file left as it was
    shown, code = run("random greedy --games 2 --max-plies 2 --quiet --out " .. out)
    assert.equal(1, code)
    assert.matches("^cheskers match: " .. out:gsub("%p", "%%%0") .. " holds results of other inputs:\n", shown)
    assert.matches('a: "greedy" there, "random" here', shown, 1, true)
    assert.matches("use --restart to start over", shown, 1, true)
    f = assert(io.open(out))
    assert.equal(marked, f:read("a"))
    f:close()
    shown, code = run("random greedy --games 2 --max-plies 2 --quiet --restart --out " .. out)
    assert.equal(0, code, shown)
    assert.matches("ended by: max_plies 2\n", shown, 1, true)
    local t = read_lines(out)
    assert.equal(3, #t)
    assert.equal("random", json.decode(t[1]).fingerprint.a)
    shown, code = run("random greedy --restart --resume --quiet --out " .. out)
    assert.equal(1, code)
    assert.equal("cheskers match: --restart and --resume contradict each other: give one\n", shown)
  end)

  it("says an illegal move once: the move, why, and what was legal", function()
    local bot = dir .. "/liar.lua"
    write(bot, "return { name = 'liar', choose = function() return 'a1-h8' end }\n")
    local text, code = run(bot .. " random --games 1 --opening-plies 0 --quiet")
    assert.equal(0, code)
    -- the start (docs/reference/rules.md): White's bishop on a1 is shut in by the
    -- pawn on b2; White's nine first moves
    assert.matches("game 1: liar (white) lost by illegal move a1-h8: the piece on a1 is blocked; "
      .. "legal moves: a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g1-f4 g1-h4 g3-f4 g3-h4\n", text, 1, true)
  end)

  it("reads results of the old 'max plies' spelling back as max_plies", function()
    local out = dir .. "/old.jsonl"
    run("greedy random --games 2 --max-plies 2 --quiet --out " .. out)
    local f = assert(io.open(out))
    local old, n = f:read("a"):gsub('"reason":"max_plies"', '"reason":"max plies"')
    f:close()
    assert.equal(2, n)
    write(out, old)
    local text, code = run("greedy random --games 2 --max-plies 2 --quiet --resume --out " .. out)
    assert.equal(0, code)
    assert.matches("ended by: max_plies 2\n", text, 1, true)
  end)

  -- A lock left by a run on another machine (a Slurm task resubmitted on
  -- another node). squeue is a stand-in script: it lists the job or not.
  local function foreign_lock(out, job)
    os.execute("mkdir -p '" .. out .. ".lock' '" .. dir .. "/bin'")
    write(out .. ".lock/owner", "4242@other-node\n" .. (job and "slurm_job=" .. job .. "\n" or ""))
  end
  local function squeue(lists)
    write(dir .. "/bin/squeue", lists and "#!/bin/sh\necho 777\n" or "#!/bin/sh\nexit 0\n")
    os.execute("chmod +x '" .. dir .. "/bin/squeue'")
    return "PATH='" .. dir .. "/bin':\"$PATH\" "
  end
  local function lock_left(out) return io.open(out .. ".lock/owner") ~= nil end

  it("takes over the lock of a Slurm job that is no longer running", function()
    local out = dir .. "/s.jsonl"
    foreign_lock(out, 777)
    local text, code = run("greedy random --games 1 --quiet --out " .. out, squeue(false))
    assert.equal(0, code, text)
    assert.is_false(lock_left(out))
  end)

  it("refuses the lock of a Slurm job still running, saying how to take it", function()
    local out = dir .. "/s.jsonl"
    foreign_lock(out, 777)
    local text, code = run("greedy random --games 1 --quiet --out " .. out, squeue(true))
    assert.equal(1, code)
    assert.equal("cheskers match: " .. out .. " is in use by another run (4242@other-node, Slurm job 777); "
      .. "if no such run is alive, use --steal-lock or remove " .. out .. ".lock\n", text)
    assert.is_true(lock_left(out))
  end)

  it("takes over the lock of an earlier run of its own Slurm job (requeued elsewhere)", function()
    local out = dir .. "/s.jsonl"
    foreign_lock(out, 777)
    write(out .. ".lock/owner", "4242@other-node\nslurm_job=777\nslurm_restart=0\n")
    -- squeue lists job 777: it is this run's own job, restarted once
    local env = squeue(true) .. "SLURM_JOB_ID=777 SLURM_RESTART_COUNT=1 "
    local text, code = run("greedy random --games 1 --quiet --out " .. out, env)
    assert.equal(0, code, text)
    assert.is_false(lock_left(out))
    -- the same restart of the same job is another task of it: refused
    foreign_lock(out, 777)
    write(out .. ".lock/owner", "4242@other-node\nslurm_job=777\nslurm_restart=1\n")
    text, code = run("greedy random --games 1 --quiet --out " .. out, env)
    assert.equal(1, code)
    assert.matches("is in use by another run (4242@other-node, Slurm job 777)", text, 1, true)
  end)

  it("writes its Slurm job into the lock's owner file", function()
    local out = dir .. "/s.jsonl"
    local p = io.popen(("SLURM_JOB_ID=555 SLURM_RESTART_COUNT=2 %s -e %q 2>&1"):format(exe,
      "local s = require('cheskers.store'); local l = s.lock('" .. out .. "'); "
      .. "local f = io.open(l .. '/owner'); io.write(f:read('a')); f:close(); s.unlock(l)"))
    local text = p:read("a")
    p:close()
    assert.matches("^%d+@[^\n]+\nslurm_job=555\nslurm_restart=2\n$", text)
  end)

  it("refuses a lock from another machine without Slurm, and --steal-lock takes it", function()
    local out = dir .. "/s.jsonl"
    foreign_lock(out, nil)
    local text, code = run("greedy random --games 1 --quiet --out " .. out, squeue(false))
    assert.equal(1, code)
    assert.equal("cheskers match: " .. out .. " is in use by another run (4242@other-node); "
      .. "if no such run is alive, use --steal-lock or remove " .. out .. ".lock\n", text)
    text, code = run("greedy random --games 1 --quiet --steal-lock --out " .. out)
    assert.equal(0, code, text)
    assert.is_false(lock_left(out))
    assert.equal(2, #read_lines(out))     -- the header and the game
  end)
end)
