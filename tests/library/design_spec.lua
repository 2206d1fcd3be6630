-- tests/library/design_spec.lua - design search (cheskers.design, issue 33): the
-- design file's reader, the candidates of a space, racing's error control
-- on planted truth (an A/A space over 20 seeds, a planted handicap, a known
-- answer, and Bernoulli data of known rates), survivors replayed by
-- `cheskers experiment`, shards and resuming. The expectations come from
-- the issue and the stated method (docs/guide/design.md: Bonferroni over
-- candidates x tests x looks), never from the program's output. Small
-- budgets, fast bots (builtin-greedy, engine:nodes=30).
local design = require "cheskers.design"
local design_report = require "cheskers.design_report"
local report = require "cheskers.report"
local stats = require "cheskers.stats"
local H = require "helpers"

local P = require "design_planted"

local function base_design(t)
  local d = { name = "t", players = { bots = "builtin-greedy" }, max_plies = 80, random_plies = 2,
              racing = { round = 20, looks = 4, alpha = 0.05 } }
  for k, v in pairs(t) do d[k] = v end
  return d
end

-- Runs the program with these words: its output and whether it exited 0.
local function run(words)
  local q = {}
  for i, w in ipairs(words) do q[i] = H.shell_quote(w) end
  local out, code = H.run_program(table.concat(q, " "))
  return out, code == 0
end

local function by_label(result)
  local t = {}
  for _, c in ipairs(result.candidates) do t[c.label] = c end
  return t
end

