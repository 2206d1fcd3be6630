-- The numbers users write (cheskers.numbers, docs/reference/security.md "Numbers"),
-- tried on every surface from the declarations: every numeric option of
-- every subcommand (found in their argparse parsers), every number of the
-- REPL's commands, every numeric option of the shipped bots and of
-- b:search. Each gets 0, -1, 2^31, 2^32+1, 2^63, 1e999, NaN, an empty text
-- and a 10,000-digit number, and must refuse it in one line or take a value
-- inside its declared range. A last check finds numbers read outside the
-- reader (a converter or tonumber in a subcommand or REPL command).
local H = require "helpers"
local cheskers = require "cheskers"
local N = require "cheskers.numbers"
local S = require "cheskers.schema"
local cli = require "cheskers.cli"

local HOSTILE = { "0", "-1", "2147483648", "4294967297", "9223372036854775808", "1e999", "nan", "",
                  ("9"):rep(10000) }

-- Whether v is a value spec allows.
local function allowed(v, spec) return S.read(v, spec) ~= nil end

-- One line of text, no traceback.
local function one_line(msg)
  msg = tostring(msg)
  return msg ~= "" and not msg:find("\n", 1, true) and not msg:find("traceback", 1, true)
end

-- The argparse parser each subcommand reads its arguments with: caught in
-- cli.parse_args (the one reader of a subcommand's arguments) by running
-- the subcommand without arguments.
local function parsers()
  local found, real = {}, cli.parse_args
  for _, name in ipairs(cli.subcommands()) do
    local mod = assert(cli.subcommand(name))
    cli.parse_args = function(p) found[name] = p error("caught", 0) end
    local real_out, real_err = io.stdout, io.stderr
    io.stdout, io.stderr = io.tmpfile(), io.tmpfile()   -- (usage printed for no arguments, the catch reported)
    pcall(mod.run, {}, cli)
    io.stdout:close()
    io.stderr:close()
    io.stdout, io.stderr = real_out, real_err
    cli.parse_args = real
  end
  return found
end

describe("cheskers.numbers: every numeric option of every surface, tried with hostile values", function()
  local found = parsers()

  it("finds the parsers of the subcommands that take numbers", function()
    for _, name in ipairs({ "match", "tournament", "tune", "experiment", "mine", "rules", "tb", "check", "report" }) do
      assert.is_not_nil(found[name], name)
    end
  end)

  it("every option of a subcommand that converts its value is read by a declared reader", function()
    local n = 0
    for name, p in pairs(found) do
      for _, o in ipairs(p._options) do
        if o._convert ~= nil and o._convert ~= require("cheskers.cli").path then   -- (paths: cli.path)
          n = n + 1
          local key = N.key_of(o._convert)
          assert.is_not_nil(key, ("cheskers %s %s converts its value without cheskers.numbers"):format(name, o._name))
          assert.is_not_nil(N.DECLARED[key], key)
          local max = tostring(N.DECLARED[key].max)
          assert.is_true(o._description:find("[", 1, true) ~= nil and (o._description:find(max, 1, true) ~= nil
                         or key == "--seed"), ("cheskers %s --help: %s gives no range"):format(name, o._name))
        end
      end
      for _, a in ipairs(p._arguments) do   -- (only paths: cli.path)
        assert.is_true(a._convert == nil or a._convert == require("cheskers.cli").path,
                       ("cheskers %s: argument %s converts its value"):format(name, a._name))
      end
    end
    assert.is_true(n >= 25, "numeric options found: " .. n)
  end)

  it("every such option refuses each hostile value in one line naming it, or takes it inside its range", function()
    for name, p in pairs(found) do
      for _, o in ipairs(p._options) do
        local key = N.key_of(o._convert)
        if key then
          local spec = N.DECLARED[key]
          for _, v in ipairs(HOSTILE) do
            local what = ("cheskers %s %s '%s'"):format(name, o._name, v:sub(1, 20))
            local x, err = N.read(v, key)
            if x ~= nil then
              assert.is_true(allowed(x, spec), what)
            else
              assert.is_true(one_line(err), what)
              local ok, perr = pcall(cli.parse_args, p, { o._name, v })
              assert.is_false(ok, what)
              assert.is_true(one_line(perr), what .. ": " .. tostring(perr))
              assert.matches(o._name .. " must be ", tostring(perr), 1, true)
              assert.is_true(#tostring(perr) < 300, what .. ": the value is clipped")
            end
          end
        end
      end
    end
  end)

  it("every declaration has a maximum, and none lets 2^31, 1e999, NaN or an empty text through", function()
    for key, spec in pairs(N.DECLARED) do
      assert.is_number(spec.max, key)
      assert.is_true(spec.max < 2 ^ 63, key)
      for _, v in ipairs({ "2147483648", "1e999", "nan", "inf", "", " 1", "0x10", ("9"):rep(10000) }) do
        if not (spec.max >= 2147483648 and v == "2147483648") then
          assert.is_nil(N.read(v, key), key .. " " .. v:sub(1, 20))
        end
      end
    end
  end)

  it("a whole number past 64 bits is refused, never rounded into the range (--seed's is all of them)", function()
    -- Lua reads these as floats; the nearest float of each is -2^63, an integer in --seed's range
    for _, v in ipairs({ "-9223372036854775809", "-9223372036854775810", "-9223372036854776000" }) do
      local x, err = N.read(v, "--seed", "--seed")
      assert.is_nil(x, v)
      assert.matches("not '" .. v .. "'", err, 1, true)
    end
    assert.equal(math.mininteger, N.read("-9223372036854775808", "--seed"))
    assert.equal(math.maxinteger, N.read("9223372036854775807", "--seed"))
    assert.is_nil(N.read("9223372036854775808", "--seed"))
  end)

  it("the REPL's numbers and numeric settings: refused in one line each, or taken (the game is over: nothing runs)",
     function()
    local lines, expect = { "fen 8/8/8/8/8/8/8/K7 w" }, {}
    local puzzles = H.ROOT .. "/scripts/puzzles/stalemate.lua"
    local forms = { ["go depth"] = "go depth %s", ["go nodes"] = "go nodes %s", ["go time"] = "go time %s",
                    perft = "perft %s", divide = "divide %s", undo = "undo %s", redo = "redo %s",
                    puzzle = "puzzle " .. puzzles .. " %s" }
    local keys = {}
    for key in pairs(forms) do keys[#keys + 1] = key end
    local function last(k) return k == "puzzle" and "~" .. k or k end   -- a puzzle set up ends the game over
    table.sort(keys, function(a, b) return last(a) < last(b) end)
    for _, key in ipairs(keys) do
      assert.is_not_nil(N.DECLARED[key], key)
      for _, v in ipairs(HOSTILE) do
        if v ~= "" then   -- (an empty word is no argument at all)
          lines[#lines + 1] = forms[key]:format(v)
          expect[#lines] = N.read(v, key) == nil and key
        end
      end
    end
    lines[#lines + 1] = "go 4294967297"
    expect[#lines] = "go depth"
    -- the numeric settings, given as Lua values
    for _, key in ipairs({ "history_size", "progress_after" }) do
      for _, v in ipairs(HOSTILE) do
        local lua = v == "" and '""' or v == "nan" and "0/0" or v
        lines[#lines + 1] = ("repl.settings.%s = %s"):format(key, lua)
        local x = load("return " .. lua)()
        expect[#lines] = not allowed(x, N.DECLARED[key]) and key
      end
    end
    local path = H.tmpname()
    local f = assert(io.open(path, "w"))
    f:write(table.concat(lines, "\n"), "\n")
    f:close()
    local p = assert(io.popen(("timeout 20 %s < %s 2>&1 >/dev/null"):format(os.getenv("CHESKERS") or "./cheskers", path)))
    local out = p:read("a")
    p:close()
    os.remove(path)
    local said = {}
    for line in out:gmatch("[^\n]+") do
      local n, msg = line:match("^cheskers: line (%d+): (.*)$")
      assert.is_not_nil(n, "an error line that names no input line: " .. line)
      n = tonumber(n)
      assert.is_nil(said[n], "two lines of error for line " .. n)
      said[n] = msg
    end
    for i = 2, #lines do
      if expect[i] then
        assert.is_not_nil(said[i], lines[i]:sub(1, 40))
        assert.matches("must be ", said[i], 1, true)
      elseif said[i] then
        assert.is_true(said[i]:find("game is over", 1, true) ~= nil or said[i]:find("nothing to", 1, true) ~= nil
                       or said[i]:find("puzzle: N must be 1 to", 1, true) ~= nil, lines[i] .. ": " .. said[i])
      end
    end
  end)

  it("the shipped bots declare a maximum for every number, and refuse the hostile values in one line", function()
    local bots = require "cheskers.bots"
    for _, name in ipairs({ "engine", "alphabeta", "mcts" }) do
      local path = H.ROOT .. "/scripts/bots/" .. name .. ".lua"
      local decl = dofile(path).options
      for opt, d in pairs(decl) do
        if type(d) == "table" and (d.type == "integer" or d.type == "number") or d == "integer" or d == "number" then
          assert.is_table(d, name .. ":" .. opt)
          assert.is_number(d.max, name .. ":" .. opt .. " declares no maximum")
          for _, v in ipairs(HOSTILE) do
            local spec = name .. ":" .. opt .. "=" .. v
            local ok, err = pcall(bots.load, spec)
            if ok then
              assert.is_true(v ~= "" and tonumber(v) ~= nil and tonumber(v) <= d.max, spec:sub(1, 40))
            else
              assert.is_true(one_line(err), spec:sub(1, 40))
            end
          end
        end
      end
    end
    local ok, err = pcall(bots.load, "engine:depth=200")
    assert.is_false(ok)
    assert.equal("bot engine:depth=200: depth must be a whole number from 1 to 127, not 200", err)
  end)

  it("match.run's option table declares a maximum for every number, and refuses the hostile values in one line",
     function()
    local match = require "cheskers.match"
    local n = 0
    for name, spec in pairs(match.CONFIG.fields) do
      if type(spec) == "table" and (spec.kind == "int" or spec.kind == "num") or spec == "integer" or spec == "number" then
        n = n + 1
        assert.is_table(spec, name)
        assert.is_number(spec.max, name .. " declares no maximum")
        for _, v in ipairs({ 0, -1, 1 << 31, (1 << 32) + 1, 2 ^ 63, math.huge, 0 / 0, "", ("9"):rep(10000) }) do
          local ok, err = pcall(match.run, { a = "random", b = "random", games = 0, [name] = v })
          if not ok then
            assert.is_true(one_line(err), name)
            assert.matches(name .. " must be ", tostring(err), 1, true)
          else
            assert.is_true(allowed(v, spec), name .. " = " .. tostring(v):sub(1, 20))
          end
        end
      end
    end
    assert.is_true(n >= 8, "numbers of match.run: " .. n)
  end)

  it("b:search reads its numbers in their ranges: nothing wraps to a C int, no inf or NaN", function()
    local b = cheskers.new()
    local values = { 0, -1, 1 << 31, (1 << 32) + 1, 2 ^ 63, math.huge, 0 / 0, "", ("9"):rep(10000) }
    for _, opt in ipairs({ "depth", "nodes", "time", "info_every", "rfp_margin", "fp_margin" }) do
      for _, v in ipairs(values) do
        local o = { [opt] = v }
        if opt ~= "depth" then o.depth = 1 end   -- an accepted node count or time ends at depth 1
        local t0 = cheskers.clock()
        local ok, res = pcall(b.search, b, o)
        local what = opt .. " = " .. tostring(v):sub(1, 20)
        if ok then
          assert.equal(1, res.depth, what)
        else
          assert.is_true(one_line(res), what)
          assert.matches("search: " .. opt .. " must be ", tostring(res), 1, true)
        end
        assert.is_true(cheskers.clock() - t0 < 5, what)
      end
    end
  end)

  it("no subcommand or REPL command reads a number but through cheskers.numbers", function()
    local files = {}
    for _, dir in ipairs({ "repl/cheskers/cmd", "repl/commands" }) do
      local p = assert(io.popen("ls " .. H.ROOT .. "/" .. dir))
      for f in p:lines() do
        if f:match("%.lua$") then files[#files + 1] = dir .. "/" .. f end
      end
      p:close()
    end
    files[#files + 1] = "repl/registry.lua"
    files[#files + 1] = "lua/cheskers/match.lua"
    for _, path in ipairs(files) do
      local text = assert(io.open(H.ROOT .. "/" .. path)):read("a")
      text = text:gsub(":convert%(cli%.path%)", "")   -- (paths have their own converter)
      for _, bad in ipairs({ ":convert(", "tonumber(", "math.tointeger(" }) do
        assert.is_nil(text:find(bad, 1, true), path .. " reads a number with " .. bad)
      end
    end
  end)
end)

describe("design files: every number has a declared maximum and refuses the hostile values in one line", function()
  local design = require "cheskers.design"
  -- the hostile values as a Lua data file writes them (a 10,000-digit literal and 2^63 are floats there)
  local LITERALS = { "0", "-1", "2147483648", "4294967297", "9223372036854775808", "1e999", "0/0", '""',
                     ("9"):rep(10000) }

  -- The paths ({"racing", "round"}) and specs of the numbers of a record spec, and of its records.
  local function numbers_of(spec, path, out)
    for _, name in ipairs(S.fields(spec)) do
      local f = spec.fields[name]
      local p = { table.unpack(path) }
      p[#p + 1] = name
      if f == "integer" or f == "number" or type(f) == "table" and (f.kind == "int" or f.kind == "num") then
        out[#out + 1] = { path = p, spec = f }
      elseif type(f) == "table" and f.kind == "record" then
        numbers_of(f, p, out)
      end
    end
    return out
  end

  local function file_with(path, lua)
    local parts = { "name = 't'", "space = { majority = { true } }", "players = { bots = 'random' }" }
    local target = "{ measure = 'draws', at_most = 0.5 }"
    if path[1] == "targets" then
      target = path[2] == "within" and ("{ measure = 'draws', within = { %s, %s } }"):format(lua, lua)
               or ("{ measure = 'draws', %s = %s }"):format(path[2], lua)
    else
      local text = lua
      for i = #path, 2, -1 do text = ("{ %s = %s }"):format(path[i], text) end
      parts[#parts + 1] = path[1] .. " = " .. text
    end
    parts[#parts + 1] = "targets = { " .. target .. " }"
    return "return { " .. table.concat(parts, ", ") .. " }\n"
  end

  it("finds the numbers of the design schema, each with a maximum", function()
    local found = numbers_of(design.schema(), {}, {})
    local names = {}
    for _, n in ipairs(found) do
      local name = table.concat(n.path, ".")
      names[name] = true
      assert.is_table(n.spec, name .. " is read without a declared range")
      assert.is_number(n.spec.max, name .. " declares no maximum")
      assert.is_true(n.spec.max < 2 ^ 63, name)
    end
    for _, name in ipairs({ "seed", "racing.round", "racing.looks", "budget.games", "budget.time",
                            "proposer.candidates", "proposer.initial", "max_plies", "random_plies" }) do
      assert.is_true(names[name], name)
    end
  end)

  it("a design file refuses each hostile value of each number in one line naming it, or takes it in range", function()
    local found = numbers_of(design.schema(), {}, {})
    for _, t in ipairs({ "at_most", "at_least", "within" }) do
      found[#found + 1] = { path = { "targets", t }, spec = N.DECLARED["design target"] }
    end
    local file = H.tmpname(".lua")
    for _, n in ipairs(found) do
      for _, lua in ipairs(LITERALS) do
        local what = table.concat(n.path, ".") .. " = " .. lua:sub(1, 20)
        H.write_file(file, file_with(n.path, lua))
        local ok, err = pcall(design.load, file)
        local value = load("return " .. lua)()
        if ok then
          assert.is_true(allowed(value, n.spec) and value <= n.spec.max, what)
        else
          assert.is_true(one_line(err), what .. ": " .. tostring(err))
          assert.matches(n.path[#n.path] .. " must be ", tostring(err), 1, true)
          assert.is_true(#tostring(err) < 400, what .. ": the value is clipped")
        end
      end
    end
    os.remove(file)
  end)
end)

describe("the program: huge numbers are one line, not a hang, a schedule or a traceback", function()
  local run = H.run_program
  local d

  before_each(function() d = H.tmpdir() end)
  after_each(function() H.rmdir(d) end)

  local CASES = {
    { "tune --out D/t --time 1e999", "--time must be a number > 0 and <= 86400, not '1e999'" },
    { "match random random --games 2147483648", "--games must be a whole number from 1 to 1000000" },
    { "tournament random greedy mcts --games 1000000 --out D/u", "more than the 1000000 of one schedule" },
    { "match engine:depth=200 random --games 1", "depth must be a whole number from 1 to 127, not 200" },
    { "tournament --report D --prior 1e999", "--prior must be a number from 0 to 1000000, not '1e999'" },
    { "report D --plies-margin 1e999", "--plies-margin must be a number > 0 and <= 100000, not '1e999'" },
    { "tournament random greedy --out D/v --shard 99999999999999999999/99999999999999999999",
      "shard must be I/N with 1 <= I <= N <= 1000000" },
    { "tune --out D/w --shard 1/99999999999999999999", "shard must be I/N with 1 <= I <= N <= 1000000" },
    { "experiment D/none.lua --out D/x --shard 1/" .. ("9"):rep(10000), "shard must be I/N" },
    { "match random random --sprt 1e999,0", "--sprt must be a number from -1000 to 1000" },
  }
  for _, row in ipairs(CASES) do
    it(row[1]:sub(1, 70), function()
      local out, rc = run((row[1]:gsub("D", d)))
      assert.equal(1, rc, out)
      assert.matches(row[2], out, 1, true)
      assert.equal(1, select(2, out:gsub("\n", "")), out)
      assert.is_nil(out:find("traceback", 1, true))
    end)
  end
end)
