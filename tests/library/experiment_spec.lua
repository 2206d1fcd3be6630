-- tests/library/experiment_spec.lua - rule experiments: statistics, the game
-- schedule and shards, resuming, rule specs, and the variant machinery of
-- rule tables (custom pieces, hooks, b:rules()). Expectations are derived
-- from docs/reference/rules.md, docs/reference/lua_api.md and issue 6, never copied from output.
local cheskers = require "cheskers"
local experiment = require "cheskers.experiment"
local selfplay = require "cheskers.selfplay"
local report = require "cheskers.report"
local store = require "cheskers.store"
local statistics = require "cheskers.stats"   -- Wilson intervals in the chart test
local rulearg = require "cheskers.rulearg"
local H = require "helpers"

local tmpdir, rmdir = H.tmpdir, H.rmdir

local function set_of_texts(moves)
  local s = {}
  for _, m in ipairs(moves) do s[tostring(m)] = true end
  return s
end

local function sorted_texts(moves)
  local t = {}
  for _, m in ipairs(moves) do t[#t + 1] = tostring(m) end
  table.sort(t)
  return t
end

-- A small, fast experiment: random bots, short games, a hook variant.
local function small_experiment(games)
  return experiment.normalize({
    name = "tiny",
    games = games or 5,
    seed = 7,
    max_plies = 60,
    bots = "builtin-random",
    variants = {
      { name = "golomb", rules = {} },
      { name = "nomajority", rules = { majority = false } },
      { name = "nocamel", rules = { filter = function(_, m) return m.piece ~= "C" end } },
    },
  }, "tiny.lua")
end

local function report_of(dir)
  local recs = report.read_dir(dir)
  local stats = report.summarize(recs)
  return report.format_report(stats), require("cheskers.chart").svg(stats, "t"), #recs
end

describe("summaries", function()
  it("summarize counts results, reasons, lengths and pooled branching", function()
    local recs = {
      { experiment = "e", seed = 1, variant = "v", vindex = 1, game = 1, result = "white",
        reason = "kings", plies = 10, branching_n = 10, branching_sum = 50,
        captures = { P = 2 }, captured = { P = 1, K = 1 }, promotions = {} },
      { experiment = "e", seed = 1, variant = "v", vindex = 1, game = 2, result = "draw",
        reason = "max_plies", plies = 30, branching_n = 30, branching_sum = 300,
        captures = { P = 1, B = 1 }, captured = { C = 2 }, promotions = { K = 1 } },
    }
    local g = report.summarize(recs)[1]
    assert.equal(2, g.games)
    assert.same({ 1, 0, 1 }, { g.white, g.black, g.draw })
    assert.equal(20, g.plies.mean)
    assert.equal(20, g.plies.median)
    assert.equal(350 / 40, g.branching)          -- pooled over positions, not games
    assert.same({ P = 3, B = 1 }, g.captures)
    assert.same({ K = 1 }, g.promotions)
    assert.same({ { reason = "kings", count = 1 }, { reason = "max_plies", count = 1 } }, g.reasons)
  end)
end)

describe("experiment files", function()
  it("every shipped experiment loads, names variants, bots, games, measures, and its rules make boards", function()
    local p = io.popen("ls scripts/experiments/*.lua")
    local n = 0
    for path in p:lines() do
      n = n + 1
      local e = experiment.load(path)
      assert.is_true(#e.variants >= 2, path)
      assert.is_true(e.games > 0, path)
      assert.is_true(#e.measures > 0, path)
      for _, v in ipairs(e.variants) do
        assert.is_string(v.bots.white)
        assert.is_string(v.bots.black)
      end
      experiment.check_rules(e)
    end
    p:close()
    assert.is_true(n >= 6, "expected at least the six experiments of issue 6")
  end)

  it("refuses a file without variants, with a message naming the file", function()
    assert.has_error(function() experiment.normalize({ variants = {} }, "x.lua") end,
      "x.lua: needs a list of variants")
  end)

  it("refuses two variants with one name", function()
    assert.has_error(function()
      experiment.normalize({ variants = { { name = "a" }, { name = "a" } } }, "x.lua")
    end, "x.lua: two variants named 'a'")
  end)

  it("refuses a measure it does not know, and one that is not a function", function()
    local ok, err = pcall(experiment.normalize, { measures = { "wins" }, variants = { { name = "a" } } }, "x.lua")
    assert.is_false(ok)
    assert.matches("unknown measure 'wins'", err, 1, true)
    ok, err = pcall(experiment.normalize, { measures = { share = 3 }, variants = { { name = "a" } } }, "x.lua")
    assert.is_false(ok)
    assert.matches("measure 'share' must be a function", err, 1, true)
  end)

  it("lays variant rules over the base", function()
    local e = experiment.normalize({ base = { draw_repetition = 3, majority = false },
      variants = { { name = "a", rules = { majority = true } } } }, "x.lua")
    assert.same({ draw_repetition = 3, majority = true }, e.variants[1].rules)
  end)

  it("composes base, then what a preset changes, then the variant's own: a preset keeps the base", function()
    -- docs/guide/experiments.md: with base = { draw_repetition = 3 }, rules = "golomb" (a preset that
    -- changes nothing) plays with draw_repetition 3, as a table variant does
    local e = experiment.normalize({ base = { draw_repetition = 3 },
      variants = { { name = "preset", rules = "golomb" }, { name = "table", rules = { majority = false } },
                   { name = "text", rules = "majority=false" }, { name = "none" } } }, "x.lua")
    local got = {}
    for _, v in ipairs(e.variants) do
      got[v.name] = cheskers.new(nil, v.rules):rules()
    end
    assert.equal(3, got.preset.draw_repetition)
    assert.is_true(got.preset.majority)
    assert.equal(3, got.table.draw_repetition)
    assert.is_false(got.table.majority)
    assert.equal(3, got.text.draw_repetition)
    assert.is_false(got.text.majority)
    assert.equal(3, got.none.draw_repetition)
    local ok, err = pcall(experiment.normalize, { variants = { { name = "a", rules = "majority=" } } }, "x.lua")
    assert.is_false(ok)
    assert.equal("x.lua: variant 1 ('a'): rules: rule option 'majority' has no value after =", err)
  end)

  -- One row per mistake: the table, then the whole message. The messages
  -- are the schema's (cheskers.schema): where, what was read, what is allowed,
  -- and the nearest known name.
  local MISTAKES = {
    { { variants = { { name = "forward" }, { name = "backward", rule = { pawns_capture_backward = true } } } },
      "x.lua: variant 2 ('backward'): unknown field 'rule' (did you mean 'rules'?)" },
    { { swap_colours = true, variants = { { name = "a" } } },
      "x.lua: unknown field 'swap_colours' (did you mean 'swap_colors'?)" },
    { { measure = { "result" }, variants = { { name = "a" } } },
      "x.lua: unknown field 'measure' (did you mean 'measures'?)" },
    { { swap_colors = "yes", variants = { { name = "a" } } },
      "x.lua: swap_colors must be true or false, not 'yes'" },
    { { games = -1, variants = { { name = "a" } } },
      "x.lua: games must be a whole number from 0 to 1000000, not -1" },
    { { max_plies = 0, variants = { { name = "a" } } },
      "x.lua: max_plies must be a whole number from 1 to 100000, not 0" },
    { { seed = 1.5, variants = { { name = "a" } } },
      "x.lua: seed must be a whole number, not 1.5" },
    { { name = "a b", variants = { { name = "a" } } },
      "x.lua: name must be letters, digits, '_', '-' or '.', not 'a b'" },
    { { variants = { { name = "a", games = "ten" } } },
      "x.lua: variant 1 ('a'): games must be a whole number from 0 to 1000000, not 'ten'" },
    { { variants = { { rules = {} } } },
      "x.lua: variant 1: field 'name' is missing" },
    { { variants = { { name = "" } } },
      "x.lua: variant 1 (''): name must be a text that is not empty, not ''" },
    { { variants = { { name = "a", rules = 3 } } },
      "x.lua: variant 1 ('a'): rules must be a text or a table, not 3" },
    { { limits = { nodez = 100 }, variants = { { name = "a" } } },
      "x.lua: limits: unknown field 'nodez' (did you mean 'nodes'?)" },
    { { variants = { { name = "a", limits = { nodes = 0 } } } },
      "x.lua: variant 1 ('a'): limits: nodes must be a whole number from 1 to 1000000000000, not 0" },
    { { bots = { white = "builtin-random", blak = "builtin-random" }, variants = { { name = "a" } } },
      "x.lua: bots: unknown field 'blak' (did you mean 'black'?)" },
    { { bots = 3, variants = { { name = "a" } } },
      "x.lua: bots must be a text or {white = NAME, black = NAME}, not 3" },
    { { thresholds = { dramma = 1 }, variants = { { name = "a" } } },
      "x.lua: thresholds: unknown field 'dramma' (did you mean 'drama'?)" },
    { { thresholds = { drama = -1 }, variants = { { name = "a" } } },
      "x.lua: thresholds: drama must be a number from 0 to 1000, not -1" },
    { { trace = "deep", variants = { { name = "a" } } },
      "x.lua: trace must be 'eval' or false or {depth = 1..6}, not 'deep'" },
    { { trace = { depth = 9 }, variants = { { name = "a" } } },
      "x.lua: trace: depth must be a whole number from 1 to 6, not 9" },
    { { trace = { dpeth = 2 }, variants = { { name = "a" } } },
      "x.lua: trace: unknown field 'dpeth' (did you mean 'depth'?)" },
    { { strengths = { 1, 0 }, variants = { { name = "a" } } },
      "x.lua: strengths: item 2 must be a whole number from 1 to 1000000000000, not 0" },
    { { strengths = { 1 }, strength_bot = "engine", variants = { { name = "a" } } },
      "x.lua: strength_bot must be a bot spec with %d for the strength, not 'engine'" },
    { { sweep = { promte = { "K" } } },
      "x.lua: sweep: unknown field 'promte' (did you mean 'promote'?)" },
    { { sweep = { camel = { { 1 } } } },
      "x.lua: sweep: camel: item 1 must be a leap vector {a, b}, not a table" },
    { { sweep = { majority = {} } },
      "x.lua: sweep: majority needs at least 1 item" },
    { { variants = { { name = "a", restrict = { whte = "no-king-moves" } } } },
      "x.lua: variant 1 ('a'): restrict: unknown field 'whte' (did you mean 'white'?)" },
    { { measures = { "result", "plys" }, variants = { { name = "a" } } },
      "x.lua: measures: unknown measure 'plys' (did you mean 'plies'?) (recorded for every game: result, "
      .. "plies, reason, branching, captures, captured, promotions; add your own as name = function)" },
    { { variants = { { name = "a" } }, 7 },
      "x.lua: field names must be texts, not 1" },
  }

  it("refuses what it does not know or cannot use, saying where, what and what is allowed", function()
    for i, row in ipairs(MISTAKES) do
      local ok, err = pcall(experiment.normalize, row[1], "x.lua")
      assert.is_false(ok, "row " .. i)
      assert.equal(row[2], err, "row " .. i)
    end
  end)

  it("docs/guide/experiments.md's tables of fields name the schema's fields, no more, no fewer", function()
    local f = assert(io.open("docs/guide/experiments.md"))
    local doc = f:read("a")
    f:close()
    -- the rows "| `name` | ..." of the table after each heading
    local function table_after(heading)
      local at = assert(doc:find(heading, 1, true), "no " .. heading .. " in docs/guide/experiments.md")
      local names, started = {}, false
      for line in doc:sub(at):gmatch("([^\n]*)\n") do
        local name = line:match("^| `([%w_]+)` |")
        if name then started = true; names[#names + 1] = name
        elseif started and not line:match("^|") then break end
      end
      table.sort(names)
      return names
    end
    local S = require "cheskers.schema"
    local file = experiment.schema()
    assert.same(S.fields(file), table_after("## Experiment files"))
    assert.same(S.fields(file.fields.variants.of), table_after("### Variants"))
  end)

  it("reports a variant whose rules are invalid by name", function()
    local e = experiment.normalize({ variants = { { name = "bad", rules = { majority = "perhaps" } } } }, "x.lua")
    assert.has_error(function() experiment.check_rules(e) end)
    local ok, err = pcall(experiment.check_rules, e)
    assert.is_false(ok)
    assert.matches("variant bad", err, 1, true)
  end)
end)

describe("schedule and shards", function()
  it("parses I/N and refuses shards outside 1..N", function()
    assert.same({ 2, 3 }, { store.parse_shard("2/3") })
    for _, bad in ipairs({ "0/2", "3/2", "1/0", "x", "1-2" }) do
      assert.has_error(function() store.parse_shard(bad) end)
    end
  end)

  it("splits the games into disjoint shards that together are the whole schedule", function()
    local e = small_experiment(5)
    local all = {}
    for _, item in ipairs(selfplay.schedule(e, 1, 1)) do all[item.variant.name .. item.game] = 0 end
    local count = 0
    for i = 1, 3 do
      for _, item in ipairs(selfplay.schedule(e, i, 3)) do
        local k = item.variant.name .. item.game
        assert.equal(0, all[k], "game " .. k .. " in two shards or in none")
        all[k] = i
        count = count + 1
      end
    end
    assert.equal(15, count)
  end)

  it("plays a game the same way whatever was played before it", function()
    local e = small_experiment(3)
    selfplay.prepare(e)
    local v = e.variants[2]
    local first = experiment.encode_record(selfplay.play_game(e, v, 3))
    selfplay.play_game(e, e.variants[1], 1)
    math.randomseed(12345)
    assert.equal(first, experiment.encode_record(selfplay.play_game(e, v, 3)))
    assert.are_not.equal(first, experiment.encode_record(selfplay.play_game(e, v, 3, 8)))
  end)
end)

describe("runs, shards and resuming", function()
  local dirs = {}
  after_each(function() for _, d in ipairs(dirs) do rmdir(d) end dirs = {} end)
  local function newdir() local d = tmpdir(); dirs[#dirs + 1] = d; return d end

  it("gives two shards merged exactly the report of one unsplit run", function()
    local one, two = newdir(), newdir()
    selfplay.run(small_experiment(4), one, 1, 1)
    selfplay.run(small_experiment(4), two, 1, 2)
    selfplay.run(small_experiment(4), two, 2, 2)
    local r1, s1, n1 = report_of(one)
    local r2, s2, n2 = report_of(two)
    assert.equal(12, n1)
    assert.equal(12, n2)
    assert.equal(r1, r2)
    assert.equal(s1, s2)
  end)

  it("draws every variant's three rates with their intervals in the chart", function()
    local d = newdir()
    selfplay.run(small_experiment(4), d, 1, 1)
    local stats = report.summarize((report.read_dir(d)))
    local svg = require("cheskers.chart").svg(stats, "title & <test>")
    assert.matches("^<%?xml", svg)
    assert.matches("</svg>\n$", svg)
    assert.matches("title &amp; &lt;test&gt;", svg, 1, true)
    for _, g in ipairs(stats) do
      assert.matches(">" .. g.variant .. "<", svg, 1, true)
      for side, label in pairs({ white = "White wins", black = "Black wins", draw = "Draws" }) do
        local lo, hi = statistics.wilson(g[side], g.games)
        local want = ("%s: %.1f%% (95%% CI %.1f-%.1f%%), %d of %d"):format(label,
          100 * g[side] / g.games, 100 * lo, 100 * hi, g[side], g.games)
        assert.matches(want, svg, 1, true)
      end
    end
  end)

  it("writes one JSON line per game with the measures of issue 6", function()
    local d = newdir()
    local s = selfplay.run(small_experiment(2), d, 1, 1)
    assert.equal(6, s.played)
    local recs, bad, torn = report.read_file(s.file)
    assert.equal(6, #recs)
    assert.equal(0, bad)
    assert.is_false(torn)
    for _, r in ipairs(recs) do
      assert.is_string(r.variant)
      assert.truthy(({ white = true, black = true, draw = true })[r.result])
      assert.is_string(r.reason)
      assert.is_true(r.plies >= 0 and r.plies <= 60)
      assert.is_table(r.captures)
      assert.is_table(r.promotions)
      assert.is_number(r.branching)
      if r.plies == 60 then assert.equal("max_plies", r.reason) end
    end
  end)

  it("records the moves on request, and they replay to the recorded result", function()
    local d = newdir()
    local e = small_experiment(3)
    local s = selfplay.run(e, d, 1, 1, { moves = true })
    local recs = report.read_file(s.file)
    assert.equal(9, #recs)
    local rules = {}
    for _, v in ipairs(e.variants) do rules[v.name] = v.rules end
    for _, r in ipairs(recs) do
      assert.equal(r.plies, #r.moves)
      local b = cheskers.new(r.start, rules[r.variant])
      for _, mv in ipairs(r.moves) do b:play(mv) end
      local winner, reason = b:result()
      if r.reason == "max_plies" then
        assert.is_nil(winner)
      else
        assert.same({ r.result, r.reason }, { winner, reason })
      end
    end
  end)

  it("resumes after an interruption (a torn last line) to the same results", function()
    local whole, cut = newdir(), newdir()
    selfplay.run(small_experiment(4), whole, 1, 1)
    local s = selfplay.run(small_experiment(4), cut, 1, 1)
    -- keep the header, 5 complete game lines and half of the 6th, as a kill
    -- during a write would
    local f = io.open(s.file, "rb")
    local lines = {}
    for l in f:lines() do lines[#lines + 1] = l end
    f:close()
    f = io.open(s.file, "wb")
    for i = 1, 6 do f:write(lines[i], "\n") end
    f:write(lines[7]:sub(1, #lines[7] // 2))
    f:close()
    local again = selfplay.run(small_experiment(4), cut, 1, 1)
    assert.equal(12 - 5, again.played)
    assert.equal(5, again.skipped)
    local _, bad, torn = report.read_file(s.file)
    assert.equal(0, bad)
    assert.is_false(torn)
    assert.equal(report_of(whole), report_of(cut))
    -- a third run has nothing left to play
    assert.equal(0, selfplay.run(small_experiment(4), cut, 1, 1).played)
  end)

  it("skips games other shard counts already played in the folder", function()
    local d = newdir()
    selfplay.run(small_experiment(3), d, 1, 3)
    local s = selfplay.run(small_experiment(3), d, 1, 1)
    assert.equal(9, s.total)
    assert.equal(3, s.skipped)
    assert.equal(6, s.played)
    local _, _, n = report_of(d)
    assert.equal(9, n)
  end)
end)

describe("what a results folder may hold", function()
  local dirs = {}
  after_each(function() for _, d in ipairs(dirs) do rmdir(d) end dirs = {} end)
  local function newdir() local d = tmpdir(); dirs[#dirs + 1] = d; return d end
  local function lines_of(path)
    local t = {}
    for l in io.lines(path) do t[#t + 1] = l end
    return t
  end
  local function has(list, text)
    for _, w in ipairs(list) do if w == text then return true end end
    return false
  end

  it("counts a game only where its file's header says it belongs, and says the rest by file and line", function()
    local d = newdir()
    local s = selfplay.run(small_experiment(2), d, 1, 1)      -- 3 variants x 2 games: lines 2 to 7
    local lines = lines_of(s.file)
    local game = store.decode(lines[2])                       -- game 1 of golomb
    local function variant_of(fields)
      local t = store.decode(lines[2])
      for k, v in pairs(fields) do t[k] = v end
      return store.encode(t)
    end
    local extra = {
      variant_of { game = 3 },                                -- line 8: the plan has 2 games a variant
      variant_of { variant = "ghost" },                       -- line 9: no such variant in the header
      variant_of { experiment = "other", game = 1 },          -- line 10: another experiment
      variant_of { experiment = "other", game = 2 },          -- line 11
      "{\"game\": 4, oops",                                   -- line 12: unreadable
    }
    H.write_file(s.file, table.concat(lines, "\n") .. "\n" .. table.concat(extra, "\n") .. "\n")
    H.write_file(d .. "/loose.jsonl", lines[3] .. "\n" .. lines[4] .. "\n")   -- no header
    local recs, warnings = report.read_dir(d)
    assert.equal(6, #recs)
    for _, r in ipairs(recs) do
      assert.equal("tiny", r.experiment)
      assert.truthy(r.game >= 1 and r.game <= 2)
    end
    local f = s.file
    assert.is_true(has(warnings, d .. "/loose.jsonl: no header line (not written by cheskers experiment): "
                                 .. "its 2 line(s) not counted"), table.concat(warnings, "\n"))
    assert.is_true(has(warnings, f .. ":8: game outside the plan (variant 'golomb' has games 1 to 2): not counted"))
    assert.is_true(has(warnings, f .. ":9: variant 'ghost' is not in the file's header: not counted"))
    assert.is_true(has(warnings, f .. ":10, 11: a game of experiment 'other' (seed 7) in a file of 'tiny' "
                                 .. "(seed 7): not counted"))
    assert.is_true(has(warnings, f .. ":12: unreadable line: not counted"))
    assert.equal(5, #warnings, table.concat(warnings, "\n"))   -- and no "found M of N games"
    assert.equal(game.variant, recs[1].variant)
    -- read_file checks the same
    local list, skipped, _, header, notes = report.read_file(f)
    assert.same({ 6, 5, "experiment" }, { #list, skipped, header.kind })
    assert.equal(4, #notes)
  end)

  it("refuses two editions of one experiment (other rules, another seed's other limits), naming what differs", function()
    local d, other = newdir(), newdir()
    selfplay.run(small_experiment(2), d, 1, 2)
    local edited = small_experiment(2)
    edited.variants[2].rules = { majority = true }             -- nomajority, edited
    local s = selfplay.run(edited, other, 2, 2)
    H.write_file(d .. "/copied.jsonl", H.read_file(s.file))
    local ok, err = pcall(report.read_dir, d)
    assert.is_false(ok)
    assert.matches("hold games of two editions of experiment 'tiny'", err, 1, true)
    -- files are read in the order of their names: copied.jsonl first
    assert.matches("copied.jsonl (there) and " .. d .. "/tiny.seed7.shard1of2.jsonl (here)", err, 1, true)
    assert.matches("variants[2].rules.majority: true there, false here", err, 1, true)
    -- a run of another seed counts with the first, unless made from other inputs
    local d2, d3 = newdir(), newdir()
    selfplay.run(small_experiment(2), d2, 1, 1)
    selfplay.run(small_experiment(2), d2, 1, 1, { seed = 8 })
    assert.equal(12, #report.read_dir(d2))
    selfplay.run(small_experiment(2), d3, 1, 1)
    local longer = small_experiment(2)
    longer.max_plies = 80
    selfplay.run(longer, d3, 1, 1, { seed = 8 })
    ok, err = pcall(report.read_dir, d3)
    assert.is_false(ok)
    assert.matches("max_plies: 60 there, 80 here", err, 1, true)
  end)
end)

describe("one writer per shard file", function()
  local function first_line(path)
    local f = assert(io.open(path))
    local l = f:read("l")
    f:close()
    return l
  end

  it("refuses to run a shard that a live run is writing, and takes over a dead run's lock", function()
    local d = tmpdir()
    local e = small_experiment(1)
    local lock = experiment.shard_file(d, e, e.seed, 1, 1) .. ".lock"
    local host = first_line("/proc/sys/kernel/hostname")
    local me = first_line("/proc/self/stat"):match("^(%d+)")
    os.execute("mkdir '" .. lock .. "'")
    local f = assert(io.open(lock .. "/owner", "w"))
    f:write(me .. "@" .. host .. "\n")   -- alive: this very process
    f:close()
    local ok, err = pcall(selfplay.run, e, d, 1, 1)
    assert.is_false(ok)
    assert.matches("in use by another run", err, 1, true)
    f = assert(io.open(lock .. "/owner", "w"))
    f:write("999999999@" .. host .. "\n")  -- no such process
    f:close()
    local s = selfplay.run(small_experiment(1), d, 1, 1)
    assert.equal(3, s.played)
    assert.is_nil(io.open(lock .. "/owner"))   -- released
    rmdir(d)
  end)
end)

describe("rule specs", function()
  it("reads presets, options, table literals and experiment variants", function()
    assert.equal("golomb", rulearg.parse("golomb"))
    assert.same({ majority = false, capture = "jumps", draw_repetition = 3 },
      rulearg.parse("majority=false capture=jumps,draw_repetition=3"))
    assert.same({ pieces = { C = { leaps = { { 1, 5 } } } } },
      rulearg.parse("{pieces={C={leaps={{1,5}}}}}"))
    local r = rulearg.parse("scripts/experiments/camel.lua:camel-1-5")
    assert.same({ { 1, 5 } }, r.pieces.C.leaps)
  end)

  it("reads table literals as data only: no io, os, require or hook functions", function()
    for _, bad in ipairs({ "{x = os.exit}", "{x = io.open}", "{x = require('os')}",
                           "{filter = function(b, m) return true end}" }) do
      local r, err = rulearg.parse(bad)
      assert.is_nil(r, bad)
      assert.is_string(err)
    end
  end)

  it("explains what it cannot read", function()
    local r, err = rulearg.parse("majority")
    assert.is_nil(r)
    assert.equal("rule option 'majority' is not written name=value: write majority=true or majority=false", err)
    r, err = rulearg.parse("majority=")
    assert.is_nil(r)
    assert.equal("rule option 'majority' has no value after =", err)
    r, err = rulearg.parse("a b")
    assert.is_nil(r)
    assert.matches("cannot read rule spec", err)
    r, err = rulearg.parse("scripts/experiments/camel.lua:nope")
    assert.is_nil(r)
    assert.matches("no variant 'nope'", err)
  end)
end)

describe("variants in rule tables", function()
  -- White: king a1, piece X on d4; Black: king h8. White to move.
  local function lone(letter) return ("7k/8/8/8/3%s4/8/8/K7 w"):format(letter) end

  it("a camel redefined to leap {1,1} steps like a king", function()
    local b = cheskers.new(lone("C"), { pieces = { C = { leaps = { { 1, 1 } } } } })
    -- king a1: b2; camel d4: the four diagonal neighbours
    assert.same({ "a1-b2", "d4-c3", "d4-c5", "d4-e3", "d4-e5" }, sorted_texts(b:moves()))
    local k = cheskers.new(lone("K"))
    assert.same({ "a1-b2", "d4-c3", "d4-c5", "d4-e3", "d4-e5" }, sorted_texts(k:moves()))
  end)

  it("the golomb camel on d4 leaps (1,3) to eight squares", function()
    local b = cheskers.new(lone("C"))
    assert.same({ "a1-b2", "d4-a3", "d4-a5", "d4-c1", "d4-c7", "d4-e1", "d4-e7", "d4-g3", "d4-g5" },
      sorted_texts(b:moves()))
  end)

  it("a {1,1} camel captures by taking, not by jumping", function()
    -- a black pawn on e5 with f6 empty: a king would jump d4xf6; the camel takes d4xe5
    local b = cheskers.new("7k/8/8/4p3/3C4/8/8/K7 w", { pieces = { C = { leaps = { { 1, 1 } } } } })
    local s = set_of_texts(b:moves())
    assert.is_true(s["d4xe5"])
    assert.is_nil(s["d4xf6"])
    local m = b:parse("d4xe5")
    assert.is_true(m.take)
    assert.same({ "e5" }, m.captures)
  end)

  it("a new kind takes a new letter, moves by its vectors and appears in positions", function()
    local r = { pieces = { N = { leaps = { { 2, 2 } } } } }
    local b = cheskers.new(lone("N"), r)
    -- d4 + (+-2, +-2): b2, f2, b6, f6
    assert.same({ "a1-b2", "d4-b2", "d4-b6", "d4-f2", "d4-f6" }, sorted_texts(b:moves()))
    assert.equal("N", b:get("d4"))
    assert.matches("3N4", b:fen(), 1, true)
  end)

  -- A reference for take-style kinds, written from docs/reference/lua_api.md: a
  -- vector {a, b} stands for its 8 symmetries; a leap goes one vector onto
  -- an empty square or takes an enemy there; a ride repeats it over empty
  -- squares and may take the first piece it meets if it is an enemy.
  local function reference(board, letter, def)
    local out = {}
    local white = board:turn() == "white"
    local function mine(p) return p and ((p == p:upper()) == white) end
    local function dirs(list)
      local d, seen = {}, {}
      for _, v in ipairs(list or {}) do
        local a, b = v[1], v[2]
        for _, s in ipairs({ { a, b }, { -a, b }, { a, -b }, { -a, -b }, { b, a }, { -b, a }, { b, -a }, { -b, -a } }) do
          local k = s[1] .. "," .. s[2]
          if not seen[k] then seen[k] = true; d[#d + 1] = s end
        end
      end
      return d
    end
    for _, sq in ipairs(cheskers.SQUARES) do
      local p = board:get(sq)
      if p and p:upper() == letter and mine(p) then
        local f, r = H.coords(sq)
        for _, d in ipairs(dirs(def.leaps)) do
          local t = H.name(f + d[1], r + d[2])
          if t then
            local q = board:get(t)
            if not q then out[#out + 1] = sq .. "-" .. t
            elseif not mine(q) then out[#out + 1] = sq .. "x" .. t end
          end
        end
        for _, d in ipairs(dirs(def.rides)) do
          local ff, rr = f, r
          while true do
            ff, rr = ff + d[1], rr + d[2]
            local t = H.name(ff, rr)
            if not t then break end
            local q = board:get(t)
            if not q then out[#out + 1] = sq .. "-" .. t
            else
              if not mine(q) then out[#out + 1] = sq .. "x" .. t end
              break
            end
          end
        end
      end
    end
    table.sort(out)
    return out
  end

  it("take-style kinds move by their vectors in random positions (checked against a reference)", function()
    local defs = {
      { letter = "C", def = { leaps = { { 1, 5 } } } },
      { letter = "C", def = { leaps = { { 3, 3 }, { 1, 1 } } } },
      { letter = "C", def = { rides = { { 1, 3 } } } },
      { letter = "B", def = { rides = { { 2, 0 } }, leaps = { { 1, 1 } } } },
      { letter = "B", def = { rides = { { 1, 1 }, { 0, 2 } } } },
    }
    math.randomseed(6)
    local checked = 0
    for _, d in ipairs(defs) do
      local rules = { pieces = { [d.letter] = d.def } }
      for _ = 1, 8 do
        local b = cheskers.new(nil, rules)
        for _ = 1, 80 do
          local moves = b:moves()
          if #moves == 0 then break end
          local jumps = false
          for _, m in ipairs(moves) do if m.jump then jumps = true end end
          if not jumps then  -- every move is legal: compare the kind's moves
            local got = {}
            for _, m in ipairs(moves) do
              if m.piece == d.letter then got[#got + 1] = tostring(m) end
            end
            table.sort(got)
            assert.same(reference(b, d.letter, d.def), got, b:fen())
            checked = checked + 1
          end
          b:play(moves[math.random(#moves)])
        end
      end
    end
    assert.is_true(checked > 100, "too few positions checked: " .. checked)
  end)

  it("a jump-style kind jumps the piece one vector away, landing two vectors away", function()
    -- N leaps (2,2) from d4; a black pawn on f6, h8 empty: d4xh8. Its
    -- captures are compulsory by default (jump style), optional when told.
    local fen = "8/8/5p2/8/3N4/8/8/K5k1 w"
    local b = cheskers.new(fen, { pieces = { N = { leaps = { { 2, 2 } }, capture = "jump" } } })
    assert.same({ "d4xh8" }, sorted_texts(b:moves()))
    assert.is_true(b:parse("d4xh8").jump)
    b = cheskers.new(fen, { pieces = { N = { leaps = { { 2, 2 } }, capture = "jump", compulsory = false } } })
    assert.same({ "a1-b2", "d4-b2", "d4-b6", "d4-f2", "d4xh8" }, sorted_texts(b:moves()))
  end)

  it("a compulsory take-style kind must capture", function()
    -- the bishop on d4 can take f6 and g1 (the black king); with compulsory
    -- takes those are the only legal moves
    local fen = "8/8/5p2/8/3B4/8/8/K5k1 w"
    local b = cheskers.new(fen, { pieces = { B = { rides = { { 1, 1 } }, compulsory = true } } })
    assert.same({ "d4xf6", "d4xg1" }, sorted_texts(b:moves()))
    assert.equal(11, #cheskers.new(fen):moves())  -- a1-b2, 8 slides, 2 takes
  end)

  it("every variant's legal moves match a plain reference in random games", function()
    -- tests/variant_ref.lua is written from docs/reference/rules.md and docs/reference/lua_api.md;
    -- it covers what the Dagaz conformance file does not: flying kings,
    -- backward pawn captures, promotion sets, and kinds defined by vectors
    -- that jump or take, compulsory or not, leaping or riding
    local ref = require "variant_ref"
    local START_N = "1n1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1N1 b 0 1"
    local variants = {
      {}, { majority = false }, { flying_kings = true }, { flying_kings = true, majority = false },
      { pawns_capture_backward = true }, { promote = "K" },
      { pieces = { C = { leaps = { { 1, 3 } }, capture = "jump" } } },
      { pieces = { C = { leaps = { { 1, 3 } }, capture = "jump", compulsory = false } } },
      { pieces = { B = { rides = { { 1, 1 } }, capture = "jump" } } },
      { pieces = { B = { rides = { { 1, 1 } }, compulsory = true } } },
      { pieces = { C = { rides = { { 2, 0 } }, leaps = { { 1, 1 } }, capture = "jump" } } },
      { start = START_N, promote = "KBN", pieces = { N = { leaps = { { 2, 2 } }, capture = "jump" } } },
      { start = START_N, promote = "KN", majority = false,
        pieces = { N = { rides = { { 2, 2 } }, capture = "jump" }, B = { leaps = { { 1, 1 } } } } },
    }
    math.randomseed(11)
    local checked = 0
    for _, rules in ipairs(variants) do
      for _ = 1, 5 do
        local b = cheskers.new(nil, rules)
        for _ = 1, 150 do
          local pos = { board = {}, side = b:turn() == "white" and "w" or "b" }
          for _, sq in ipairs(cheskers.SQUARES) do pos.board[sq] = b:get(sq) end
          local want = {}
          for k in pairs(ref.moves(pos, rules)) do want[#want + 1] = k end
          local moves = b:moves()
          local have = {}
          for i, m in ipairs(moves) do have[i] = H.move_key(m) end
          table.sort(want)
          table.sort(have)
          assert.same(want, have, b:fen() .. " under " .. H.rules_text(rules))
          checked = checked + 1
          if #moves == 0 then break end
          b:play(moves[math.random(#moves)])
        end
      end
    end
    assert.is_true(checked > 1000, "too few positions: " .. checked)
  end)

  it("refuses a vector that leaves the dark squares with a clear error", function()
    local ok, err = pcall(cheskers.new, nil, { pieces = { C = { leaps = { { 1, 2 } } } } })
    assert.is_false(ok)
    assert.matches("{1,2}", err, 1, true)
    assert.matches("dark squares", err, 1, true)
    ok, err = pcall(cheskers.new, nil, { pieces = { B = { rides = { { 0, 1 } } } } })
    assert.is_false(ok)
    assert.matches("{0,1}", err, 1, true)
  end)

  it("refuses to redefine P and K", function()
    assert.is_false(pcall(cheskers.new, nil, { pieces = { K = { leaps = { { 1, 1 } } } } }))
    assert.is_false(pcall(cheskers.new, nil, { pieces = { P = { leaps = { { 1, 1 } } } } }))
  end)

  it("a filter hook forbidding a move removes it from moves, count and perft", function()
    local fen = lone("C")
    local plain = cheskers.new(fen)
    local b = cheskers.new(fen, { filter = function(_, m) return tostring(m) ~= "d4-g5" end })
    local s = set_of_texts(b:moves())
    assert.is_nil(s["d4-g5"])
    assert.equal(#plain:moves() - 1, #b:moves())
    assert.equal(plain:count() - 1, b:count())
    assert.equal(plain:perft(1) - 1, b:perft(1))
    -- only White's first move can be d4-g5 within two plies
    assert.equal(plain:perft(2) - plain:divide(2)["d4-g5"], b:perft(2))
    assert.has_error(function() b:play("d4-g5") end)
  end)

  it("a result hook ends the game with its winner and reason", function()
    local b = cheskers.new(nil, { result = function(board)
      if board:get("a5") then return "black", "reached_a5" end
    end })
    assert.is_nil(b:result())
    b:play("b6-a5")
    assert.same({ "black", "reached_a5" }, { b:result() })
    assert.equal(0, #b:moves())
    assert.equal(0, b:perft(1))
  end)

  it("a hook error surfaces its message and leaves the board unchanged", function()
    local armed = false
    local b = cheskers.new(nil, { filter = function()
      if armed then error("filter exploded") end
      return true
    end })
    b:play("b6-a5")
    local fen, nhist = b:fen(), #b:history()
    armed = true
    for _, call in ipairs({ function() return b:moves() end, function() return b:play("c3-b4") end,
                            function() return b:perft(2) end }) do
      local ok, err = pcall(call)
      assert.is_false(ok)
      assert.matches("filter exploded", tostring(err), 1, true)
      assert.equal(fen, b:fen())
      assert.equal(nhist, #b:history())
    end
    local r = cheskers.new(nil, { result = function() error("result exploded") end })
    local ok, err = pcall(r.result, r)
    assert.is_false(ok)
    assert.matches("result exploded", tostring(err), 1, true)
  end)

  it("b:rules() recreates the same rule set", function()
    local filter = function(_, m) return m.piece ~= "B" end
    local spec = { majority = false, promote = "KN", start = "1n1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1N1 b 0 1",
                   pieces = { C = { leaps = { { 1, 5 } } }, N = { leaps = { { 2, 2 } }, capture = "jump" } },
                   filter = filter }
    local b = cheskers.new(nil, spec)
    local r = b:rules()
    assert.is_false(r.majority)
    assert.equal("KN", r.promote)
    assert.equal(filter, r.filter)
    assert.same({ { 1, 5 } }, r.pieces.C.leaps)
    assert.same({ { 2, 2 } }, r.pieces.N.leaps)
    local b2 = cheskers.new(nil, r)
    assert.equal(b:fen(), b2:fen())
    assert.same(sorted_texts(b:moves()), sorted_texts(b2:moves()))
    assert.equal(b:perft(3), b2:perft(3))
    assert.same(r, b2:rules())
  end)
end)

describe("design research (issue 15)", function()
  local function norm(t) return experiment.normalize(t, "t") end

  it("a sweep expands into the grid of rule values, named automatically", function()
    local e = norm({ name = "s", variants = { { name = "v", rules = { majority = false } } },
                     sweep = { camel = { { 1, 3 }, { 1, 5 } }, promote = { "K", "KB" } } })
    -- keys in sorted order: camel, then promote: 2 x 2 = 4 variants
    local names = {}
    for i, v in ipairs(e.variants) do names[i] = v.name end
    assert.same({ "v:camel=1-3,promote=K", "v:camel=1-3,promote=KB",
                  "v:camel=1-5,promote=K", "v:camel=1-5,promote=KB" }, names)
    assert.same({ { 1, 5 } }, e.variants[4].rules.pieces.C.leaps)
    assert.equal("KB", e.variants[4].rules.promote)
    assert.is_false(e.variants[4].rules.majority)
    experiment.check_rules(e)
  end)

  it("promote = \"subsets\" sweeps the 7 non-empty subsets of K, B, C", function()
    local e = norm({ name = "s", sweep = { promote = "subsets" } })
    local names = {}
    for i, v in ipairs(e.variants) do names[i] = v.name end
    -- each subset keeps the letters in the order K, B, C; sorted by size, then text
    assert.same({ "promote=B", "promote=C", "promote=K", "promote=BC", "promote=KB",
                  "promote=KC", "promote=KBC" }, names)
  end)

  it("strengths play every variant at each level, both sides the same bot", function()
    local e = norm({ name = "s", strengths = { 1, 3 },
                     variants = { { name = "a" }, { name = "b" } } })
    local got = {}
    for i, v in ipairs(e.variants) do got[i] = { v.name, v.family, v.strength, v.bots.white, v.bots.black } end
    assert.same({ { "a@1", "a", 1, "engine:level=1", "engine:level=1" },
                  { "a@3", "a", 3, "engine:level=3", "engine:level=3" },
                  { "b@1", "b", 1, "engine:level=1", "engine:level=1" },
                  { "b@3", "b", 3, "engine:level=3", "engine:level=3" } }, got)
    e = norm({ name = "s", strengths = { 500 }, strength_bot = "engine:nodes=%d", variants = { { name = "a" } } })
    assert.equal("engine:nodes=500", e.variants[1].bots.white)
    assert.has_error(function() norm({ name = "s", strengths = { 0 }, variants = { { name = "a" } } }) end)
  end)

  it("restricted play: a restricted side never plays the refused moves, the other side does", function()
    local e = selfplay.prepare(norm({ name = "r", bots = "builtin-random", trace = false,
      variants = { { name = "r", restrict = { white = "no-bishop-moves" } } } }))
    local white_b, black_b = 0, 0
    for g = 1, 20 do
      local rec = selfplay.play_game(e, e.variants[1], g, 1, true)
      local b = cheskers.new(rec.start)
      for _, text in ipairs(rec.moves) do
        local m = b:parse(text)
        if m.piece == "B" then
          if b:turn() == "white" then white_b = white_b + 1 else black_b = black_b + 1 end
        end
        b:play(m)
      end
    end
    assert.equal(0, white_b)
    assert.is_true(black_b > 0)
    local bad = { name = "r", variants = { { name = "x", restrict = { white = "no-bishop" } } } }
    assert.has_error(function() norm(bad) end,
                     "t: variant 1 ('x'): restrict: white must be one of 'no-bishop-moves', 'no-camel-promotion', "
                     .. "'no-king-moves' or a function, not 'no-bishop' (did you mean 'no-bishop-moves'?)")
  end)

  it("records an evaluation trace from White's view and material samples", function()
    local e = selfplay.prepare(norm({ name = "t", bots = "builtin-greedy", material_every = 2,
                                        variants = { { name = "g" } } }))
    local rec = selfplay.play_game(e, e.variants[1], 1, 1, true)
    -- one value per position: the start and after each ply
    assert.equal(rec.plies + 1, #rec.trace)
    -- the start: Black to move, so White's view is minus b:eval()
    local b = cheskers.new()
    assert.equal(-b:eval(), rec.trace[1])
    -- the finished game: 100 pawns to the winner
    if rec.result ~= "draw" then
      assert.equal(rec.result == "white" and 10000 or -10000, rec.trace[#rec.trace])
    end
    -- material every 2 plies from ply 0, kinds B C K P, all level at the start
    assert.equal("BCKP", rec.mat_kinds)
    assert.same({ 0, 0, 0, 0, 0 }, rec.mat[1])
    assert.equal(2, rec.mat[2][1])
    assert.equal(math.floor((rec.plies - 1) / 2) + 1, #rec.mat)
    -- a shallow-search trace, and none
    local shallow = norm({ name = "x", trace = { depth = 2 }, variants = { { name = "a" } } })
    assert.same({ kind = "search", depth = 2 }, shallow.trace)
    assert.is_nil(norm({ name = "x", trace = false, variants = { { name = "a" } } }).trace)
    assert.has_error(function() norm({ name = "x", trace = "deep", variants = { { name = "a" } } }) end)
  end)

  it("A/A: six identical variants, 60 greedy games each, flag nothing in at least 19 of 20 seeds", function()
    local e = selfplay.prepare(experiment.load("scripts/experiments/aa.lua"))
    local flagged, unadjusted = 0, {}
    for seed = 1, 20 do
      local recs = {}
      for _, v in ipairs(e.variants) do
        for g = 1, 60 do recs[#recs + 1] = selfplay.play_game(e, v, g, seed) end
      end
      local rows, tests = report.compare(report.summarize(recs))
      assert.equal(20, tests)     -- 5 variants x (white, black, draw, length)
      local any = false
      for _, row in ipairs(rows) do
        for _, k in ipairs(report.COMPARED) do any = any or row.cells[k].sig end
      end
      if any then flagged = flagged + 1 end
      for _, row in ipairs(rows) do
        for _, k in ipairs(report.COMPARED) do
          local c = row.cells[k]
          if c.lo and (c.lo > 0 or c.hi < 0) then unadjusted[seed] = true end
        end
      end
    end
    assert.is_true(flagged <= 1, flagged .. " of 20 seeds flagged a difference")
    -- the reason for the correction: unadjusted 95% intervals excluding 0 flag many seeds
    -- (docs/guide/experiments.md and docs/notes/findings.md quote the count of this run)
    local n = 0
    for _ in pairs(unadjusted) do n = n + 1 end
    assert.is_true(n >= 5, n .. " of 20 seeds flagged by unadjusted intervals")
  end)

  it("the report names the Holm correction, the power line and the design sections", function()
    local e = selfplay.prepare(norm({ name = "rep", bots = "builtin-greedy", strengths = nil,
      variants = { { name = "a" }, { name = "b", rules = { majority = false } } } }))
    local recs = {}
    for _, v in ipairs(e.variants) do
      for g = 1, 30 do recs[#recs + 1] = selfplay.play_game(e, v, g, 1) end
    end
    local text = report.format_report(report.summarize(recs))
    assert.matches("significant after Holm's correction over these 4 tests", text, 1, true)
    assert.matches("games per variant detect 5 points of White's win rate", text, 1, true)
    assert.matches("design measures (95% CI; thresholds in pawns: drama 2, lead 0.5, killer 2, doubt 0.5)",
                   text, 1, true)
    assert.matches("piece values in pawns", text, 1, true)
  end)

  it("strength dependence: a change is judged by its own test, never by one interval and not another", function()
    -- standard errors (hi - lo) / 3.92 = 0.1 each: z = (strong - weak) / 0.1414
    local function m(v) return { value = v, lo = v - 0.196, hi = v + 0.196 } end
    assert.equal("no change shown", (report.trend(m(1), m(1.2))))   -- z = 1.41
    assert.near(0.157299, select(2, report.trend(m(1), m(1.2))), 1e-5)   -- 2 (1 - Phi(sqrt 2))
    assert.equal("grows", (report.trend(m(1), m(1.5))))      -- z = 3.54
    assert.equal("shrinks", (report.trend(m(1.5), m(1))))
    assert.equal("vanishes", (report.trend(m(0.5), m(0.1))))  -- [0.30, 0.70] -> [-0.10, 0.30], z = -2.83
    -- the weak interval excludes 0 and the strong one does not, but the change (0.25 to 0.15,
    -- z = -0.71) is not significant: that is no finding of "weak play only"
    assert.equal("no change shown", (report.trend(m(0.25), m(0.15))))
  end)

  -- Synthetic games: w White wins, b Black wins, d draws, lengths alternating lo and hi.
  local function games(out, variant, family, strength, w, b, d, lo, hi)
    local n = 0
    for result, k in pairs({ white = w, black = b, draw = d }) do
      for _ = 1, k do
        n = n + 1
        out[#out + 1] = { experiment = "syn", seed = 1, variant = variant, family = family, strength = strength,
                          game = n, result = result, plies = n % 2 == 0 and lo or hi, first = "black" }
      end
    end
  end

  it("equivalence (TOST) is shown with enough games, within the margin, and not with a tight margin", function()
    -- 2000 games each, 40% / 50% / 10% in both: the unpooled se of White's difference is
    -- sqrt(2 * 0.24 / 2000) = 1.549 points, so for the margin 5 the one-sided z is 5 / 1.549 = 3.23,
    -- p = 0.0006, Holm over 8 tests at most 0.005: equivalent; the margin 1 gives z = 0.65,
    -- p = 0.26: not equivalent. A variant with 50% White wins is significant, not equivalent.
    local recs = {}
    games(recs, "a", "a", nil, 800, 1000, 200, 40, 60)
    games(recs, "b", "b", nil, 800, 1000, 200, 40, 60)
    games(recs, "c", "c", nil, 1000, 800, 200, 40, 60)
    local list = report.summarize(recs)
    local rows, tests = report.compare(list)
    assert.equal(8, tests)
    assert.is_true(rows[1].cells.white.equiv and not rows[1].cells.white.sig)
    assert.is_true(rows[1].cells.draw.equiv)
    assert.is_true(rows[1].cells.plies.equiv)       -- the same lengths: d = 0, se 0.32 plies
    assert.is_true(rows[2].cells.white.sig and not rows[2].cells.white.equiv)
    local tight = report.compare(list, { margin = 0.01, plies_margin = 0.1 })
    assert.is_false(tight[1].cells.white.equiv)
    -- the plies: lengths 40 and 60 alternate, variance 100 * 2000 / 1999, se of the difference
    -- sqrt(2 * 100.05 / 2000) = 0.3163; margin 0.1: z = 0.316, p = 0.376: not equivalent
    assert.is_false(tight[1].cells.plies.equiv)
    assert.near(1 - 0.624, tight[1].cells.plies.p_tost, 0.002)
    local text = report.format_report(list)
    assert.matches("= equivalent: within +-5 points (rates) or +-5 plies by two one-sided tests, Holm over the 8",
                   text, 1, true)
    assert.matches("no mark: inconclusive", text, 1, true)
    assert.matches("(confirmatory: differences from a", text, 1, true)
    assert.matches("+0.0 [ -3.0,  +3.0]=", text, 1, true)   -- White's wins of b: 1.96 * 1.549 = 3.04
    assert.matches("within +-2.5 points", report.format_report(list, { margin = 0.025 }), 1, true)
  end)

  it("the variant x strength interaction: Cochran's Q of the differences, with BH q-values", function()
    -- strength 1: a and b both 400 White wins of 1000; strength 2: a 400, b 500.
    -- se^2 at 1: 2 * 0.24 / 1000 = 0.00048; at 2: (0.24 + 0.25) / 1000 = 0.00049
    -- Q = (0.10 - 0)^2 / (0.00048 + 0.00049) = 10.309, df 1, p = 2 (1 - Phi(3.2108)) = 0.00132
    local recs = {}
    games(recs, "a@1", "a", 1, 400, 500, 100, 50, 50)
    games(recs, "a@2", "a", 2, 400, 500, 100, 50, 50)
    games(recs, "b@1", "b", 1, 400, 500, 100, 50, 50)
    games(recs, "b@2", "b", 2, 500, 400, 100, 50, 50)
    local list = report.summarize(recs)
    local rows = report.compare(list)
    local sec = report.secondary(list, rows)
    local white
    for _, t in ipairs(sec.interactions) do if t.measure == "white" then white = t end end
    assert.near(10.309, white.q, 1e-3)
    assert.equal(1, white.df)
    assert.near(0.00132, white.p, 2e-5)
    assert.same({ 0, 0.1 }, { white.ds[1], math.floor(white.ds[2] * 1000 + 0.5) / 1000 })
    -- every exploratory test has its BH q, never below its own p
    for _, t in ipairs(sec.interactions) do assert.is_true(t.bh >= t.p) end
    local text = report.format_report(list)
    assert.matches("variant x strength interaction", text, 1, true)
    assert.matches("Benjamini-Hochberg q < 0.05 over the", text, 1, true)
    assert.not_matches("weak play only", text, 1, true)
  end)

  it("a piece value without a bounded Fieller interval is said to be unbounded, not printed as inf", function()
    assert.equal("15.40 [unbounded]", report.piece_text({ value = 15.4, lo = -math.huge, hi = math.huge,
                                                          bounded = false }))
    assert.equal("4.40 [3.90, 5.01]", report.piece_text({ value = 4.4, lo = 3.9, hi = 5.01, bounded = true }))
  end)
end)

-- Issue 22: a rule hook of the experiment that fails while a bot moves (the
-- bot's moves and searches call it too, on its copy of the board) is the
-- file's fault, as when it fails in the game loop: the game and the run
-- stop with its error. The bot still loses for what is its own: its own
-- rules' hooks, a hook it calls itself, its time.
describe("a rule hook failing in a bot's move", function()
  local dir
  before_each(function() dir = tmpdir() end)
  after_each(function() rmdir(dir) end)

  -- A bot file of dir: name.lua with the choose function's body.
  local function bot(name, body)
    return H.write_file(("%s/%s.lua"):format(dir, name),
                   "return { name = '" .. name .. "', choose = function(b)\n" .. body .. "\nend }\n")
  end

  -- Looks two plies ahead on its copy (the game loop has not been there),
  -- then plays the first legal move.
  local PEEK = [[
    local c = b:copy()
    c:play(c:moves()[1])
    c:play(c:moves()[1])
    c:count()
    return b:moves()[1] ]]

  -- An experiment file of dir with one variant of rules (Lua source)
  -- played by the bot file at path: the loaded experiment, prepared.
  local function experiment_of(path, rules, sandboxed)
    local file = H.write_file(dir .. "/exp.lua", ([[return { name = "hooks", games = 1, seed = 3,
      max_plies = 30, bots = %q, variants = { { name = "v", rules = %s } } }]]):format(path, rules))
    local e = experiment.load(file, { sandbox = sandboxed })
    return selfplay.prepare(e, { sandbox = sandboxed })
  end

  local FAILS_AHEAD = [[{ filter = function(b)
    if #b:history() >= 2 then error("the hook fails two plies in") end
    return true
  end }]]

  for _, sandboxed in ipairs({ false, true }) do
    local how = sandboxed and "sandboxed" or "trusted"
    it("stops the game with the hook's error, not as the bot's loss (" .. how .. ")", function()
      local e = experiment_of(bot("peek", PEEK), FAILS_AHEAD, sandboxed)
      local ok, err = pcall(selfplay.play_game, e, e.variants[1], 1)
      assert.is_false(ok, "the game was played: " .. tostring(err and err.reason) .. " " .. tostring(err and err.detail))
      assert.matches("the hook fails two plies in (in black's move)", err, 1, true)
      if sandboxed then assert.matches("^filter hook: ", err) end
    end)
  end

  it("stops the game even when the bot caught the hook's error and moved", function()
    local path = bot("catcher", "pcall(function() " .. PEEK:gsub("return b:moves%(%)%[1%] $", "") .. " end)\n"
                     .. "return b:moves()[1]")
    local e = experiment_of(path, FAILS_AHEAD)
    local ok, err = pcall(selfplay.play_game, e, e.variants[1], 1)
    assert.is_false(ok)
    assert.matches("the hook fails two plies in (in black's move)", err, 1, true)
  end)

  it("the experiment's run stops naming the game, and records no game", function()
    local e = experiment_of(bot("peek", PEEK), FAILS_AHEAD)
    local ok, err = pcall(selfplay.run, e, dir .. "/out", 1, 1, {})
    assert.is_false(ok)
    assert.matches("^variant v, game 1: .*the hook fails two plies in %(in black's move%)$", err)
    assert.equal(0, #report.read_dir(dir .. "/out"))
  end)

  it("a bot's own rules' hook that fails is the bot's fault", function()
    local path = bot("own", [[
      require("cheskers").new(nil, { filter = function() error("my own hook") end }):moves() ]])
    local e = experiment_of(path, "{ filter = function() return true end }")
    local rec = selfplay.play_game(e, e.variants[1], 1)
    assert.same({ "white", "error" }, { rec.result, rec.reason })
    assert.matches("my own hook", rec.detail, 1, true, rec.detail)
  end)

  it("a bot that calls the rules' hook itself, with nonsense, loses", function()
    local path = bot("caller", "return b:rules().filter(nil, nil)")
    local e = experiment_of(path, "{ filter = function(b) return b:moveno() > 0 end }")
    local rec = selfplay.play_game(e, e.variants[1], 1)
    assert.same({ "white", "error" }, { rec.result, rec.reason })
  end)

  it("a bot whose time runs out inside a hook loses on time", function()
    local path = bot("peek", PEEK)
    local e = experiment_of(path, [[{ filter = function(b)
      if #b:history() >= 2 then while true do end end
      return true
    end }]])
    e.variants[1].limits = { time = 0.1 }
    local rec = selfplay.play_game(e, e.variants[1], 1)
    assert.same({ "white", "time" }, { rec.result, rec.reason })
  end)
end)
