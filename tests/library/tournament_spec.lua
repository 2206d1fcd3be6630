-- tests/library/tournament_spec.lua - tournaments (cheskers.tournament) and their
-- ratings (cheskers.stats.ratings, stats.los): maximum likelihood checked
-- against cases solved by hand, the schedule, a tiny tournament whose every
-- result is forced (bots that fault on their first move), its crosstable
-- text, the folder store (resume, shards merged equal one run).
local stats = require "cheskers.stats"
local tournament = require "cheskers.tournament"
local H = require "helpers"

local ELO = 400 / math.log(10)   -- Elo per natural unit of strength

local function near(expected, actual, tol, what)
  assert(math.abs(expected - actual) <= (tol or 1e-6),
         string.format("%s: expected %.9g, got %.9g", what or "value", expected, actual))
end

describe("stats.normal_cdf", function()
  it("matches the normal table", function()
    -- Phi(0) = 0.5, Phi(1) = 0.841344746, Phi(1.959964) = 0.975, Phi(-2.326348) = 0.01
    near(0.5, stats.normal_cdf(0), 1e-6)
    near(0.841344746, stats.normal_cdf(1), 1e-6)
    near(0.975, stats.normal_cdf(1.959964), 1e-6)
    near(0.01, stats.normal_cdf(-2.326348), 1e-6)
  end)
end)

describe("stats.ratings", function()
  it("two bots without draws: the odds of the results, Elo 400 log10(W/L)", function()
    -- Bradley-Terry for one pairing fits the observed rate exactly:
    -- e^(t1 - t2) = W / L = 3, so t1 - t2 = ln 3 (190.85 Elo), +-95.42 around
    -- a mean of 0. The information about d = t1 - t2 is n p (1 - p) = 4 *
    -- 3/4 * 1/4 = 3/4, so sd(d) = sqrt(4/3) = 1.1547 and sd(t1) = sd(d) / 2
    -- (t1 = d / 2): 0.57735 natural units = 100.296 Elo.
    local r = stats.ratings({ { i = 1, j = 2, w = 3, d = 0, l = 1 } }, 2)
    assert.is_true(r.finite)
    near(ELO * math.log(3) / 2, r.elo[1], 1e-6, "elo 1")
    near(-ELO * math.log(3) / 2, r.elo[2], 1e-6, "elo 2")
    near(0, r.nu, 0, "nu")
    near(ELO * math.sqrt(4 / 3) / 2, r.se[1], 1e-6, "se")
    near(r.elo[1] - 1.959964 * r.se[1], r.lo[1], 1e-3, "lo")
    near(r.elo[1] + 1.959964 * r.se[1], r.hi[1], 1e-3, "hi")
    -- LOS = Phi(ln 3 / sqrt(4/3)) = Phi(0.951426) = 0.829305
    near(0.829305, stats.los(r, 1, 2), 2e-6, "los")
    near(1 - 0.829305, stats.los(r, 2, 1), 2e-6, "los back")
  end)

  it("two bots with draws: Davidson fits W, D, L exactly", function()
    -- P(win) : P(draw) : P(loss) = p1 : nu sqrt(p1 p2) : p2 = W : D : L
    -- gives p1 / p2 = W / L = 5 / 2 and nu = D / sqrt(W L) = 4 / sqrt(10).
    local r = stats.ratings({ { i = 1, j = 2, w = 5, d = 4, l = 2 } }, 2)
    near(ELO * math.log(5 / 2), r.elo[1] - r.elo[2], 1e-6, "difference")
    near(0, r.elo[1] + r.elo[2], 1e-9, "mean")
    near(4 / math.sqrt(10), r.nu, 1e-6, "nu")
  end)

  it("three bots on a chain with draws: each pairing fitted on its own", function()
    -- A-B: 4 wins, 2 draws, 1 loss; B-C: 1, 1, 1; A and C never meet. Both
    -- pairings fit exactly with one nu: D / sqrt(W L) = 2 / sqrt(4) = 1 and
    -- 1 / sqrt(1) = 1. So tA - tB = ln 4 (240.82 Elo), tB = tC; mean 0:
    -- A = 2/3 * 240.82 = +160.55, B = C = -80.27.
    local r = stats.ratings({ { i = 1, j = 2, w = 4, d = 2, l = 1 }, { i = 2, j = 3, w = 1, d = 1, l = 1 } }, 3)
    near(2 / 3 * ELO * math.log(4), r.elo[1], 1e-6, "A")
    near(-1 / 3 * ELO * math.log(4), r.elo[2], 1e-6, "B")
    near(-1 / 3 * ELO * math.log(4), r.elo[3], 1e-6, "C")
    near(1, r.nu, 1e-6, "nu")
  end)

  it("a full round robin satisfies the likelihood equations", function()
    -- At the maximum of Davidson's likelihood each bot's score equals its
    -- expected score, sum over its games of P(win) + P(draw) / 2, and the
    -- draws equal the expected draws (the derivatives in t_i and ln nu).
    local pairs = { { i = 1, j = 2, w = 3, d = 2, l = 1 }, { i = 1, j = 3, w = 2, d = 1, l = 3 },
                    { i = 2, j = 3, w = 4, d = 3, l = 2 }, { i = 1, j = 4, w = 1, d = 0, l = 2 },
                    { i = 2, j = 4, w = 2, d = 2, l = 2 }, { i = 3, j = 4, w = 0, d = 1, l = 3 } }
    local r = stats.ratings(pairs, 4)
    local score, expected, draws, expected_draws = { 0, 0, 0, 0 }, { 0, 0, 0, 0 }, 0, 0
    for _, p in ipairs(pairs) do
      local n = p.w + p.d + p.l
      local pi, pj = math.exp(r.elo[p.i] / ELO), math.exp(r.elo[p.j] / ELO)
      local pd = r.nu * math.sqrt(pi * pj)
      local den = pi + pj + pd
      score[p.i] = score[p.i] + p.w + p.d / 2
      score[p.j] = score[p.j] + p.l + p.d / 2
      expected[p.i] = expected[p.i] + n * (pi + pd / 2) / den
      expected[p.j] = expected[p.j] + n * (pj + pd / 2) / den
      draws, expected_draws = draws + p.d, expected_draws + n * pd / den
    end
    for i = 1, 4 do near(score[i], expected[i], 1e-6, "score of " .. i) end
    near(draws, expected_draws, 1e-6, "draws")
    near(0, r.elo[1] + r.elo[2] + r.elo[3] + r.elo[4], 1e-6, "mean")
  end)

  it("a perfect score has no finite maximum; virtual draws make one", function()
    local r = stats.ratings({ { i = 1, j = 2, w = 3, d = 0, l = 0 } }, 2)
    assert.is_false(r.finite)
    -- one virtual draw = half a win and half a loss: 3.5 to 0.5, odds 7
    r = stats.ratings({ { i = 1, j = 2, w = 3, d = 0, l = 0 } }, 2, { prior = 1 })
    assert.is_true(r.finite)
    near(ELO * math.log(7), r.elo[1] - r.elo[2], 1e-6, "difference")
  end)
end)

