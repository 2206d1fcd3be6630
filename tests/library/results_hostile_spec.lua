-- tests/library/results_hostile_spec.lua - results folders and weights caches are
-- data that others write (a shared scratch folder, a mailed archive): every
-- reader of them (cheskers report, tournament --report, tune --fit, the
-- fitted-weights cache) is fed folders made by hand here, a few lines each
-- (no games are played), as an attacker would write them (issue 30):
--   - rules named as a file in a header never run (rules text only), and
--     rules with hooks are read only with the trusted --rules FILE whose
--     hooks' digests the folder holds;
--   - games of two engines are refused alike by every reader;
--   - a hand-edited weights file in the cache is refused, and the way out
--     the message proposes works;
--   - forged values in headers and game lines give one line "PATH, line N:
--     ...", never a traceback;
--   - NaN and infinite measure values are counted and said.
local store = require "cheskers.store"
local H = require "helpers"

local q = H.shell_quote

-- Runs the program: its output (stdout and stderr) and exit status.
local run = H.run_program

local exists = H.exists

-- A results file written by hand: the header line, then the lines.
local function write_results(path, header, lines)
  assert(store.mkdir(path:match("^(.*)/")))
  local out = { store.encode(header) }
  for _, l in ipairs(lines or {}) do out[#out + 1] = type(l) == "string" and l or store.encode(l) end
  H.write_file(path, table.concat(out, "\n") .. "\n")
  return path
end

local function header(kind, fingerprint, plan, engine)
  return { header = "cheskers results", v = 1, kind = kind, fingerprint = fingerprint, plan = plan,
           engine = engine or store.engine_signature() }
end

-- A rule file that leaves a marker file when it runs: what an attacker
-- names in a header.
local function evil_file(dir)
  local mark = dir .. "/ran"
  local path = H.write_file(dir .. "/evil.lua", ("io.open(%q, 'w'):close() return {}\n"):format(mark))
  return path, mark
end

-- ---- tune folders and tournament folders by hand -------------------------------

local function tune_game(g)
  return { game = g, winner = "draw", reason = "plies", plies = 0, opening = "", moves = {} }
end

local function tune_folder(dir, rules, plan, engine)
  write_results(dir .. "/tune.shard1of1.jsonl",
    header("tune", { seed = 1, bot = "engine", rules = rules }, plan or { games = 2, shard = 1, shards = 1 }, engine),
    { tune_game(1), tune_game(2) })
  return dir
end

local PLAYERS = { "builtin-random", "builtin-greedy" }

local function tournament_game(round)
  return { game = round, round = round, pair = 1, white = PLAYERS[1], black = PLAYERS[2], a_color = "white",
           winner = "draw", reason = "plies", plies = 0, score_a = 0.5, moves = {}, opening = "" }
end

local function tournament_folder(dir, rules, shard, engine, games)
  shard = shard or 1
  local lines = {}
  for _, g in ipairs(games or { shard }) do lines[#lines + 1] = tournament_game(g) end
  write_results(dir .. ("/tournament.shard%dof2.jsonl"):format(shard),
    header("tournament", { players = PLAYERS, gauntlet = false, seed = 1, opening_plies = 0, max_plies = 400,
                           repetition = 3, rules = rules },
           { names = PLAYERS, games = 2, shard = shard, shards = 2 }, engine), lines)
  return dir
end

describe("rules in a results folder are data, never code", function()
  it("tune --fit refuses a rule file's name in the header and runs nothing", function()
    local dir = H.tmpdir()
    local evil, mark = evil_file(dir)
    tune_folder(dir .. "/run", { text = evil })
    local out, code = run("tune --fit " .. q(dir .. "/run"))
    assert.equal(1, code, out)
    assert.truthy(out:find("names a file, not rules", 1, true), out)
    assert.equal(1, select(2, out:gsub("\n", "")), out)   -- one line, no traceback
    assert.is_false(exists(mark), "the rule file ran")
    -- the library's reader, as cheskers experiment --fitted reads its cache
    local tune = require "cheskers.tune"
    local ok, err = pcall(tune.positions, assert(tune.read_dir(dir .. "/run")))
    assert.is_false(ok)
    assert.truthy(tostring(err):find("names a file, not rules", 1, true), err)
    assert.is_false(exists(mark))
    H.rmdir(dir)
  end)

  it("tune --fit refuses a variant of an experiment file named in the header", function()
    local dir = H.tmpdir()
    local _, mark = evil_file(dir)
    tune_folder(dir .. "/run", { text = dir .. "/evil.lua:v" })
    local out, code = run("tune --fit " .. q(dir .. "/run"))
    assert.equal(1, code, out)
    assert.truthy(out:find("names a file, not rules", 1, true), out)
    assert.is_false(exists(mark))
    H.rmdir(dir)
  end)

  it("tournament --report and report run no rule file a header names", function()
    local dir = H.tmpdir()
    local evil, mark = evil_file(dir)
    tournament_folder(dir .. "/t", { text = evil }, 1)
    tournament_folder(dir .. "/t", { text = evil }, 2)
    local out = run("tournament --report " .. q(dir .. "/t") .. " --records " .. q(dir .. "/r.pgn"))
    assert.truthy(out:find("names a file, not rules", 1, true), out)
    assert.is_nil(out:find("traceback", 1, true), out)
    run("report " .. q(dir .. "/t"))
    assert.is_false(exists(mark), "the rule file ran")
    H.rmdir(dir)
  end)

  it("rules with hooks are read only with the rule file given, its hooks' digests those stored", function()
    local dir = H.tmpdir()
    local _, mark = evil_file(dir)
    local good = H.write_file(dir .. "/hooks.lua",
      "return { draw_repetition = 3, filter = function(board, move) return move ~= nil end }\n")
    local edited = H.write_file(dir .. "/edited.lua",
      "return { draw_repetition = 3, filter = function(board, move) return board ~= nil end }\n")
    local rules = assert(require("cheskers.rulearg").parse(good))
    local fp = require("cheskers.match").fingerprint({ rules = rules }, { { name = "" }, { name = "" } }).rules
    assert.is_table(fp.hooks)
    -- the plan says the games were played with --rules evil.lua: never run
    tune_folder(dir .. "/run", store.decode(store.encode(fp)),
                { games = 2, shard = 1, shards = 1, rules = dir .. "/evil.lua" })
    local out, code = run("tune --fit " .. q(dir .. "/run"))
    assert.equal(1, code, out)
    assert.truthy(out:find("have hooks (filter)", 1, true), out)
    assert.truthy(out:find("--rules FILE", 1, true), out)
    out, code = run("tune --fit " .. q(dir .. "/run") .. " --rules " .. q(edited))
    assert.equal(1, code, out)
    assert.truthy(out:find("not those the games were played with: hooks.filter", 1, true), out)
    -- the right file is taken: the games are read (no position in them to fit)
    out = run("tune --fit " .. q(dir .. "/run") .. " --rules " .. q(good))
    assert.truthy(out:find("no quiet positions to fit", 1, true), out)
    assert.is_false(exists(mark), "the rule file of the plan ran")
    H.rmdir(dir)
  end)

  it("a game record's [Rules] tag naming a file is refused as such", function()
    local b, err = require("cheskers.record").read('[Rules "x.lua"]\n\n*\n')
    assert.is_nil(b)
    assert.truthy(tostring(err):find("names a file, not rules", 1, true), err)
  end)
end)

-- ---- experiment folders by hand ---------------------------------------------------

local function experiment_game(g, extra)
  local r = { experiment = "x", seed = 1, variant = "a", vindex = 1, game = g, result = "draw", winner = "draw",
              reason = "plies", plies = 10, white = "builtin-random", black = "builtin-random" }
  for k, v in pairs(extra or {}) do r[k] = v end
  return r
end

local function experiment_header(shard, engine, fp_extra)
  local fp = { experiment = "x", seed = 1, variants = { { name = "a", white = "builtin-random", black = "builtin-random" } } }
  for k, v in pairs(fp_extra or {}) do fp[k] = v end
  return header("experiment", fp, { variants = { { variant = "a", games = 2 } }, shard = shard, shards = 2 }, engine)
end

local function experiment_folder(dir, engines, lines)
  for shard = 1, 2 do
    write_results(dir .. ("/x.seed1.shard%dof2.jsonl"):format(shard), experiment_header(shard, engines[shard]),
                  lines and lines[shard] or { experiment_game(shard) })
  end
  return dir
end

describe("games of two engines", function()
  local A, B = "00000000000000aa", "00000000000000bb"

  it("are refused alike by report, tournament --report and tune --fit", function()
    local dir = H.tmpdir()
    experiment_folder(dir .. "/e", { A, B })
    tournament_folder(dir .. "/t", nil, 1, A)
    tournament_folder(dir .. "/t", nil, 2, B)
    tune_folder(dir .. "/u1", nil, nil, A)
    os.rename(dir .. "/u1/tune.shard1of1.jsonl", dir .. "/u1/tune.shard1of2.jsonl")
    tune_folder(dir .. "/u1", nil, nil, B)
    for _, cmd in ipairs { "report " .. q(dir .. "/e"), "tournament --report " .. q(dir .. "/t"),
                           "tune --fit " .. q(dir .. "/u1") } do
      local out, code = run(cmd)
      assert.equal(1, code, cmd .. ": " .. out)
      assert.truthy(out:find("hold games of two engines (signatures", 1, true), cmd .. ": " .. out)
      assert.truthy(out:find(A, 1, true) and out:find(B, 1, true), out)
      assert.equal(1, select(2, out:gsub("\n", "")), out)
    end
    H.rmdir(dir)
  end)

  it("one engine, or a file without a signature (an older program's), is read", function()
    local dir = H.tmpdir()
    experiment_folder(dir .. "/e", { A, A })
    local out, code = run("report " .. q(dir .. "/e"))
    assert.equal(0, code, out)
    assert.is_nil(store.two_engines { { path = "a", header = { engine = A } }, { path = "b", header = {} },
                                      { path = "c", header = { engine = A } } })
    assert.truthy(store.two_engines { { path = "a", header = {} }, { path = "b", header = { engine = A } },
                                      { path = "c", header = { engine = B } } })
    H.rmdir(dir)
  end)
end)

-- ---- the fitted-weights cache ---------------------------------------------------

describe("the fitted-weights cache", function()
  local experiment = require "cheskers.experiment"
  local fitted = require "cheskers.fitted"
  -- a tiny budget: the fit (50 games at 20 nodes) takes a fraction of a second
  local function exp()
    return experiment.normalize({ name = "fit", bots = "engine:nodes=50", games = 2, trace = false,
                                  fitted = { games = 50, nodes = 20, seed = 3 }, variants = { { name = "a" } } },
                                "fit.lua")
  end

  it("refuses a hand-edited weights file whose fingerprint line is kept; removing it, as said, fits again", function()
    local cache = H.tmpdir()
    local e = exp()
    fitted.prepare(e, { cache = cache })
    local file = e.variants[1].fitted.file
    local text = assert(H.read_file(file))
    local bishop = e.variants[1].fitted.weights.bishop
    local edited, n = text:gsub("(\n    bishop = )%-?%d+,", "%1" .. (bishop + 300) .. ",")
    assert.equal(1, n)
    H.write_file(file, edited)
    local ok, err = pcall(fitted.prepare, exp(), { cache = cache })
    assert.is_false(ok)
    assert.truthy(err:find(file .. ": edited since it was fitted", 1, true), err)
    assert.truthy(err:find("remove it to fit again", 1, true), err)
    assert.is_nil(err:find("\n"))
    -- the way out works: the same fit again, byte for byte
    assert(os.remove(file))
    local e2 = exp()
    fitted.prepare(e2, { cache = cache })
    assert.equal(text, H.read_file(file))
    assert.equal(bishop, e2.variants[1].fitted.weights.bishop)
    H.rmdir(cache)
  end)

  it("names a way out that works for tuning games of another engine: not --restart, which keeps the cache", function()
    local cache = H.tmpdir()
    local e = exp()
    fitted.prepare(e, { cache = cache })
    local fp = e.variants[1].fitted.fingerprint
    local file, games = e.variants[1].fitted.file, cache .. "/" .. fp .. "/tune.shard1of1.jsonl"
    assert(os.remove(file))
    local text = assert(H.read_file(games))
    local first, rest = text:match("^([^\n]*)\n(.*)$")
    local h = assert(store.decode(first))
    h.engine = "00000000000000aa"
    H.write_file(games, store.encode(h) .. "\n" .. rest)
    local ok, err = pcall(fitted.prepare, exp(), { cache = cache })
    assert.is_false(ok)
    assert.truthy(err:find("another engine", 1, true), err)
    assert.truthy(err:find("remove " .. cache .. "/" .. fp .. " to fit again", 1, true), err)
    assert.is_nil(err:find("--restart", 1, true), err)
    os.execute("rm -rf " .. q(cache .. "/" .. fp))
    fitted.prepare(exp(), { cache = cache })
    assert.is_truthy(H.read_file(file))
    H.rmdir(cache)
  end)
end)

-- ---- forged values ------------------------------------------------------------------

describe("forged values in headers and game lines", function()
  -- Runs cmd on the folder and checks the one line "PATH, line N: what".
  local function refused(cmd, path, line, what)
    local out, code = run(cmd)
    assert.equal(1, code, out)
    assert.equal(1, select(2, out:gsub("\n", "")), out)
    assert.truthy(out:find(path .. ", line " .. line .. ": " .. what, 1, true), out)
    assert.is_nil(out:find("traceback", 1, true), out)
  end

  it("report: a game line's fields of another kind", function()
    local dir = H.tmpdir()
    local cases = {
      { { captures = "x" }, "captures must be" },
      { { trace = { 1, "x" } }, "trace: item 2 must be" },
      { { mat = { 3 } }, "mat: item 1 must be" },
      { { vindex = "x" }, "vindex must be" },
      { { white = true }, "white must be" },
      { { reason = { 1 } }, "reason must be" },
      { { plies = math.mininteger }, "plies must be" },
      { { measures = { odd = "x" } }, "measures: odd must be" },
    }
    for i, c in ipairs(cases) do
      local d = dir .. "/" .. i
      experiment_folder(d, {}, { { experiment_game(1), experiment_game(2, c[1]) }, {} })
      refused("report " .. q(d), d .. "/x.seed1.shard1of2.jsonl", 3, c[2])
    end
    H.rmdir(dir)
  end)

  it("report: header values of another kind", function()
    local dir = H.tmpdir()
    local path = write_results(dir .. "/x.seed1.shard1of1.jsonl",
      experiment_header(1, nil, { variants = { { name = "a", white = {} } } }), { experiment_game(1) })
    refused("report " .. q(dir), path, 1, "fingerprint.variants[1].white must be a text")
    write_results(path, experiment_header(1, nil, { trace = true }), { experiment_game(1) })
    refused("report " .. q(dir), path, 1, "fingerprint.trace must be a table or false, not true")
    local h = experiment_header(1)
    h.plan.shards = 0
    write_results(path, h, { experiment_game(1) })
    refused("report " .. q(dir), path, 1, "plan.shards must be")
    -- a plan of 2^62 games and shards: refused, or counted without walking them
    h.plan.shards, h.plan.variants[1].games = 1, math.maxinteger // 2
    write_results(path, h, { experiment_game(1) })
    refused("report " .. q(dir), path, 1, "plan.variants[1].games must be")
    h.plan.shards, h.plan.variants[1].games = math.maxinteger // 2, 2
    write_results(path, h, { experiment_game(1) })
    local out, code = run("report " .. q(dir))
    assert.equal(0, code, out)
    H.rmdir(dir)
  end)

  it("tournament --report: the bots' names and the plan", function()
    local dir = H.tmpdir()
    local h = header("tournament", { players = PLAYERS, seed = 1 }, { names = { 3, "x" }, games = 2 })
    local path = write_results(dir .. "/tournament.shard1of1.jsonl", h, { tournament_game(1) })
    refused("tournament --report " .. q(dir), path, 1, "the bots' names: item 1 must be a text")
    h.plan = true
    write_results(path, h, { tournament_game(1) })
    refused("tournament --report " .. q(dir), path, 1, "plan must be a table")
    -- a move that is not legal, when the games' records are written
    local g = tournament_game(1)
    g.moves = { "zz" }
    h.plan = { names = PLAYERS, games = 2 }
    write_results(path, h, { g })
    local out, code = run("tournament --report " .. q(dir) .. " --records " .. q(dir .. "/r.pgn"))
    assert.equal(1, code, out)
    assert.truthy(out:find(path .. ", line 2: game 1.1: illegal move 'zz'", 1, true), out)
    assert.is_nil(out:find("traceback", 1, true), out)
    H.rmdir(dir)
  end)

  it("tune --fit: game lines and the header", function()
    local dir = H.tmpdir()
    local path = tune_folder(dir) .. "/tune.shard1of1.jsonl"
    local text = assert(H.read_file(path))
    H.write_file(path, text:gsub('"winner":"draw"', '"winner":"x"', 1))
    refused("tune --fit " .. q(dir), path, 2, "winner must be one of")
    H.write_file(path, text:gsub('"moves":%[%]', '"moves":["zz"]', 1))
    refused("tune --fit " .. q(dir), path, 2, "game 1: illegal move 'zz'")
    H.write_file(path, text:gsub('"moves":%[%]', '"moves":[true]', 1))
    refused("tune --fit " .. q(dir), path, 2, "moves: item 1 must be")
    H.write_file(path, text:gsub('"plan":{', '"plan":5,"x":{', 1))
    refused("tune --fit " .. q(dir), path, 1, "plan must be a table")
    H.write_file(path, text:gsub('"fingerprint":{', '"fingerprint":{"weights":{"pawn":"x"},', 1))
    refused("tune --fit " .. q(dir), path, 1, "fingerprint.weights: pawn must be")
    H.rmdir(dir)
  end)
end)

-- ---- measures that are not finite ------------------------------------------------

describe("measure values that are not finite", function()
  it("are counted and said in the text and HTML reports, left out of the mean, never dropped silently", function()
    -- JSON writes no NaN: 1e999 reads back as inf, -1e999 as -inf; NaN arises
    -- in-process (inf - inf), so summarize is fed one too
    local dir = H.tmpdir()
    local m = function(x) return { measures = { odd = x } } end
    experiment_folder(dir, {}, { { experiment_game(1, m(2)), '{"experiment":"x","seed":1,"variant":"a",'
      .. '"vindex":1,"game":2,"result":"draw","plies":10,"white":"w","black":"b","measures":{"odd":1e999}}' },
      { '{"experiment":"x","seed":1,"variant":"a","vindex":1,"game":2,"result":"draw","plies":10,'
        .. '"white":"w","black":"b","measures":{"odd":-1e999}}' } })
    local out, code = run("report " .. q(dir) .. " --html " .. q(dir .. "/r.html"))
    assert.equal(0, code, out)
    -- game 2 is in both files: the first (inf) kept; the mean of the finite value 2
    assert.truthy(out:find("odd 2.000 (1 value not finite, left out: inf 1)", 1, true), out)
    local html = assert(H.read_file(dir .. "/r.html"))
    assert.truthy(html:find("<h3>Measures</h3>", 1, true), html)
    assert.truthy(html:find("2.000 (1 value not finite, left out: inf 1)", 1, true))
    local report = require "cheskers.report"
    local recs = {}
    for i, x in ipairs { 1, 0 / 0, 3, -math.huge, math.huge } do
      recs[i] = experiment_game(i, m(x))
    end
    local g = report.summarize(recs)[1]
    assert.equal(2, g.measures.odd)
    assert.equal("2.000 (3 values not finite, left out: inf 1, -inf 1, nan 1)", report.measure_text(g, "odd"))
    -- only values that are not finite: no mean, still said
    g = report.summarize { experiment_game(1, m(0 / 0)) }[1]
    assert.equal("- (1 value not finite, left out: nan 1)", report.measure_text(g, "odd"))
    assert.same({ "odd" }, report.measure_names { g })
    H.rmdir(dir)
  end)
end)

describe("a match's results file resumed", function()
  it("refuses forged game lines in one line by file and line", function()
    local dir = H.tmpdir()
    local match = require "cheskers.match"
    local fp = match.fingerprint({ games = 2 }, { { spec = "builtin-random" }, { spec = "builtin-greedy" } })
    local game = { game = 1, white = "builtin-random", black = "builtin-greedy", a_color = "white", winner = "draw",
                   reason = "plies", plies = 0, score_a = 0.5, moves = {}, opening = "" }
    local path = dir .. "/m.jsonl"
    local cmd = "match builtin-random builtin-greedy --games 1 --out " .. q(path) .. " --records " .. q(dir .. "/r.pgn")
    for _, c in ipairs {
      { { moves = { "zz" } }, "game 1: illegal move 'zz'" },
      { { moves = 3 }, "moves must be" },
      { { score_a = "x" }, "score_a must be" },
      { { winner = true }, "winner must be" },
    } do
      local g = {}
      for k, v in pairs(game) do g[k] = v end
      for k, v in pairs(c[1]) do g[k] = v end
      write_results(path, header("match", fp), { g })
      local out, code = run(cmd)
      assert.equal(1, code, out)
      assert.truthy(out:find(path .. ", line 2: " .. c[2], 1, true), out)
      assert.equal(1, select(2, out:gsub("\n", "")), out)
    end
    -- the same line, not forged: resumed (the game kept, nothing played)
    write_results(path, header("match", fp), { game })
    local out, code = run(cmd)
    assert.equal(0, code, out)
    H.rmdir(dir)
  end)
end)
