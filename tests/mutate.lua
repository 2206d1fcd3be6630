-- tests/mutate.lua - mutation testing of the C core (make mutate).
--
-- Makes small deliberate bugs in core/*.c, one at a time: a flipped
-- comparison, a swapped && / ||, a negated condition, a deleted statement,
-- an off-by-one. Each mutant is built and the core's tests run against it;
-- a mutant that no test notices "survives". The report lists the survivors,
-- so that a developer can add the test that would have caught each, or
-- judge it equivalent (a change no test could see, e.g. an optimisation
-- guard) and list it in tests/mutate_equivalent.txt.
--
--   lua5.4 tests/mutate.lua [--seed S] [--per-file N] [--files core/a.c,...]
--                           [--report FILE] [--timeout SECONDS]
--                           [--recheck REPORT]
--
-- Sites are chosen with a fixed seed, so two runs try the same mutants.
-- --recheck REPORT tries again only the survivors listed in an earlier
-- report (after adding the tests that should kill them), found by file,
-- operator and the text of the line, so that lines may have moved.
-- The work happens in a copy of the tree (a temporary folder removed at
-- the end); the checkout is never modified. The tests run are the ones
-- that exercise the core (CORE_TESTS below), not the whole suite, fastest
-- and most searching first; each stops at its first failure (busted
-- --no-keep-going), so a killed mutant costs seconds. A mutant whose object
-- file comes out byte for byte the same as the original's (the compiler
-- saw through the change) is "identical": equivalent without a doubt, left
-- out of the score and not tested. A test command that runs longer than
-- --timeout seconds (default: each command 3 times its unmutated run, at
-- least 15 s) kills the mutant (an endless loop is a caught bug).
--
-- tests/mutate_equivalent.txt: one mutant a line, "FILE:LINE OPERATOR", as
-- the report prints it, then " # why it is equivalent". Those are left out
-- of the score.

local CORE_TESTS = {
  "lua5.4 /usr/bin/busted --no-keep-going -o TAP tests/core/edges_spec.lua tests/core/rules_spec.lua "
    .. "tests/core/perft_spec.lua tests/binding/binding_spec.lua tests/library/rulestext_spec.lua tests/library/record_spec.lua "
    .. "tests/core/engine_spec.lua tests/binding/misuse_spec.lua tests/core/conformance_spec.lua "
    .. "tests/core/property_spec.lua tests/library/puzzle_spec.lua",
  "sh tests/core/search_signature_test.sh",
  "sh tests/core/status_test.sh",
  "sh tests/core/search_test.sh",
  "sh tests/core/solve_test.sh",
}

-- Suites run first (before CORE_TESTS) for a mutant of these files only:
-- they are slow, and only these files' mutants can fail them alone.
local FILE_TESTS = {
  ["core/tb.c"] = { "lua5.4 /usr/bin/busted --no-keep-going -o TAP tests/core/tb_spec.lua", "sh tests/core/tb_test.sh",
                    "lua5.4 /usr/bin/busted --no-keep-going -o TAP tests/core/tbuse_spec.lua" },
  ["core/tb_index.c"] = { "lua5.4 /usr/bin/busted --no-keep-going -o TAP tests/core/tb_spec.lua", "sh tests/core/tb_test.sh",
                          "lua5.4 /usr/bin/busted --no-keep-going -o TAP tests/core/tbuse_spec.lua" },
  ["core/tb_file.c"] = { "lua5.4 /usr/bin/busted --no-keep-going -o TAP tests/core/tb_spec.lua", "sh tests/core/tb_test.sh",
                         "lua5.4 /usr/bin/busted --no-keep-going -o TAP tests/core/tbuse_spec.lua" },
  ["core/solve.c"] = { "lua5.4 /usr/bin/busted --no-keep-going -o TAP tests/core/tbuse_spec.lua" },
  ["core/search_tb.c"] = { "lua5.4 /usr/bin/busted --no-keep-going -o TAP tests/core/tbuse_spec.lua" },
  ["core/status.c"] = { "sh tests/core/status_test.sh" },
  ["core/tb_build.c"] = { "lua5.4 /usr/bin/busted --no-keep-going -o TAP tests/core/tb_spec.lua", "sh tests/core/tb_test.sh" },
  -- the C API's edges that the binding never reaches (a second, quick)
  ["core/board.c"] = { "sh tests/core/capi_test.sh" },
  ["core/squares.c"] = { "sh tests/core/capi_test.sh" },
  ["core/result.c"] = { "sh tests/core/capi_test.sh" },
  ["core/movetext.c"] = { "sh tests/core/capi_test.sh" },
  ["core/rules.c"] = { "sh tests/core/capi_test.sh" },
}

-- Each operator: a name, a Lua pattern found on the line, its replacement.
local OPERATORS = {
  { "eq->ne", "([^=!<>])==([^=])", "%1!=%2" },
  { "ne->eq", "!=", "==" },
  { "lt->le", "([^<])<([^<=])", "%1<=%2" },
  { "le->lt", "<=", "<" },
  { "gt->ge", "([^>%-])>([^>=])", "%1>=%2" },
  { "ge->gt", ">=", ">" },
  { "and->or", "&&", "||" },
  { "or->and", "||", "&&" },
  { "negate-if", "if %((.*)%)%s*$", "if (!(%1))" },
  { "negate-if", "if %((.*)%)%s*{%s*$", "if (!(%1)) {" },
  { "plus1->minus1", "%+ 1([^%d])", "- 1%1" },
  { "minus1->plus1", "%- 1([^%d])", "+ 1%1" },
  { "delete-stmt", "^(%s+)[%a_][%w_%.%->%[%]]*%s*[%+%-%*|&^]?=%s*[^=].*;%s*$", "%1;" },
  { "delete-call", "^(%s+)[%a_][%w_]*%(.*%);%s*$", "%1;" },
}

local function fail(msg) io.stderr:write("mutate: ", msg, "\n") os.exit(2) end

local function parse_args()
  local argparse = require "argparse"
  local p = argparse("mutate", "Mutation testing of the C core (see the header of tests/mutate.lua).")
  p:option("--seed", "Seed that chooses the mutation sites.", 1, tonumber)
  p:option("--per-file", "Mutants tried in each file.", 30, tonumber)
  p:option("--files", "Comma-separated files (default: every core/*.c).")
  p:option("--report", "Where the report is written.", "build/mutate-report.txt")
  p:option("--timeout", "Seconds each test command may run (default: 3 times its clean run, at least 15).",
    nil, tonumber)
  p:option("--recheck", "Try again only the survivors listed in this earlier report.")
  local o = p:parse(arg)
  if o.files then
    local list = {}
    for f in o.files:gmatch("[^,]+") do list[#list + 1] = f end
    o.files = list
  end
  return o
end

local function read_lines(path)
  local t = {}
  for l in io.lines(path) do t[#t + 1] = l end
  return t
end

local function write_lines(path, lines)
  local f = assert(io.open(path, "w"))
  f:write(table.concat(lines, "\n"), "\n")
  f:close()
end

local function sh(cmd) -- true when the command exits 0
  local ok = os.execute(cmd)
  return ok == true
end

local function capture(cmd)
  local p = assert(io.popen(cmd))
  local s = p:read("a")
  p:close()
  return s
end

-- Lines that are code, not comments, preprocessor lines or declarations of
-- tables (a mutant there is mostly a compile error or data, not logic).
local function is_code(line)
  if line:match("^%s*$") or line:match("^%s*/?%*") or line:match("^%s*//") or line:match("^%s*#") then
    return false
  end
  if line:match("^static const") or line:match("^%s*static const") then return false end
  return true
