-- tests/library/fitted_spec.lua - experiments played by an engine fitted to each
-- variant's rules (the field `fitted`, cheskers.fitted, docs/guide/experiments.md
-- "Fitted engines"): one fit per rules fingerprint, the cache reused, a
-- damaged or foreign weights file refused by name, the same fit byte for
-- byte, an interrupted tuning resumed, fitted and default games never
-- mixed, the report naming the weights, two shards in parallel fitting
-- once, and the field's mistakes. Budgets are tiny (tens of games at 50
-- nodes a move): the fitted weights mean nothing, the machinery is tested.
local cheskers = require "cheskers"
local experiment = require "cheskers.experiment"
local selfplay = require "cheskers.selfplay"
local fitted = require "cheskers.fitted"
local report = require "cheskers.report"
local tune = require "cheskers.tune"
local lfs = require "lfs"
local H = require "helpers"

local BUDGET = { games = 50, nodes = 50, seed = 3 }

-- a: Golomb's rules; b: without the majority rule; c: the preset golomb,
-- the same rules as a (docs/guide/experiments.md: a preset changes nothing from
-- the defaults), so a and c share one fit.
local function exp_table(extra)
  local t = {
    name = "fit", bots = "engine:nodes=50", games = 2, random_plies = 4, max_plies = 60, trace = false,
    fitted = BUDGET,
    variants = { { name = "a" }, { name = "b", rules = "majority=false" }, { name = "c", rules = "golomb" } },
  }
  for k, v in pairs(extra or {}) do t[k] = v end
  return t
end

local function load(extra) return experiment.normalize(exp_table(extra), "fit.lua") end

