-- cheskers rules diff A B [FEN] [--depth N]   what two rule sets disagree on
-- cheskers rules show SPEC                      the full rule set of a spec

local usage = [[
usage: cheskers rules diff A B [FEN] [--depth N] [--all]
       cheskers rules show SPEC

diff: the legal moves and perft counts that differ between rule sets A and
B in the position FEN (default: each rule set's own start position, which
differs for example with first=white). Prints the options that differ, the
moves legal under only one of them, perft 1..N (default 4) under both, and,
at the first depth where the counts differ, the root moves whose subtree
counts differ. Exit status 0 when the two agree, 1 when they differ, 2 when
a spec or the position cannot be read.

A rule spec (A, B, SPEC) is written as one of:
  golomb                                 a preset name
  "majority=false capture=jumps"         options, name=value, spaces or commas between
  "{promote='K', pieces={C={leaps={{1,5}}}}}"
                                         a Lua table literal; it may hold filter and
                                         result functions, which see cheskers, math,
                                         string, table and pure base functions only
  rules/mine.lua                         a Lua file returning a rule table
  scripts/experiments/camel.lua:camel-1-5
                                         the rules of a variant of an experiment file

A position with spaces may be given quoted or as several arguments.

Examples:
  cheskers rules diff golomb majority=false "7k/8/3p4/8/1p6/P5p1/7P/K7 w"
  cheskers rules diff golomb "{pieces={C={leaps={{1,1}}}}}" --depth 3
  cheskers rules diff first=black first=white
  cheskers rules show "{flying_kings=true}"]]

local function parser()
  local p = require("cheskers.cli").parser("cheskers rules", "Compare and show rule sets.")
  p:argument("action", "diff or show")
  p:argument("specs", "rule specs and position"):args("*")
  require("cheskers.cli").number(p, "--depth", "perft depth", "4", "rules --depth")
  p:flag("--all", "list every perft depth's divide, not only the first that differs")
  return p
end

local fail = require("cheskers.cli").failure("rules", 2)

-- An option value for people: the rules text's form; "-" unset, <hook> a function.
local function value_text(v)
  if v == nil then return "-" end
  if type(v) == "function" then return "<hook>" end
  return require("cheskers.rulespec").value_text(v)
end

local sorted_keys = require("cheskers.luadata").sorted_keys

-- The full rule set, or nil, message.
local function full_rules(spec_text)
  local cheskers = require "cheskers"
  local spec, err = require("cheskers.rulearg").parse(spec_text)
  if spec == nil then return nil, err end
  local ok, full = pcall(cheskers.rules, spec)
  if not ok then return nil, tostring(full) end
  return full, spec
end

local function show(spec_text)
  local full, spec = full_rules(spec_text)
  if not full then return fail(spec) end
  -- the rules text that reads back to this rule set (hooks cannot be written)
  io.stdout:write(("%-24s %s\n"):format("(as text)", require("cheskers.rulespec").format(spec)))
  for _, k in ipairs(sorted_keys(full)) do
    io.stdout:write(("%-24s %s\n"):format(k, value_text(full[k])))
  end
  return 0
end

local function write_list(label, list)
  io.stdout:write(("  %s (%d):"):format(label, #list))
  if #list == 0 then io.stdout:write(" -\n") return end
  local col = 4 + #label + 6
  for _, t in ipairs(list) do
    if col + #t + 1 > 78 then io.stdout:write("\n     ") col = 5 end
    io.stdout:write(" ", t)
    col = col + #t + 1
  end
  io.stdout:write("\n")
end

-- rules diff: the differences (cheskers.rulespec.diff) printed.
local function diff(a_text, b_text, fen, depth, all)
  local fa, sa = full_rules(a_text)
  if not fa then return fail("A: " .. tostring(sa)) end
  local fb, sb = full_rules(b_text)
  if not fb then return fail("B: " .. tostring(sb)) end
  local r, err = require("cheskers.rulespec").diff(sa, sb, fen, depth, all)
  if not r then return fail(err) end
  local out = io.stdout
  out:write("A: ", a_text, "\nB: ", b_text, "\n")
  if #r.options == 0 then out:write("rule options: the same\n")
  else
    out:write("rule options that differ:\n")
    for _, o in ipairs(r.options) do
      out:write(("  %-22s A %s   B %s\n"):format(o[1], value_text(o[2]), value_text(o[3])))
    end
  end
  if r.fen[1] == r.fen[2] then
    out:write("position: ", r.fen[1], "\n")
  else
    out:write("position A: ", r.fen[1], "\nposition B: ", r.fen[2], "\n")
  end
  out:write(("legal moves: A %d, B %d, in common %d\n"):format(r.count[1], r.count[2], r.common))
  if #r.only_a > 0 or #r.only_b > 0 then
    write_list("only under A", r.only_a)
    write_list("only under B", r.only_b)
  end
  out:write(("%-6s %14s %14s\n"):format("perft", "A", "B"))
  for _, p in ipairs(r.perft) do
    out:write(("%-6d %14d %14d%s\n"):format(p[1], p[2], p[3], p[2] ~= p[3] and "   differs" or ""))
  end
  for _, dv in ipairs(r.divides) do
    out:write(("root moves whose perft(%d) subtree differs (- = not legal):\n"):format(dv.depth))
    out:write(("  %-16s %12s %12s\n"):format("move", "A", "B"))
    for _, row in ipairs(dv.rows) do
      out:write(("  %-16s %12s %12s\n"):format(row[1], tostring(row[2] or "-"), tostring(row[3] or "-")))
    end
  end
  out:write(r.differs and "the rule sets differ here\n" or "no difference found\n")
  return r.differs and 1 or 0
end

local function run(args)
  local opts = require("cheskers.cli").parse_args(parser(), args, usage)
  if not opts then return 0 end
  local specs = opts.specs
  if opts.action == "show" then
    if #specs ~= 1 then return fail("show needs one rule spec; see cheskers rules --help") end
    return show(specs[1])
  elseif opts.action == "diff" then
    if #specs < 2 then return fail("diff needs A, B and optionally a position; see cheskers rules --help") end
    local fen = #specs > 2 and table.concat(specs, " ", 3) or nil
    local okd, rc = pcall(diff, specs[1], specs[2], fen, opts.depth, opts.all)
    if not okd then
      if require("cheskers").error_code(rc) == "interrupted" then error(rc, 0) end
      return fail(tostring(rc))       -- a hook that raised, for example
    end
    return rc
  end
  return fail(require("cheskers.cli").not_one_of(tostring(opts.action), "action", { "diff", "show" })
              .. "; see cheskers rules --help")
end

return {
  summary = "compare rule sets: moves and perft counts that differ (rules diff A B [FEN])",
  usage = usage,
  run = run,
}