describe("design files", function()
  it("reads a space, targets and racing, with defaults", function()
    local d = design.normalize(base_design {
      space = { majority = { true, false }, promote = "subsets" },
      targets = { { measure = "draws", at_most = 0.2 }, { measure = "mean_plies", goal = "min" } },
    })
    assert.equal(2 * 7, d.size)            -- subsets of K, B, C: 7
    assert.is_true(d.enumerated)
    assert.equal(1, #d.tests)              -- a goal is not a test
    assert.equal(14, #design.enumerate(d))
  end)

  it("refuses an unknown field, measure or goal with where and the nearest name", function()
    local function err(t)
      local ok, e = pcall(design.normalize, t, "my.lua")
      assert.is_false(ok)
      return e
    end
    local e = err(base_design { space = { majority = { true } }, target = {} })
    assert.matches("^my.lua: unknown field 'target' %(did you mean 'targets'%?%)", e)
    e = err(base_design { space = { majority = { true } }, targets = { { measure = "draw", at_most = 1 } } })
    assert.matches("target 1: measure must be .*not 'draw' %(did you mean 'draws'%?%)", e)
    e = err(base_design { space = { majorty = { true } }, targets = { { measure = "draws", at_most = 1 } } })
    assert.matches("unknown field 'majorty' %(did you mean 'majority'%?%)", e)
    e = err(base_design { space = { majority = { true } }, targets = { { measure = "draws", at_most = 1, goal = "min" } } })
    assert.matches("target 1: give one of within, at_most, at_least or goal", e)
    e = err(base_design { space = { capture = { "jump" } }, targets = { { measure = "draws", at_most = 1 } } })
    assert.matches("^my.lua: space: capture: value 1 %(jump%): capture must be", e)
    assert.not_matches("\n", e)
  end)

  it("applies constraints and names candidates by their options alone", function()
    local d = design.normalize(base_design {
      space = { capture = { "mixed", "optional" }, majority = { true, false } },
      constraints = { function(r) return not (r.capture == "optional" and r.majority == false) end },
      targets = { { measure = "draws", at_most = 1 } },
    })
    local labels = {}
    for _, c in ipairs(design.enumerate(d)) do labels[#labels + 1] = c.label end
    assert.same({ "capture=mixed,majority=true", "capture=mixed,majority=false", "capture=optional,majority=true" },
                labels)
    -- the same candidate in another design of the same name has the same experiment name
    local d2 = design.normalize(base_design { space = { majority = { false, true }, capture = { "mixed" } },
                                              targets = { { measure = "draws", at_most = 1 } } })
    local c2 = design.enumerate(d2)[1]
    assert.equal("capture=mixed,majority=false", c2.label)
    assert.equal(design.enumerate(d)[2].name, c2.name)
    -- a start position is labelled by its place, but another position is another candidate
    local function first_name(fen)
      return design.enumerate(design.normalize(base_design { space = { start = { fen } },
        targets = { { measure = "draws", at_most = 1 } } }))[1]
    end
    local a, b = first_name(P.START), first_name(P.NO_WHITE_BISHOP)
    assert.equal("start=1", a.label)
    assert.equal(a.label, b.label)
    assert.not_equal(a.name, b.name)
  end)
end)

describe("racing's error control", function()
  it("uses Bonferroni over candidates x tests x looks", function()
    local d = design.normalize(base_design {
      space = { majority = { true, false } },
      targets = { { measure = "draws", at_most = 1 }, { measure = "white_score", within = { 0, 1 } } },
    })
    local r = design.run(d, { play = function() return {} end })
    assert.equal(2 * 2 * 4, r.m)
    -- the two-sided normal quantile at alpha / m: 1 - Phi(z) = alpha / (2m)
    assert.is_true(math.abs(1 - stats.normal_cdf(r.z) - 0.05 / (2 * 16)) < 1e-6)
  end)

  it("gives bounded means Wilson's interval, never a point when every game ended alike", function()
    -- 30 draws scored 1/2: the mean 0.5 with an interval of positive width
    local lo, hi = stats.bounded_mean_ci(0.5, 30)
    assert.is_true(lo < 0.5 and hi > 0.5)
    -- for wins and losses it is Wilson's: 7 of 20 at 95%, by its formula
    local z, p, n = stats.Z95, 7 / 20, 20
    local centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    local half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    lo, hi = stats.bounded_mean_ci(p, n)
    assert.is_true(math.abs(lo - (centre - half)) < 1e-12 and math.abs(hi - (centre + half)) < 1e-12)
  end)

  it("claims falsely no more often than alpha over 200 seeds of known truth", function()
    local false_reject, false_meet = P.known_rates(200)
    assert.is_true(false_reject <= P.tolerance(200, 0.05), "false rejections in " .. false_reject .. " of 200 seeds")
    assert.is_true(false_meet <= P.tolerance(200, 0.05), "false claims of meeting in " .. false_meet .. " of 200 seeds")
  end)

  it("A/A: over 20 seeds, candidates that play the same game are not declared different", function()
    local differ, claims = P.aa(20)
    assert.is_true(differ <= P.tolerance(20, 0.05), "declared different in " .. differ .. " of 20 seeds")
    assert.is_true(claims > 0, "the A/A check decided nothing: its target tests nothing")
  end)
end)

describe("planted truth with real games", function()
  it("drops a planted handicap early and reports the games it used", function()
    local r, c = P.handicap()
    assert.equal("rejected", c.status)
    assert.equal(1, c.why)
    assert.is_true(c.games <= 40, "the handicap took " .. c.games .. " games")
    assert.is_true(c.games < r.design.round * r.design.looks)
    assert.not_equal("rejected", by_label(r)["start=1"].status)
    local text = design_report.text(r)
    assert.matches("start=2.-rejected by white_score within 0.300%-0.850 after " .. c.games .. " games", text)
  end)

  it("finds the known answer: the one candidate that meets a target the others miss", function()
    local r = P.known_answer()
    local ranked = design.ranked(r)
    assert.equal(1, #ranked)
    assert.equal("start=3", ranked[1].label)
    assert.equal("rejected", by_label(r)["start=2"].status)
    assert.same({ ranked[1] }, design.pareto(r))
  end)
end)

describe("cheskers design", function()
  local file_text = [[
return {
  name = "tiny",
  space = { majority = { true, false }, first = { "white", "black" } },
  targets = { { measure = "white_score", within = { 0.2, 0.8 } }, { measure = "mean_plies", goal = "min" } },
  players = { bots = "builtin-greedy" }, max_plies = 60, random_plies = 2,
  racing = { round = 15, looks = 4 },
}
]]
  local function decisions(text)
    local t = {}
    for line in text:gmatch("[^\n]+") do
      if line:match("^%s*%d+%. ") or line:match("rejected by") or line:match("^%a.*: %d+$") then t[#t + 1] = line end
    end
    return table.concat(t, "\n")
  end

  it("writes the report, the page and survivors that cheskers experiment replays", function()
    local dir = H.tmpdir()
    local file = dir .. "/tiny.lua"
    H.write_file(file, file_text)
    local out, ok = run({ "design", file, "--out", dir .. "/one", "--quiet" })
    assert.is_true(ok, out)
    assert.matches("Meet every target, ranked: %d", out)
    assert.equal(out, H.read_file(dir .. "/one/design.txt"))
    assert.matches("<h1>Cheskers design search: tiny</h1>", H.read_file(dir .. "/one/design.html"))
    -- every survivor: its rules text and an experiment file whose games are the design's
    local d = design.load(file)
    local any = false
    for _, c in ipairs(design.enumerate(d)) do
      local exp = dir .. "/one/survivors/" .. c.name .. ".lua"
      if io.open(exp) then
        any = true
        local rulespec = require "cheskers.rulespec"
        local text = H.read_file(dir .. "/one/survivors/" .. c.name .. ".rules"):gsub("\n$", "")
        assert.is_true(rulespec.equal(c.rules, assert(rulespec.parse_text(text))))
        local _, rok = run({ "experiment", exp, "--out", dir .. "/replay", "--quiet" })
        assert.is_true(rok)
        local a = report.read_dir(dir .. "/replay")
        local b = report.read_dir(dir .. "/one/games/" .. c.name)
        assert.is_true(#a > 0 and #a == #b)
        for i = 1, #a do
          assert.same({ a[i].variant, a[i].game, a[i].result, a[i].plies }, { b[i].variant, b[i].game, b[i].result, b[i].plies })
        end
        break
      end
    end
    assert.is_true(any, "no survivor to replay")
    H.rmdir(dir)
  end)

  it("two shards at once and a resumed run reach the decisions of one process", function()
    local dir = H.tmpdir()
    local file = dir .. "/tiny.lua"
    H.write_file(file, file_text)
    local one = run({ "design", file, "--out", dir .. "/one", "--quiet" })
    assert.matches("Meet every target", one)
    -- two processes sharing a folder
    local prog = os.getenv("CHESKERS") or "./cheskers"
    local cmd = ("%s design %s --out %s/two --shard %%d/2 --quiet > %s/s%%d.txt 2>&1"):format(prog, file, dir, dir)
    assert.is_true(os.execute(("(%s) & (%s); wait"):format(cmd:format(1, 1), cmd:format(2, 2))))
    local s1, s2 = H.read_file(dir .. "/s1.txt"), H.read_file(dir .. "/s2.txt")
    assert.equal(decisions(one), decisions(s1))
    assert.equal(decisions(one), decisions(s2))
    -- a run stopped by its budget, then run again without it
    local part = run({ "design", file, "--out", dir .. "/three", "--quiet", "--budget", "70" })
    assert.matches("Stopped early", part)
    H.write_file(dir .. "/three/survivors/tiny-0000000000.lua", "-- a survivor of an earlier run\n")
    local again = run({ "design", file, "--out", dir .. "/three", "--quiet" })
    assert.equal(decisions(one), decisions(again))
    assert.is_nil(io.open(dir .. "/three/survivors/tiny-0000000000.lua"), "an earlier run's survivor is left")
    H.rmdir(dir)
  end)

  it("runs a design file given --sandbox in a box", function()
    local dir = H.tmpdir()
    local file = dir .. "/evil.lua"
    H.write_file(file, "io.open('" .. dir .. "/planted', 'w')\nreturn {}")
    local out, ok = run({ "design", file, "--out", dir .. "/o", "--sandbox", "--quiet" })
    assert.is_false(ok)
    assert.matches("sandbox: 'io' is not available", out)
    assert.is_nil(io.open(dir .. "/planted"))
    H.rmdir(dir)
  end)

  it("says what is wrong with a bad file in one line", function()
    local dir = H.tmpdir()
    local file = dir .. "/bad.lua"
    H.write_file(file, "return { space = { majority = { true } }, targets = { { measure = 'draws', at_mots = 1 } } }")
    local out, ok = run({ "design", file, "--out", dir .. "/o" })
    assert.is_false(ok)
    assert.matches("unknown field 'at_mots' %(did you mean 'at_most'%?%)", out)
    assert.not_matches("traceback", out)
    H.rmdir(dir)
  end)
end)