-- The names in folder dir ending with suffix, sorted.
local function names(dir, suffix)
  local out = {}
  if lfs.attributes(dir, "mode") ~= "directory" then return out end
  for n in lfs.dir(dir) do
    if n:sub(-#suffix) == suffix and n ~= "." and n ~= ".." then out[#out + 1] = n end
  end
  table.sort(out)
  return out
end

-- Runs f with tune.run replaced by a counter (the calls recorded); tune.run
-- itself still runs unless refuse is set.
local function counting_tune(refuse, f)
  local real, calls = tune.run, {}
  tune.run = function(cfg)
    if refuse then error("tune.run called", 0) end
    local sum = real(cfg)
    calls[#calls + 1] = sum
    return sum
  end
  local ok, err = pcall(f)
  tune.run = real
  if not ok then error(err, 0) end
  return calls
end

describe("fitted experiments", function()
  local dirs = {}
  after_each(function() for _, d in ipairs(dirs) do H.rmdir(d) end dirs = {} end)
  local function newdir() local d = H.tmpdir(); dirs[#dirs + 1] = d; return d end

  it("fits once per distinct rules fingerprint: variants with the same rules share one fit", function()
    local cache = newdir()
    local e = load()
    local calls = counting_tune(false, function() fitted.prepare(e, { cache = cache }) end)
    assert.equal(2, #calls)                       -- a and c share one, b has its own
    assert.equal(BUDGET.games, calls[1].played)
    assert.equal(2, #names(cache, ".lua"))
    local a, b, c = e.variants[1].fitted, e.variants[2].fitted, e.variants[3].fitted
    assert.equal(a.fingerprint, c.fingerprint)
    assert.are_not.equal(a.fingerprint, b.fingerprint)
    assert.equal(cache .. "/" .. a.fingerprint .. ".lua", a.file)
    -- the weights are the file's, read back by the one reader, and the
    -- variant's engine is loaded with them (the spec's options)
    local w = assert(tune.read_weights(b.file))
    assert.same(w, b.weights)
    local name, opts = require("cheskers.bots").parse_spec(e.variants[2].play_bots.white)
    assert.equal("engine", name)
    assert.equal(50, opts.nodes)
    opts.nodes = nil
    assert.same(w, opts)
    assert.same(cheskers.engine.defaults(), a.start)
  end)

  it("gives every strength of a variant the variant's one fit", function()
    local e = load { bots = nil, strengths = { 1, 2 }, variants = { { name = "a" } } }
    local cache = newdir()
    local calls = counting_tune(false, function() fitted.prepare(e, { cache = cache }) end)
    assert.equal(1, #calls)
    assert.equal("a@1", e.variants[1].name)
    assert.equal(e.variants[1].fitted.file, e.variants[2].fitted.file)
    local _, opts = require("cheskers.bots").parse_spec(e.variants[2].play_bots.black)
    assert.equal(2, opts.level)
    assert.equal(e.variants[2].fitted.weights.bishop, opts.bishop)
  end)

  it("keeps a weight the bot spec sets itself over the fitted one", function()
    local e = load { bots = "engine:nodes=50,mobility=0", variants = { { name = "a" } } }
    fitted.prepare(e, { cache = newdir() })
    local _, opts = require("cheskers.bots").parse_spec(e.variants[1].play_bots.white)
    assert.equal(0, opts.mobility)
    assert.equal(e.variants[1].fitted.weights.camel, opts.camel)
  end)

  it("reuses the cache on a second run: no tuning", function()
    local cache = newdir()
    fitted.prepare(load(), { cache = cache })
    local e = load()
    counting_tune(true, function() fitted.prepare(e, { cache = cache }) end)
    assert.equal(cache .. "/" .. e.variants[2].fitted.fingerprint .. ".lua", e.variants[2].fitted.file)
  end)

  it("keys the fit on its budget, seed and restriction", function()
    local base = fitted.key(load(), load().variants[1])
    local function key_of(extra, i) local e = load(extra) return (fitted.key(e, e.variants[i or 1])) end
    assert.are_not.equal(base, key_of { fitted = { games = 41, nodes = 50, seed = 3 } })
    assert.are_not.equal(base, key_of { fitted = { games = 50, nodes = 51, seed = 3 } })
    assert.are_not.equal(base, key_of { fitted = { games = 50, nodes = 50, seed = 4 } })
    local two = { { name = "x", restrict = { white = "no-bishop-moves" } },
                  { name = "y", restrict = { white = "no-king-moves" } } }
    assert.are_not.equal(key_of({ variants = two }, 1), key_of({ variants = two }, 2))
  end)

  it("makes the same weights file, byte for byte, from the same seed", function()
    local one, two = newdir(), newdir()
    local e1 = load { variants = { { name = "b", rules = "majority=false" } } }
    local e2 = load { variants = { { name = "b", rules = "majority=false" } } }
    fitted.prepare(e1, { cache = one })
    fitted.prepare(e2, { cache = two })
    local f1, f2 = e1.variants[1].fitted, e2.variants[1].fitted
    assert.equal(f1.fingerprint, f2.fingerprint)
    assert.equal(H.read_file(f1.file), H.read_file(f2.file))
    assert.matches('fingerprint = "' .. f1.fingerprint .. '"', H.read_file(f1.file), 1, true)
  end)

  it("resumes an interrupted tuning from its stored games", function()
    local cache = newdir()
    local e = load { variants = { { name = "a" } } }
    local fp = fitted.key(e, e.variants[1])
    -- the first 10 tuning games, then a stop (as an interruption leaves them)
    local n = 0
    tune.run { out = cache .. "/" .. fp, games = BUDGET.games, nodes = BUDGET.nodes, seed = BUDGET.seed,
               rules = e.variants[1].rules, stop = function() n = n + 1 return n > 10 end }
    local calls = counting_tune(false, function() fitted.prepare(e, { cache = cache }) end)
    assert.equal(10, calls[1].skipped)
    assert.equal(BUDGET.games - 10, calls[1].played)
    -- and the weights are those of an uninterrupted fit
    local other = newdir()
    local e2 = load { variants = { { name = "a" } } }
    fitted.prepare(e2, { cache = other })
    assert.equal(H.read_file(e2.variants[1].fitted.file), H.read_file(e.variants[1].fitted.file))
  end)

  it("refuses a damaged or foreign weights file in the cache by its name", function()
    local cache = newdir()
    local e = load { variants = { { name = "a" }, { name = "b", rules = "majority=false" } } }
    fitted.prepare(e, { cache = cache })
    local a, b = e.variants[1].fitted, e.variants[2].fitted
    local a_text = H.read_file(a.file)
    -- foreign: b's file under a's name
    H.write_file(a.file, H.read_file(b.file))
    local ok, err = pcall(fitted.prepare, load(), { cache = cache })
    assert.is_false(ok)
    assert.matches(a.file .. " is not the fit " .. a.fingerprint, err, 1, true)
    -- damaged: cut short
    H.write_file(a.file, a_text:sub(1, #a_text // 2))
    ok, err = pcall(fitted.prepare, load(), { cache = cache })
    assert.is_false(ok)
    assert.matches(a.file, err, 1, true)
    assert.is_nil(err:find("\n"))
    -- a weights file without a fingerprint (written by hand)
    H.write_file(a.file, "return { weights = { bishop = 400 } }\n")
    ok, err = pcall(fitted.prepare, load(), { cache = cache })
    assert.is_false(ok)
    assert.matches("its fingerprint is missing", err, 1, true)
  end)

  it("refuses to play before the weights are there", function()
    local ok, err = pcall(selfplay.run, load(), newdir(), 1, 1)
    assert.is_false(ok)
    assert.matches("fitted.prepare first", err, 1, true)
  end)

  it("never mixes games of default weights with fitted ones in one folder", function()
    local dir = newdir()
    local plain = load()
    plain.fitted = nil
    selfplay.run(plain, dir, 1, 1)
    local e = load()
    fitted.prepare(e, { out = dir })
    local ok, err = pcall(selfplay.run, e, dir, 1, 1)
    assert.is_false(ok)
    assert.matches("fitted", err, 1, true)
  end)

  it("reports which weights played each variant: file, fingerprint, budget and material beside the defaults",
     function()
    local dir = newdir()
    local e = load()
    fitted.prepare(e, { out = dir })
    selfplay.run(e, dir, 1, 1)
    local recs = report.read_dir(dir)
    local text = report.format_report(report.summarize(recs))
    local defaults = cheskers.engine.defaults()
    for _, v in ipairs(e.variants) do
      local w = assert(tune.read_weights(dir .. "/weights/" .. v.fitted.fingerprint .. ".lua"))
      local line
      for l in text:gmatch("[^\n]+") do
        if l:find(v.fitted.fingerprint, 1, true) and l:match("^" .. v.name .. " ") then line = l end
      end
      assert.truthy(line, "no weights line of " .. v.name)
      assert.matches(v.fitted.file, line, 1, true)
      assert.matches(" 50 +50 +3 ", line)
      for _, n in ipairs { "pawn", "king", "bishop", "camel" } do
        assert.matches(("%d (%d)"):format(w[n], defaults[n]), line, 1, true)
      end
    end
    local html = require("cheskers.report_html").page(report.summarize(recs), {})
    assert.matches("<h3>Weights</h3>", html, 1, true)
    assert.matches(e.variants[2].fitted.fingerprint, html, 1, true)
  end)

  it("refuses a misspelt field, a wrong value and bots that are not the engine, in one line", function()
    local rows = {
      { { fitted = { gams = 40 } }, "fit.lua: fitted: unknown field 'gams' (did you mean 'games'?)" },
      { { fitted = { games = 0 } }, "fit.lua: fitted: games must be a whole number from 1 to 1000000, not 0" },
      { { fitted = "yes" }, "fit.lua: fitted must be true or false or {games = N, nodes = N, seed = S}, not 'yes'" },
      { { fited = true }, "fit.lua: unknown field 'fited' (did you mean 'fitted'?)" },
      { { bots = "builtin-greedy" }, "fit.lua: fitted: variant 'a': the white bot 'builtin-greedy' is not the engine" },
      { { bots = { white = "engine:level=1", black = "engine:weights=w.lua" } },
        "fit.lua: fitted: variant 'a': the black bot 'engine:weights=w.lua' has weights of its own" },
    }
    for i, row in ipairs(rows) do
      local ok, err = pcall(load, row[1])
      assert.is_false(ok, "row " .. i)
      assert.equal(row[2], err:sub(1, #row[2]), "row " .. i)
      assert.is_nil(err:find("\n"), "row " .. i)
    end
    assert.is_nil(load({ fitted = false }).fitted)
    assert.same({ games = 1000, nodes = 1000, seed = 1 }, load({ fitted = true }).fitted)
  end)
end)

describe("cheskers experiment with fitted engines", function()
  local dirs = {}
  after_each(function() for _, d in ipairs(dirs) do H.rmdir(d) end dirs = {} end)
  local function newdir() local d = H.tmpdir(); dirs[#dirs + 1] = d; return d end

  local function exp_file(dir, fitted_text)
    return H.write_file(dir .. "/fit.lua", ([[return { name = "fit", bots = "engine:nodes=50", games = 2,
      random_plies = 4, max_plies = 60, trace = false, %s
      variants = { { name = "a" }, { name = "b", rules = "majority=false" } } }]]):format(fitted_text))
  end

  it("two shards started together fit each rule set once and play with the same weights", function()
    local dir = newdir()
    local file = exp_file(dir, "fitted = { games = 60, nodes = 50 },")
    local out = dir .. "/out"
    local cmd = ("%s/cheskers experiment %s --out %s --shard %%d/2 > %s/log%%d 2>&1; echo $? >> %s/log%%d")
      :format(H.ROOT, file, out, dir, dir)
    os.execute(("( %s ) & ( %s ) & wait"):format(cmd:format(1, 1, 1), cmd:format(2, 2, 2)))
    local logs = { H.read_file(dir .. "/log1"), H.read_file(dir .. "/log2") }
    for i = 1, 2 do assert.matches("\n0\n$", logs[i], nil, false, "shard " .. i .. ": " .. logs[i]) end
    -- each fit was made by one of the two (the other waited or found it)
    local made = {}
    for i = 1, 2 do
      for fp in logs[i]:gmatch("fitting weights (%x+) %(variant [^)]*%): 60/60 games") do
        made[fp] = (made[fp] or 0) + 1
      end
    end
    local cache = out .. "/weights"
    local files = names(cache, ".lua")
    assert.equal(2, #files)
    for _, f in ipairs(files) do
      local fp = f:sub(1, -5)
      assert.equal(1, made[fp], "fit " .. fp .. " made " .. tostring(made[fp]) .. " times")
      assert.same({ "tune.shard1of1.jsonl" }, names(cache .. "/" .. fp, ".jsonl"))
    end
    -- both shard files carry the same fits, and the report counts all games
    local recs, warnings = report.read_dir(out)
    assert.equal(4, #recs)
    assert.same({}, warnings)
  end)

  it("plays a fitted experiment in the sandbox (the weights given as options, no file read)", function()
    local dir = newdir()
    local file = exp_file(dir, "fitted = { games = 50, nodes = 50 },")
    local text, code = H.run_program(("experiment %s --out %s/out --sandbox --quiet"):format(file, dir))
    assert.equal(0, code, text)
    assert.equal(4, #report.read_dir(dir .. "/out"))
  end)

  it("--fitted plays an experiment fitted; --fit-only makes the weights and plays nothing", function()
    local dir = newdir()
    local file = exp_file(dir, "")
    local out = dir .. "/out"
    local text, code = H.run_program(("%s --out %s --fitted games=50,nodes=50 --fit-only --quiet")
      :format(file, out):gsub("^", "experiment "))
    assert.equal(0, code, text)
    assert.equal(2, #names(out .. "/weights", ".lua"))
    assert.same({}, names(out, ".jsonl"))
    text, code = H.run_program(("experiment %s --out %s --fitted games=50,nodes=50 --quiet"):format(file, out))
    assert.equal(0, code, text)
    assert.equal(1, #names(out, ".jsonl"))
    text, code = H.run_program(("experiment %s --out %s --fitted gmaes=30"):format(file, out))
    assert.equal(1, code)
    assert.matches("--fitted: unknown field 'gmaes' (did you mean 'games'?)", text, 1, true)
    local greedy = H.write_file(dir .. "/greedy.lua", 'return { variants = { { name = "a" } } }')
    text, code = H.run_program(("experiment %s --out %s --fitted"):format(greedy, out))
    assert.equal(1, code)
    assert.matches("--fitted: variant 'a': the white bot 'builtin-greedy' is not the engine", text, 1, true)
    text, code = H.run_program(("experiment %s --out %s --fit-only"):format(file, out))
    assert.equal(1, code)
    assert.matches("--fit-only is for an experiment with `fitted`", text, 1, true)
  end)
end)