describe("tournament schedule", function()
  it("pairs every two bots, or the gauntlet bot with each", function()
    assert.are.same({ { 1, 2 }, { 1, 3 }, { 2, 3 } }, tournament.pairings(3, false))
    assert.are.same({ { 1, 2 }, { 1, 3 }, { 1, 4 } }, tournament.pairings(4, true))
    assert.are.same({ "g", "a", "b" }, tournament.players { gauntlet = "g", bots = { "a", "b" } })
  end)

  it("numbers games round by round and deals them to shards", function()
    local all = tournament.schedule(3, 2)
    assert.are.same({ round = 1, pair = 1, game = 1 }, all[1])
    assert.are.same({ round = 4, pair = 1, game = 2 }, all[4])
    assert.are.same({ round = 6, pair = 3, game = 2 }, all[6])
    local s2 = tournament.schedule(3, 2, 2, 4)
    assert.are.same({ { round = 2, pair = 2, game = 1 }, { round = 6, pair = 3, game = 2 } }, s2)
  end)
end)

-- Bots whose every result is known: greedy (a real bot), nomove (returns
-- nothing) and illegal (returns a move that is not legal) lose a game at
-- their first turn. Four random opening plies leave Black, who moves first,
-- to move: so greedy wins all its games, and between nomove and illegal
-- the one with Black loses: 1-1 in two games.
local FORCED = {
  "greedy",
  { name = "nomove", choose = function() return nil end },
  { name = "illegal", choose = function() return "a1-h8" end },
}