end

-- Every (line, operator) pair that applies to the file.
local function sites_of(lines)
  local sites = {}
  local in_comment = false
  for n, line in ipairs(lines) do
    local code = line
    if in_comment then
      local e = code:find("*/", 1, true)
      if e then in_comment = false code = code:sub(e + 2) else code = "" end
    end
    if code:find("/*", 1, true) and not code:find("*/", 1, true) then in_comment = true end
    if is_code(code) then
      for _, op in ipairs(OPERATORS) do
        local mutated, k = line:gsub(op[2], op[3], 1)
        if k > 0 and mutated ~= line then sites[#sites + 1] = { line = n, op = op[1], text = mutated } end
      end
    end
  end
  return sites
end

-- A deterministic choice of n of the sites (a seeded shuffle, kept in file order).
local function choose(sites, n, seed)
  math.randomseed(seed)
  for i = #sites, 2, -1 do
    local j = math.random(i)
    sites[i], sites[j] = sites[j], sites[i]
  end
  local chosen = {}
  for i = 1, math.min(n, #sites) do chosen[i] = sites[i] end
  table.sort(chosen, function(a, b) return a.line < b.line or (a.line == b.line and a.op < b.op) end)
  return chosen
end

local function load_equivalent(path)
  local eq = {}
  local f = io.open(path, "r")
  if not f then return eq end
  for l in f:lines() do
    local key = l:match("^([^#]-)%s*#") or l
    key = key:match("^%s*(.-)%s*$")
    if key ~= "" then eq[key] = true end
  end
  f:close()
  return eq
end

-- The test commands for a mutant of file (all of them, each once, for file
-- nil: the clean run times every command that a mutant may run).
local function tests_for(file)
  local list, seen = {}, {}
  local function add(c)
    if not seen[c] then list[#list + 1], seen[c] = c, true end
  end
  for f, cmds in pairs(FILE_TESTS) do
    if file == f or file == nil then
      for _, c in ipairs(cmds) do add(c) end
    end
  end
  for _, c in ipairs(CORE_TESTS) do add(c) end
  return list
end

-- Seconds since an arbitrary start, to the millisecond where date has it.
local function now()
  return tonumber(capture("date +%s.%N")) or os.time()
end

-- Runs the commands for file; false at the first that fails. timeout: a
-- number, or a table command -> seconds; took (a table, optional) receives
-- each command's time.
local function run_tests(dir, timeout, file, took)
  for _, cmd in ipairs(tests_for(file)) do
    local limit = type(timeout) == "table" and timeout[cmd] or timeout
    local t0 = now()
    local out = capture(string.format("cd %s && timeout -s KILL %d %s 2>&1; echo \"exit=$?\"", dir, limit, cmd))
    if took then took[cmd] = now() - t0 end
    if out:find("\nnot ok ", 1, true) or out:match("^not ok ") or not out:match("exit=0%s*$") then
      return false
    end
  end
  return true
end

-- The survivors of an earlier report, as "FILE OPERATOR\tLINE TEXT" -> true
-- (the report gives "FILE:LINE OPERATOR", then "    - " and the line).
local function load_recheck(path)
  local keys, any, last = {}, false, nil
  local f = io.open(path, "r")
  if not f then fail("cannot read " .. path) end
  for l in f:lines() do
    local file, op = l:match("^(core/%S+):%d+ (%S+)%s*$")
    if file then last = file .. " " .. op end
    local text = l:match("^    %- (.*)$")
    if text and last then keys[last .. "\t" .. text] = true any = true last = nil end
  end
  f:close()
  if not any then fail(path .. " lists no survivors") end
  return keys
end

-- A copy of the tree, built, whose core tests pass: its folder and the
-- timeout for each test command (o.timeout, or 3 times the clean run).
local function prepare(root, o)
  local work = capture("mktemp -d"):match("%S+")
  local function give_up(msg) os.execute("rm -rf " .. work) fail(msg) end
  if not sh(string.format("cd %s && git ls-files -z | xargs -0 cp --parents -t %s", root, work)) then
    give_up("cannot copy the tree")
  end
  if not sh("cd " .. work .. " && make -s all >/dev/null 2>&1") then give_up("the tree does not build") end
  local took, limits, total = {}, {}, 0
  if not run_tests(work, 3600, nil, took) then give_up("the core tests fail without any mutant") end
  for cmd, t in pairs(took) do
    limits[cmd] = o.timeout or math.max(15, math.ceil(3 * t))
    total = total + t
  end
  io.write(string.format("core tests take %.0f s unmutated\n", total))
  return work, limits
end

-- Builds and tests one mutant of file (its lines, one replaced): its outcome.
local function try_mutant(work, file, lines, timeout)
  local obj = work .. "/build/" .. file:gsub("%.c$", ".o")
  write_lines(work .. "/" .. file, lines)
  if not sh("cd " .. work .. " && make -s all >/dev/null 2>&1") then
    return "invalid"   -- does not compile: not a mutant
  end
  if sh(string.format("cmp -s %s %s.orig", obj, obj)) then return "identical" end
  return run_tests(work, timeout, file) and "survived" or "killed"
end

local function main()
  local o = parse_args()
  local root = capture("git rev-parse --show-toplevel 2>/dev/null"):match("^%s*(.-)%s*$")
  if root == "" then fail("run it inside the repository") end
  local files = o.files
  if not files then
    files = {}
    for f in capture("cd " .. root .. " && ls core/*.c"):gmatch("%S+") do files[#files + 1] = f end
  end
  local recheck = o.recheck and load_recheck(o.recheck)
  local equivalent = load_equivalent(root .. "/tests/mutate_equivalent.txt")
  local work, timeout = prepare(root, o)

  local report = {}
  local totals = { killed = 0, survived = 0, invalid = 0, equivalent = 0, identical = 0 }
  for _, file in ipairs(files) do
    local path = work .. "/" .. file
    local obj = work .. "/build/" .. file:gsub("%.c$", ".o")
    sh(string.format("cp %s %s.orig", obj, obj))
    local original = read_lines(path)
    local chosen = recheck and sites_of(original) or choose(sites_of(original), o.per_file, o.seed)
    for _, s in ipairs(chosen) do
      local key = string.format("%s:%d %s", file, s.line, s.op)
      local text = original[s.line]:match("^%s*(.-)%s*$")
      if not recheck or recheck[file .. " " .. s.op .. "\t" .. text] then
        local lines = { table.unpack(original) }
        lines[s.line] = s.text
        local outcome = equivalent[key] and "equivalent" or try_mutant(work, file, lines, timeout)
        if outcome == "survived" then
          report[#report + 1] = string.format("%s\n    - %s\n    + %s", key,
            original[s.line]:match("^%s*(.-)%s*$"), s.text:match("^%s*(.-)%s*$"))
        end
        totals[outcome] = totals[outcome] + 1
        io.write(string.format("%-10s %s\n", outcome, key))
        io.flush()
      end
    end
    write_lines(path, original)
    sh("cd " .. work .. " && make -s all >/dev/null 2>&1")
  end
  os.execute("rm -rf " .. work)
  local counted = totals.killed + totals.survived
  local score = counted > 0 and 100 * totals.killed / counted or 0
  local summary = string.format("mutants: %d killed, %d survived, %d equivalent (listed), "
    .. "%d identical (same object code), %d invalid; score %.1f%% of non-equivalent mutants caught",
    totals.killed, totals.survived, totals.equivalent, totals.identical, totals.invalid, score)
  os.execute("mkdir -p " .. root .. "/build")
  local report_path = o.report:sub(1, 1) == "/" and o.report or (root .. "/" .. o.report)
  local f = assert(io.open(report_path, "w"))
  f:write(summary, "\n\nsurvivors:\n", table.concat(report, "\n"), "\n")
  f:close()
  print(summary)
  print("survivors listed in " .. o.report)
end

main()
