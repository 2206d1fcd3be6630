-- cheskers tb build|plan|probe|atlas : endgame tablebases from the command line
-- (the tables themselves: core/tb*.c through cheskers.tb, lua/binding/ltb.c).

local usage = [[
usage: cheskers tb build [--pieces N] [--rules SPEC] [--dir DIR] [--threads N]
                        [--only SIG] [--ignore-space]
       cheskers tb plan [--pieces N] [--rules SPEC] [--dir DIR] [--only SIG]
       cheskers tb probe FEN [--rules SPEC] [--dir DIR]
       cheskers tb atlas [--pieces N] [--rules SPEC] [--dir DIR] [--vs SPEC2]

build: builds every missing table with up to N pieces (default 4) for the
rule set SPEC (default golomb), on all cores (or --threads N), with a
progress line. Files already in DIR are kept, so an interrupted build
resumes where it stopped. Rule sets with hooks or custom piece kinds have
no tables; the draw options and first are ignored. Before it starts, it
estimates the disk space and memory the build needs and refuses, with the
figures, when DIR's disk or the free memory is short (--ignore-space
builds anyway). --only SIG builds that signature and its colour swap alone
(SIG such as KBCvKB; --pieces defaults to its pieces), refused unless every
table it reads is in DIR already: one job of a build spread over processes
or machines (scripts/tb/).

plan: the build's units (a signature and its colour swap) by level, one
line per level ("level 3: KKKvK KKBvK ..."): every table a unit reads is of
a lower level, so the units of one level can be built at once, each by
cheskers tb build --only SIG; then the size of the files, what DIR still
lacks and the memory of the largest unit. With --only SIG: that unit
alone, its level and sizes.

probe: the value of the position FEN for the side to move (win, loss or
draw, and the plies to the end with best play), then every legal move with
its value for the mover. Exit status 0 when a table covers the position,
1 when none does, 2 on an error.

atlas: for each table in DIR, Markdown: the positions won, drawn and lost
for the side to move, the share of the won ones with a single winning move,
and the longest win with its position. With --vs SPEC2, the rule sets
--rules SPEC (default golomb) and SPEC2 side by side, signature by
signature (won, drawn, lost, longest win), both built in DIR. Its heading
says which tables it covers: every signature up to the most pieces DIR
holds all of. With --pieces N it covers every table up to N pieces and
refuses a folder where some are missing (so that a partial set never
passes for the atlas): write it outside the repository's docs
(cheskers tb atlas > tb/atlas.md); docs/generated/endgames.md is regenerated with
cheskers tb atlas --pieces 4 --dir DIR > docs/generated/endgames.md.

DIR defaults to $CHESKERS_TB, else ./tb. A rule SPEC is written as for
cheskers rules (a preset name, "name=value ..." or a Lua table literal).
Whoever can write DIR decides what the tables say: keep it your own (not a
folder others can write, such as /tmp; see docs/reference/security.md).

Examples:
  cheskers tb build --pieces 3 --dir ~/tb
  cheskers tb probe "8/8/8/8/8/2k5/8/K7 w" --dir ~/tb
  cheskers tb build --rules "majority=false" --pieces 4
  cheskers tb plan --pieces 5
  cheskers tb build --only KBCvKB --dir ~/tb
  cheskers tb atlas --pieces 3 --vs "flying_kings=true"]]

local function parser()
  local cli = require "cheskers.cli"
  local p = cli.parser("cheskers tb", "Endgame tablebases.")
  p:argument("action", "build, plan, probe or atlas")
  p:argument("words", "the position for probe"):args("*")
  local number = require("cheskers.cli").number
  number(p, "--pieces", "pieces (build: default 4)", nil, "tb --pieces")
  p:option("--rules", "rule spec")
  p:option("--dir", "directory"):convert(cli.path)
  number(p, "--threads", "threads", "0", "tb --threads")
  p:option("--only", "one signature (build, plan)")
  p:flag("--ignore-space", "build even when disk or memory looks short")
  p:option("--vs", "atlas: a second rule spec, side by side with --rules")
  return p