describe("a tournament with forced results", function()
  local sum
  setup(function() sum = tournament.run { bots = FORCED, games = 2, seed = 5 } end)

  it("plays every game of every pairing", function()
    assert.are.equal(6, #sum.results)
    assert.are.same({ "greedy", "nomove", "illegal" }, sum.names)
  end)

  it("prints the crosstable and the standings", function()
    local t = tournament.standings(sum)
    local text = tournament.report(t)
    -- greedy 4/4; nomove and illegal 1 point each. greedy's perfect score
    -- brings in one virtual draw a pairing; by symmetry nomove = illegal and
    -- greedy's two pairings are each 2.5 to 0.5: odds 5, greedy ln 5 above
    -- the other two, 2/3 of 279.59 = +186 Elo, the others -93.
    local expected_table = table.concat({
      "crosstable (points of the row's bot against the column's / games):",
      "  #  bot        1    2    3",
      "  1  greedy     .  2/2  2/2",
      "  2  nomove   0/2    .  1/2",
      "  3  illegal  0/2  1/2    .",
    }, "\n")
    assert.truthy(text:find(expected_table, 1, true), text)
    assert.truthy(text:find("round robin of 3 bots, 6 games", 1, true), text)
    assert.truthy(text:find("  1  greedy       4      4   100.0   +186", 1, true), text)
    assert.truthy(text:find("  2  nomove       4      1    25.0    -93", 1, true), text)
    assert.truthy(text:find("  3  illegal      4      1    25.0    -93", 1, true), text)
    assert.truthy(text:find("1 virtual draw added to each pairing", 1, true), text)
  end)

  it("says how the games ended and which bot lost games by a fault", function()
    local text = tournament.report(tournament.standings(sum))
    -- Black moves first after the 4 opening plies: nomove and illegal each
    -- fault at their first turn, so in their own game the one with Black
    -- loses: 3 games each, by "no move" and by "illegal move".
    assert.truthy(text:find("\nended by: illegal move 3, no move 3\n", 1, true), text)
    assert.truthy(text:find("\nlost by a fault: nomove 3 (no move 3), illegal 3 (illegal move 3)\n", 1, true),
                  text)
    -- the prior as the code counts it, and the scale of the ratings
    assert.truthy(text:find("each counted as half a win and half a loss", 1, true), text)
    assert.truthy(text:find("scale of the win/loss odds", 1, true), text)
  end)

  it("names the bot that faulted, once, with its traceback", function()
    local r = { game = 3, white = "greedy", black = "liar", winner = "white", reason = "illegal move",
                detail = "illegal move a1-h8: no piece on a1" }
    assert.are.equal("game 7: liar (black) lost by illegal move a1-h8: no piece on a1",
                     require("cheskers.match").fault_text(r, 7))
    r = { game = 2, white = "oops", black = "greedy", winner = "black", reason = "error",
          detail = "oops.lua:3: boom", traceback = "stack traceback:\n\toops.lua:3: in function 'choose'" }
    assert.are.equal("game 2: oops (white) lost by error: oops.lua:3: boom\nstack traceback:\n"
                     .. "\toops.lua:3: in function 'choose'", require("cheskers.match").fault_text(r))
    assert.is_nil(require("cheskers.match").fault_text { game = 1, white = "a", black = "b", winner = "white",
                                                         reason = "kings" })
  end)

  it("gives the likelihood of superiority of each bot over the next", function()
    local t = tournament.standings(sum)
    -- The information is a weighted graph Laplacian: a pairing of n games
    -- (virtual ones included) at win probability q weighs n q (1 - q):
    -- greedy-nomove and greedy-illegal 3 * 5/6 * 1/6 = 5/12, nomove-illegal
    -- 3 * 1/4 = 3/4. Var(t_greedy - t_nomove) is the effective resistance:
    -- 12/5 in parallel with 12/5 + 4/3, i.e. 2.4 * 3.7333 / 6.1333 = 1.46087.
    -- LOS = Phi(ln 5 / sqrt(1.46087)) = Phi(1.33158); then nomove = illegal: 1/2.
    local var = 2.4 * (2.4 + 4 / 3) / (2.4 + 2.4 + 4 / 3)
    near(stats.normal_cdf(math.log(5) / math.sqrt(var)), t.los[1], 1e-6, "LOS greedy")
    near(0.908, t.los[1], 1e-3, "LOS greedy by table")
    near(0.5, t.los[2], 1e-6, "LOS nomove")
  end)

  it("writes game records with the tags rating tools read", function()
    local text = tournament.render_record({ seed = 5 }, sum.results[1])
    assert.truthy(text:find('[White "greedy"]', 1, true))
    assert.truthy(text:find('[Black "nomove"]', 1, true))
    assert.truthy(text:find('[Result "1-0"]', 1, true))
    -- the seven-tag roster first, in PGN's order; Round: game 1 of pairing 1
    assert.truthy(text:find('^%[Event "cheskers tournament"%]\n%[Site "%?"%]\n%[Date "[%d.]+"%]\n'
                            .. '%[Round "1%.1"%]\n%[White "greedy"%]\n%[Black "nomove"%]\n%[Result "1%-0"%]\n'), text)
    local board = require("cheskers.record").read(text)
    assert.are.equal(4, #board:history())   -- the opening; nomove never moved
  end)

  it("aligns names of any length and shows them escaped, one row each", function()
    -- a bot's name is its file's choice: 120 characters (a format width past
    -- 99 is refused by string.format), a newline, an escape sequence, a NUL
    local long = string.rep("n", 120)
    local t = tournament.standings { names = { long, "x\n  2  forged\27[2J\0" }, pairs = { { 1, 2 } },
      results = { { pair = 1, score_a = 1 } } }
    local text = tournament.report(t)
    local shown = "x\\n  2  forged\\x1b[2J\\x00"      -- 24 characters
    assert.truthy(text:find("\n  #  bot" .. string.rep(" ", 117) .. "  games", 1, true), text)
    assert.truthy(text:find("\n  1  " .. long .. "      1      1", 1, true), text)
    assert.truthy(text:find("\n  2  " .. shown .. string.rep(" ", 120 - #shown) .. "      1      0", 1, true), text)
    assert.truthy(text:find("\n  2  " .. shown .. string.rep(" ", 120 - #shown) .. "  0/1    .", 1, true), text)
    assert.is_nil(text:find("[\0-\9\11-\31]"))
    assert.is_nil(text:find("\n  2  forged"))
  end)

  it("an HTML crosstable escapes names", function()
    local t = tournament.standings { names = { "a<b", "c" }, pairs = { { 1, 2 } },
      results = { { pair = 1, score_a = 1 } } }
    local html = tournament.html(t)
    assert.truthy(html:find("a&lt;b", 1, true))
    assert.falsy(html:find("a<b", 1, true))
  end)

  it("an HTML page stands on its own: heading, score %, settings, command, footer", function()
    local t = tournament.standings(sum)
    local html = tournament.html(t, { command = "cheskers tournament --report runs/t --html t.html" })
    assert.truthy(html:find("<h1>Cheskers tournament: round robin of 3 bots, 6 games</h1>", 1, true), html)
    -- greedy: 4 games, 4 points, 100.0%
    assert.truthy(html:find('<td class="name">greedy</td><td>4</td><td>4</td><td>100.0</td>', 1, true), html)
    assert.truthy(html:find("<th>%</th>", 1, true), html)
    -- the settings of run{seed = 5, games = 2}: the defaults otherwise
    assert.truthy(html:find('<th class="l">seed</th><td class="l">5</td>', 1, true), html)
    assert.truthy(html:find('<th class="l">games per pairing</th><td class="l">2</td>', 1, true), html)
    assert.truthy(html:find('<th class="l">rules</th><td class="l">golomb</td>', 1, true), html)
    assert.truthy(html:find("Made by <code>cheskers tournament --report runs/t --html t.html</code>", 1, true), html)
    assert.truthy(html:find("lost by a fault: nomove 3 (no move 3), illegal 3 (illegal move 3)", 1, true), html)
    assert.truthy(html:find("Davidson&#39;s model of draws", 1, true), html)
    assert.truthy(html:find("mean 0", 1, true), html)
    assert.truthy(html:find("half a win and half a loss", 1, true), html)
    assert.truthy(html:find("LOS: that a bot is stronger than the next", 1, true), html)
  end)
end)

describe("a tournament folder", function()
  local function outcomes(results)
    local t = {}
    for _, r in ipairs(results) do
      t[r.round] = table.concat({ r.pair, r.game, r.white, r.black, r.winner, r.reason, r.plies,
                                  table.concat(r.moves, " ") }, "|")
    end
    return t
  end
  local BOTS = { "builtin-random", "builtin-greedy", "random" }

  it("two shards merged hold the games of one run", function()
    local one, two = H.tmpdir(), H.tmpdir()
    tournament.run { bots = BOTS, games = 3, seed = 2, out = one, max_plies = 80 }
    tournament.run { bots = BOTS, games = 3, seed = 2, out = two, max_plies = 80, shard = 2, shards = 2 }
    local half = assert(tournament.read_dir(two))
    assert.are.equal(4, #half.results)
    assert.truthy(half.warnings[1]:find("found 4 of 9 games", 1, true))
    tournament.run { bots = BOTS, games = 3, seed = 2, out = two, max_plies = 80, shard = 1, shards = 2 }
    local a, b = assert(tournament.read_dir(one)), assert(tournament.read_dir(two))
    assert.are.equal(9, #a.results)
    assert.are.same(outcomes(a.results), outcomes(b.results))
    assert.are.equal(tournament.report(tournament.standings(a)), tournament.report(tournament.standings(b)))
  end)

  it("resumes: a second run plays only the missing games; more games extend it", function()
    local dir = H.tmpdir()
    local n = 0
    local stop = function() return n >= 2 end
    tournament.run { bots = BOTS, games = 2, out = dir, progress = function() n = n + 1 end, stop = stop }
    assert.are.equal(2, #assert(tournament.read_dir(dir)).results)
    local s = tournament.run { bots = BOTS, games = 2, out = dir }
    assert.are.equal(2, s.skipped)
    assert.are.equal(4, s.played)
    s = tournament.run { bots = BOTS, games = 3, out = dir }
    assert.are.same({ 6, 3 }, { s.skipped, s.played })
    local fresh = H.tmpdir()
    tournament.run { bots = BOTS, games = 3, out = fresh }
    assert.are.same(outcomes(assert(tournament.read_dir(fresh)).results),
                    outcomes(assert(tournament.read_dir(dir)).results))
  end)

  it("refuses a folder of another tournament, naming what differs", function()
    local dir = H.tmpdir()
    tournament.run { bots = BOTS, games = 1, out = dir }
    local ok, err = pcall(tournament.run, { bots = BOTS, games = 1, out = dir, seed = 9 })
    assert.is_false(ok)
    assert.truthy(tostring(err):find("seed: 1 there, 9 here", 1, true), err)
    local s = tournament.run { bots = BOTS, games = 1, out = dir, seed = 9, restart = true }
    assert.are.equal(3, s.played)
  end)

  it("counts only the games of the schedule; says what does not belong by file and line", function()
    local dir = H.tmpdir()
    tournament.run { bots = BOTS, games = 2, out = dir, max_plies = 40 }   -- 3 pairings x 2 games
    local file = tournament.shard_file(dir, 1, 1)
    local text = H.read_file(file)
    local last = require("cheskers.store").decode(text:match("([^\n]+)\n$"))
    local function moved(fields)
      local t = {}
      for k, v in pairs(last) do t[k] = v end
      for k, v in pairs(fields) do t[k] = v end
      return require("cheskers.store").encode(t)
    end
    -- lines 8 to 11 after the header and the 6 games
    H.write_file(file, text .. table.concat({
      moved { game = 3, pair = 1, round = 7 },     -- a third game of pairing 1: the plan has 2
      "{\"pair\":1,",                              -- unreadable
      moved { pair = 4, round = 4, game = 2 },     -- no pairing 4 among 3 bots
      moved { round = 1 },                         -- game 2 of pairing 3 is round 6, not 1
    }, "\n") .. "\n")
    H.write_file(dir .. "/match.jsonl", '{"header":"cheskers results","kind":"match","fingerprint":{}}\n')
    local sum = assert(tournament.read_dir(dir))
    assert.are.same({ 6, 6 }, { #sum.results, sum.total })
    assert.are.same({
      dir .. "/match.jsonl: results of a match, not of a tournament: not counted",
      file .. ":9: unreadable line: not counted",
      file .. ":8, 10, 11: game outside the schedule (3 pairings, 2 games each): not counted",
    }, sum.warnings)
    local t = tournament.standings(sum)
    assert.are.equal(6, t.games)
    assert.truthy(tournament.report(t):find("warning: " .. file .. ":9: unreadable line: not counted", 1, true))
  end)

  it("takes over the lock of its shard's file with steal_lock (--steal-lock)", function()
    local dir = H.tmpdir()
    local lock = tournament.shard_file(dir, 1, 1) .. ".lock"
    os.execute("mkdir -p '" .. lock .. "'")
    H.write_file(lock .. "/owner", "4242@other-node\n")     -- a run of another machine
    local ok, err = pcall(tournament.run, { bots = BOTS, games = 1, out = dir })
    assert.is_false(ok)
    assert.truthy(tostring(err):find("in use by another run (4242@other-node); if no such run is alive, "
                                     .. "use --steal-lock", 1, true), err)
    local s = tournament.run { bots = BOTS, games = 1, out = dir, steal_lock = true }
    assert.are.equal(3, s.played)
    assert.is_nil(io.open(lock .. "/owner"))
  end)

  it("says what is wrong with a bad configuration", function()
    assert.has_error(function() tournament.run { bots = { "random" } } end, "a tournament needs at least two bots")
    assert.has_error(function() tournament.run { bots = BOTS, shard = 1, shards = 2 } end,
                     "--shard needs --out DIR (each shard writes its own file there)")
    local ok, err = pcall(tournament.run, { bots = { "random", "no-such-bot" } })
    assert.is_false(ok)
    assert.truthy(tostring(err):find("no-such-bot", 1, true))
  end)
end)
