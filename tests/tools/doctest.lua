-- tests/tools/doctest.lua - runs the examples of Markdown files and compares what
-- they print (tests/tools/docs_test.sh runs it over README.md and docs/guide/*.md;
-- the convention is README's "Five-minute tours" and docs/reference/testing.md):
--   ```console   each line "$ CMD" is run by sh, PATH with the repository's
--                 cheskers first, CHESKERS_ROOT the repository; the lines after
--                 it, up to the next "$ ", are its expected output (its
--                 standard output, then its standard error)
--   ```lua       run by `cheskers FILE`; must exit 0; a ```text block right
--                 after it is its expected standard output; after a line
--                 that ends with a file name and a colon, "`mybots/first.lua`:",
--                 the block is also written to that file, for the commands
--                 below it
-- The blocks of one file run in order in one fresh temporary folder.
-- In expected output a line "..." matches zero or more lines and "<any>"
-- inside a line matches any text; trailing blanks are ignored. A line
-- "<!-- not run: REASON -->" right before a block skips it, unless DOCS_ALL=1.
-- Usage: lua5.4 tests/tools/doctest.lua ROOT FILE...   Prints TAP (no plan line).
--        lua5.4 tests/tools/doctest.lua ROOT --links FILE...   checks instead that
-- every relative link of the Markdown files names a file that exists, and a
-- heading of it after "#"; and that every path "docs/..." the other files
-- name exists.
local ROOT = assert(arg[1], "usage: doctest.lua ROOT FILE...")
local ALL = os.getenv("DOCS_ALL") == "1"
local n = 0

local function dirname(p) return p:match("^(.*)/[^/]*$") or "." end

local function sh_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function run(cmd)
  local p = assert(io.popen(cmd, "r"))
  local out = p:read("a")
  local _, _, code = p:close()
  return out, code or 0
end

local function write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

local function lines_of(text)
  local t = {}
  for l in (text .. (text:sub(-1) == "\n" and "" or "\n")):gmatch("(.-)\n") do t[#t + 1] = (l:gsub("%s+$", "")) end
  if text == "" then t = {} end
  return t
end

-- one expected line against one line printed
local function line_matches(want, got)
  if not want:find("<any>", 1, true) then return want == got end
  local pat = want:gsub("[%^%$%(%)%%%.%[%]%*%+%-%?]", "%%%0"):gsub("<any>", ".-")
  return got:match("^" .. pat .. "$") ~= nil
end

-- expected lines (with "..." lines) against the printed ones
local function matches(want, got)
  local memo = {}
  local function m(i, j)
    local key = i * 100000 + j
    if memo[key] ~= nil then return memo[key] end
    local r
    if i > #want then r = j > #got
    elseif want[i] == "..." then r = m(i + 1, j) or (j <= #got and m(i, j + 1))
    else r = j <= #got and line_matches(want[i], got[j]) and m(i + 1, j + 1) end
    memo[key] = r
    return r
  end
  return m(1, 1)
end

local function report(ok, name, diag)
  n = n + 1
  if ok then print(("ok %d - %s"):format(n, name)); return end
  print(("not ok %d - %s"):format(n, name))
  for l in (diag .. "\n"):gmatch("(.-)\n") do print("# " .. l) end
end

local function cut(t, k)
  local r = {}
  for i = 1, math.min(#t, k) do r[i] = t[i] end
  if #t > k then r[#r + 1] = ("(%d more lines)"):format(#t - k) end
  return table.concat(r, "\n")
end

local function diff_text(want, got)
  return "expected:\n" .. cut(want, 25) .. "\ngot:\n" .. cut(got, 25)
end

-- a fresh folder for one block: DIR/work is where it runs
local function fresh_dir()
  local d = run("mktemp -d"):gsub("%s+$", "")
  assert(d ~= "", "mktemp -d failed")
  assert(os.execute("mkdir " .. sh_quote(d .. "/work")))
  return d
end

-- (-u LD_PRELOAD: under make sanitize the lua5.4 running this file preloads
-- the sanitizer's runtime, which the examples' own programs (curl) must not
-- get: curl hung on it; ./cheskers is built with the sanitizer itself)
local ENV = "env -u CHESKERS_TB -u LD_PRELOAD PATH=" .. sh_quote(ROOT) .. ":\"$PATH\" CHESKERS_ROOT=" .. sh_quote(ROOT)
  .. " HOME=\"$D\" CHESKERS_HISTORY=/dev/null CHESKERS_RC=/dev/null NO_COLOR=1 "

-- runs script in the block's folder: its standard output, then its standard
-- error (so that the order does not depend on buffering), and its status
local function shell(d, script)
  write(d .. "/cmd.sh", script)
  local out, code = run("D=" .. sh_quote(d) .. "; cd \"$D/work\" && timeout 600 " .. ENV
                        .. "sh ../cmd.sh 2>../stderr")
  local f = io.open(d .. "/stderr")
  local err = f and f:read("a") or ""
  if f then f:close() end
  if out ~= "" and out:sub(-1) ~= "\n" and err ~= "" then out = out .. "\n" end
  return out .. err, code
end

local function run_console(d, where, block)
  local cmds = {}
  for _, l in ipairs(block) do
    if l:sub(1, 2) == "$ " then cmds[#cmds + 1] = { cmd = l:sub(3), want = {} }
    elseif #cmds == 0 then
      if l ~= "" then cmds[#cmds + 1] = { cmd = nil, want = { l } } end
    else cmds[#cmds].want[#cmds[#cmds].want + 1] = (l:gsub("%s+$", "")) end
  end
  for _, c in ipairs(cmds) do
    if not c.cmd then
      report(false, where, "output before the first '$ ' line: " .. c.want[1])
    else
      while c.want[#c.want] == "" do c.want[#c.want] = nil end
      local out, code = shell(d, c.cmd .. "\n")
      local got = lines_of(out)
      local ok = matches(c.want, got)
      report(ok, where .. ": $ " .. c.cmd,
             ok and "" or diff_text(c.want, got) .. "\n(exit status " .. code .. ")")
    end
  end
end

local function run_lua(d, where, block, want, file)
  local text = table.concat(block, "\n") .. "\n"
  if file then
    assert(os.execute("mkdir -p " .. sh_quote(dirname(d .. "/work/" .. file))))
    write(d .. "/work/" .. file, text)
  end
  write(d .. "/example.lua", text)
  local out, code = shell(d, "cheskers ../example.lua 2>../err\n")
  local f = io.open(d .. "/err")
  local err = f and f:read("a") or ""
  if f then f:close() end
  if code ~= 0 then
    report(false, where, ("exit status %d\n%s%s"):format(code, out, err))
  elseif want then
    local got = lines_of(out)
    while want[#want] == "" do want[#want] = nil end
    report(matches(want, got), where .. " (output)", diff_text(want, got) .. "\n" .. err)
  else
    report(true, where, "")
  end
end

-- GitHub's anchor of a heading: lower case, no punctuation but - and _,
-- spaces as -
local function anchor(heading)
  local a = heading:lower():gsub("`", ""):gsub("[^%w%s_%-]", ""):gsub("%s", "-")
  return a
end

local function read(path)
  local f = io.open(path)
  if not f then return nil end
  local t = f:read("a")
  f:close()
  return t
end

local function anchors_of(text)
  local set, in_code = {}, false
  for l in (text .. "\n"):gmatch("(.-)\n") do
    if l:match("^%s*```") then in_code = not in_code
    elseif not in_code then
      local h = l:match("^#+%s+(.-)%s*$")
      if h then set[anchor(h)] = true end
    end
  end
  return set
end


local function normalize(p)
  local parts = {}
  for part in p:gmatch("[^/]+") do
    if part == ".." then parts[#parts] = nil elseif part ~= "." then parts[#parts + 1] = part end
  end
  return table.concat(parts, "/")
end

if arg[2] == "--links" then
  local all_bad = {}
  for i = 3, #arg do
    local file = arg[i]
    local text = assert(read(ROOT .. "/" .. file), "cannot read " .. file)
    local bad = {}
    if file:match("%.md$") then
      -- links outside code blocks and code spans
      local prose = text:gsub("```.-```", ""):gsub("`[^`\n]*`", "")
      for target in prose:gmatch("%]%(([^)%s]+)%)") do
        if not target:match("^%a[%w+.-]*:") then
          local path, frag = target:match("^([^#]*)#?(.*)$")
          local full = path == "" and file or normalize(dirname(file) .. "/" .. path)
          local t = read(ROOT .. "/" .. full)
          if not t and not os.rename(ROOT .. "/" .. full, ROOT .. "/" .. full) then
            bad[#bad + 1] = target .. ": no file " .. full
          elseif frag ~= "" and full:match("%.md$") and not anchors_of(t)[frag] then
            bad[#bad + 1] = target .. ": no heading #" .. frag .. " in " .. full
          end
        end
      end
    end
    if not file:match("^docs/generated/") then
      for path in text:gmatch("%f[%w/.]docs/[%w_./%-]*[%w_]") do
        if not read(ROOT .. "/" .. path) and not os.rename(ROOT .. "/" .. path, ROOT .. "/" .. path) then
          bad[#bad + 1] = "names " .. path .. ", which does not exist"
        end
      end
    end
    for _, b in ipairs(bad) do all_bad[#all_bad + 1] = file .. ": " .. b end
  end
  report(#all_bad == 0, ("every link and docs/ path that %d files name exists"):format(#arg - 2),
         table.concat(all_bad, "\n"))
  os.exit(0)
end

for i = 2, #arg do
  local file = arg[i]
  local f = assert(io.open(ROOT .. "/" .. file))
  local text = f:read("a")
  f:close()
  -- the blocks, each with its info string, first line, lines, the line before
  -- it and whether another block follows it directly
  local blocks, cur, prev, fence = {}, nil, "", nil
  local lineno = 0
  for l in (text .. "\n"):gmatch("(.-)\n") do
    lineno = lineno + 1
    if cur then
      local indent = l:match("^(%s*)```%s*$")
      if indent and #indent <= #fence then
        blocks[#blocks + 1] = cur
        cur, prev = nil, "```"
      else
        cur.lines[#cur.lines + 1] = l:sub(1, #fence) == fence and l:sub(#fence + 1) or l
      end
    else
      local indent, info = l:match("^(%s*)```%s*([%w_%-]*)")
      if indent then
        fence = indent
        cur = { info = info, line = lineno, lines = {}, before = prev,
                after_block = prev == "```" }
      elseif l:match("%S") then
        prev = l
      end
    end
  end
  local d = fresh_dir()
  for k, b in ipairs(blocks) do
    local where = ("%s:%d %s block"):format(file, b.line, b.info)
    local reason = b.before:match("^%s*<!%-%-%s*not run:%s*(.-)%s*%-%->%s*$")
    if b.info == "console" or b.info == "lua" then
      if reason and not ALL then
        print(("# skipped %s (not run: %s; make check-all runs it)"):format(where, reason))
      elseif b.info == "console" then
        run_console(d, where, b.lines)
      else
        local nxt = blocks[k + 1]
        run_lua(d, where, b.lines, nxt and nxt.info == "text" and nxt.after_block and nxt.lines or nil,
                b.before:match("`([%w_.%-/]+%.lua)`:%s*$"))
      end
    end
  end
  os.execute("rm -rf " .. sh_quote(d))
end