end

local fail = require("cheskers.cli").failure("tb", 2)

local function default_dir()
  local env = os.getenv("CHESKERS_TB")
  return env and env ~= "" and env or "tb"
end

-- The rules for a spec text (nil: golomb), as cheskers.new takes them.
local function rules_of(text)
  if text == nil then return nil end
  local spec, err = require("cheskers.rulearg").parse(text)
  if spec == nil then error(err, 0) end
  return spec
end

-- "KBvK" -> "KB v K"
local function pretty(name)
  return (name:gsub("v", " v "))
end

-- --pieces: given, else the pieces of --only's signature, else 4; checked.
local function pieces_of(opts)
  local cheskers = require "cheskers"
  local cli, S = require "cheskers.cli", require "cheskers.schema"
  if not opts.pieces and opts.only then   -- (a name that is no signature: refused by name)
    opts.pieces = math.max(2, math.min(cheskers.tb.MAX_PIECES, #(opts.only:gsub("v", ""))))
  end
  opts.pieces = opts.pieces or 4
  cli.check_option("--pieces", opts.pieces, S.int { min = 2, max = cheskers.tb.MAX_PIECES })
end

-- bytes as "1.36 GB" or "20.9 MB"
local function gigabytes(bytes)
  if bytes >= 1e9 then return ("%.2f GB"):format(bytes / 1e9) end
  return ("%.1f MB"):format(bytes / 1e6)
end

local function build(opts)
  local cheskers = require "cheskers"
  pieces_of(opts)
  local show, finish = require("cheskers.cli").progress()
  local start, built = os.time(), 0
  local function progress(t)
    if not t.skipped then built = built + 1 end
    show(("[%3d/%d] %-10s %10d entries  %s"):format(t.done, t.total, pretty(t.name),
      t.positions, t.skipped and "on disk" or ("%.2f s"):format(t.seconds)))
  end
  local ok, err = cheskers.tb.build{ pieces = opts.pieces, rules = rules_of(opts.rules),
    dir = opts.dir, threads = opts.threads, progress = progress, only = opts.only,
    preflight = not opts.ignore_space }
  finish()
  if not ok then
    if tostring(err):find("^not enough ") then err = err .. " (--ignore-space builds anyway)" end
    return fail(err)
  end
  io.stdout:write(("tables with up to %d pieces in %s: %d built, %d s\n"):format(
    opts.pieces, opts.dir, built, os.time() - start))
  return 0
end

local function plan(opts)
  local cheskers = require "cheskers"
  pieces_of(opts)
  local units, err = cheskers.tb.plan{ pieces = opts.pieces, rules = rules_of(opts.rules),
    dir = opts.dir, only = opts.only }
  if not units then return fail(err) end
  local sum, out = require("cheskers.tables").plan_summary(units), {}
  for _, level in ipairs(sum.levels) do
    out[#out + 1] = ("level %d: %s"):format(level.level, table.concat(level.names, " "))
  end
  out[#out + 1] = ("%s (a signature and its colour swap), %d entries: at most %s of files, %s not yet in %s")
    :format(cheskers.plural(sum.units, "unit"), sum.entries, gigabytes(sum.disk), gigabytes(sum.todo), opts.dir)
  out[#out + 1] = ("building one unit needs at most about %s of memory (%s, with the %s of tables it reads)")
    :format(gigabytes(sum.largest.memory), pretty(sum.largest.name), gigabytes(sum.largest.deps_disk))
  io.stdout:write(table.concat(out, "\n"), "\n")
  return 0
end

local function value_text(value, dist)
  if value == "draw" then return "draw" end
  return ("%s in %s"):format(value, require("cheskers").plural(dist, "ply"))
end

local function probe(opts)
  local cheskers = require "cheskers"
  local fen = table.concat(opts.words, " ")
  if fen == "" then return fail("probe needs a position (FEN)") end
  local ok, b = pcall(cheskers.new, fen, rules_of(opts.rules))
  if not ok then return fail(b) end
  local tables = cheskers.tb.open(opts.dir)
  local value, dist = b:probe(tables)
  if value == nil and dist ~= nil then return fail(dist) end
  local side = b:turn() == "white" and "White" or "Black"
  if value == nil then
    io.stdout:write(require("cheskers.puzzle").not_covered(b, tables), "\n")
    return 1
  end
  io.stdout:write(("%s to move: %s\n"):format(side, value_text(value, dist)))
  local moves, err = b:tb_moves(tables)
  if not moves then return fail(err) end
  for _, m in ipairs(moves) do
    io.stdout:write(("  %-12s %s\n"):format(tostring(m.move),
      m.value and value_text(m.value, m.distance) or "not covered"))
  end
  return 0
end

-- "12.5%", with "100%", "0" only when exact (">99.9%", "<0.1%" near them).
local function percent(n, total)
  if total == 0 then return "-" end
  if n == total then return "100%" end
  if n == 0 then return "0" end
  local p = 100 * n / total
  if p > 99.9 then return ">99.9%" end
  if p < 0.1 then return "<0.1%" end
  return ("%.1f%%"):format(p)
end

-- The tables of the atlas for a rule spec text (cheskers.tables.atlas);
-- raises on failure.
local function atlas_tables(opts, rules_text)
  if opts.pieces then
    local cli, S = require "cheskers.cli", require "cheskers.schema"
    cli.check_option("--pieces", opts.pieces, S.int { min = 2, max = require("cheskers").tb.MAX_PIECES })
  end
  return require("cheskers.tables").atlas(opts.dir, rules_of(rules_text), opts.pieces, rules_text)
end

local function rules_line(rules)
  return ("majority=%s capture=%s promote=%s flying_kings=%s pawns_capture_backward=%s"):format(
    tostring(rules.majority), rules.capture, rules.promote, tostring(rules.flying_kings),
    tostring(rules.pawns_capture_backward))
end

local longest_of = require("cheskers.tables").longest

-- The won positions of signature t whose winner has one winning move, as
-- a share of its won positions.
local function only_move_share(a, t)
  if t.wins == 0 then return "-" end
  return percent(require("cheskers.tables").one_move(a, t), t.wins)
end

local ATLAS_INTRO = {
  "Every legal position of each material signature with **White to move**; the",
  "same position with Black to move is the colour-swapped signature (K v KB with",
  "Black to move is KB v K with White to move). Won, drawn and lost are for the",
  "side to move; a distance counts plies (one move of one side) to the end of",
  "the game with best play: the winner wins fastest, the loser resists longest.",
}

local function atlas(opts)
  local cheskers = require "cheskers"
  local a = atlas_tables(opts, opts.rules)
  local out = { ("# Cheskers endgame atlas: every table with up to %d pieces"):format(a.complete), "",
    ("Generated by `cheskers tb atlas --pieces %d` from the tablebases (see docs/guide/tables.md)."):format(
      a.complete) }
  table.move(ATLAS_INTRO, 1, #ATLAS_INTRO, #out + 1, out)
  out[#out + 1] = "*One move* is the share of the won positions in which exactly one move wins"
  out[#out + 1] = "(every other draws or loses): where studies come from (`cheskers mine --studies`)."
  out[#out + 1] = ("Rules: %s."):format(rules_line(a.rules))
  out[#out + 1] = ""
  if a.partial > 0 then
    out[#out + 1] = ("(Left out: %s of more pieces, an incomplete set.)"):format(cheskers.plural(a.partial, "table"))
    out[#out + 1] = ""
  end
  local longest = longest_of(a.list)
  out[#out + 1] = ("The longest win in these tables: %s, %s (`%s`)."):format(
    cheskers.plural(longest.longest_win, "ply"), pretty(longest.name), longest.longest_fen or "-")
  local pieces
  for _, t in ipairs(a.list) do
    if t.pieces ~= pieces then
      pieces = t.pieces
      out[#out + 1] = ("\n## %d pieces\n"):format(pieces)
      out[#out + 1] = "| signature | positions | won | drawn | lost | one move | longest win | its position |"
      out[#out + 1] = "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    end
    out[#out + 1] = ("| %s | %d | %s | %s | %s | %s | %s | %s |"):format(pretty(t.name), t.positions,
      percent(t.wins, t.positions), percent(t.draws, t.positions), percent(t.losses, t.positions),
      only_move_share(a, t), t.longest_win > 0 and tostring(t.longest_win) or "-",
      t.longest_fen and ("`%s`"):format(t.longest_fen) or "-")
  end
  io.stdout:write(table.concat(out, "\n"), "\n")
  return 0
end

-- tb atlas --rules A --vs B: the two rule sets side by side, signature by
-- signature (those both have complete tables for).
local function atlas_vs(opts)
  local cheskers = require "cheskers"
  rules_of(opts.vs)       -- a bad spec is said first, before any table is looked for
  local a, b = atlas_tables(opts, opts.rules), atlas_tables(opts, opts.vs)
  local complete = math.min(a.complete, b.complete)
  local by_name = {}
  for _, t in ipairs(b.list) do by_name[t.name] = t end
  local name_a, name_b = opts.rules or "golomb", opts.vs
  local out = { ("# Cheskers endgame atlas: %s against %s, every table with up to %d pieces"):format(
      name_a, name_b, complete), "",
    ("Generated by `cheskers tb atlas --rules A --vs B` from the tablebases (see docs/guide/tables.md)."), }
  table.move(ATLAS_INTRO, 1, #ATLAS_INTRO, #out + 1, out)
  out[#out + 1] = ("A (`%s`): %s."):format(name_a, rules_line(a.rules))
  out[#out + 1] = ("B (`%s`): %s."):format(name_b, rules_line(b.rules))
  out[#out + 1] = ""
  for _, side in ipairs { { "A", a }, { "B", b } } do
    local longest = longest_of(side[2].list)
    out[#out + 1] = ("The longest win under %s: %s, %s (`%s`)."):format(side[1],
      cheskers.plural(longest.longest_win, "ply"), pretty(longest.name), longest.longest_fen or "-")
  end
  local pieces
  for _, t in ipairs(a.list) do
    local u = by_name[t.name]
    if t.pieces <= complete and u then
      if t.pieces ~= pieces then
        pieces = t.pieces
        out[#out + 1] = ("\n## %d pieces\n"):format(pieces)
        out[#out + 1] = "| signature | won A | won B | drawn A | drawn B | lost A | lost B "
          .. "| longest win A | longest win B |"
        out[#out + 1] = "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
      end
      local function longest(x) return x.longest_win > 0 and tostring(x.longest_win) or "-" end
      out[#out + 1] = ("| %s | %s | %s | %s | %s | %s | %s | %s | %s |"):format(pretty(t.name),
        percent(t.wins, t.positions), percent(u.wins, u.positions),
        percent(t.draws, t.positions), percent(u.draws, u.positions),
        percent(t.losses, t.positions), percent(u.losses, u.positions), longest(t), longest(u))
    end
  end
  io.stdout:write(table.concat(out, "\n"), "\n")
  return 0
end

local function run(args)
  local okp, opts = pcall(require("cheskers.cli").parse_args, parser(), args, usage)
  if not okp then return fail(opts) end   -- (exit status 2, as every refusal of tb)
  if not opts then return 0 end
  opts.dir = opts.dir or default_dir()
  if opts.vs and opts.action ~= "atlas" then return fail("--vs is for tb atlas") end
  local actions = { build = build, plan = plan, probe = probe, atlas = opts.vs and atlas_vs or atlas }
  local fn = actions[opts.action]
  if not fn then
    return fail(require("cheskers.cli").not_one_of(opts.action, "action", { "build", "plan", "probe", "atlas" }))
  end
  if opts.action ~= "probe" and #opts.words > 0 then
    return fail("unexpected argument '" .. opts.words[1] .. "'")
  end
  local okr, rc = pcall(fn, opts)
  if not okr then return fail(rc) end
  return rc
end

return {
  summary = "endgame tablebases: build them, probe a position, write the atlas",
  usage = usage,
  run = run,
}
