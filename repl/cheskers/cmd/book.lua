-- cheskers book FILE... --out book.html : one HTML page of puzzles.

local usage = [[
usage: cheskers book FILE... --out book.html [--title TEXT] [--check] [--tb DIR]

Writes one self-contained HTML page with every puzzle of the files: its
diagram (SVG), the goal ("Black to play and win in 3") and the solution,
hidden until clicked. Files are loaded as data, in the sandbox.

  --out FILE     the page to write (required)
  --title TEXT   the page's title (default "Cheskers puzzles")
  --check        check every puzzle first and mark the unsound ones; their
                 reports go to stderr and the exit status is 1
  --tb DIR       check with the tablebases of DIR (else $CHESKERS_TB's):
                 studies of more than 15 moves need them

Puzzles of several files come in a section for each file, in the order
given, with a list of the files at the top. A file with a bad puzzle (a
misspelt field ...) is refused, with or without --check: `cheskers check
FILE` reports each puzzle of it.]]

local function parser()
  local cli = require "cheskers.cli"
  local p = cli.parser("cheskers book", "Write an HTML page of puzzles.")
  p:argument("files", "puzzle files"):args("*"):convert(cli.path)
  p:option("--out", "output page"):convert(cli.path)
  p:option("--title", "page title", "Cheskers puzzles")
  p:flag("--check")
  p:option("--tb", "tablebases for --check"):convert(cli.path)
  return p
end

-- Text for XML/HTML: entities, and no byte XML 1.0 forbids (cheskers.escape).
local esc = require("cheskers.escape").xml

local STYLE = [[
body { font-family: Georgia, serif; max-width: 62em; margin: 2em auto; padding: 0 1em;
       color: #2a2118; background: #fdfbf6; }
h1 { font-weight: normal; border-bottom: 1px solid #cbbba4; padding-bottom: .3em; }
.puzzles { display: flex; flex-wrap: wrap; gap: 1.5em; }
.puzzle { width: 420px; padding: .8em; border: 1px solid #e2d6c2; border-radius: 6px; background: #fff; }
.puzzle h2 { font-size: 1.05em; margin: 0 0 .4em 0; }
.goal { font-weight: bold; margin: .4em 0; }
.meta { color: #7a6a58; font-size: .85em; }
details { margin-top: .4em; }
summary { cursor: pointer; color: #2f6d32; }
.line { font-family: monospace; font-size: 1.05em; line-height: 1.6; }
.unsound { color: #a02020; font-size: .9em; }
.fen { font-family: monospace; font-size: .75em; color: #8a7a68; word-break: break-all; }
h2.file { font-weight: normal; margin: 1.2em 0 .6em 0; border-bottom: 1px solid #e2d6c2; }
]]

-- The files of the list in their order, with how many puzzles each:
-- { {file =, n =}, ... } (a puzzle without a file: "").
local function files_of(list)
  local files, last = {}, nil
  for _, p in ipairs(list) do
    local f = p.file or ""
    if f ~= last then files[#files + 1] = { file = f, n = 0 } last = f end
    files[#files].n = files[#files].n + 1
  end
  return files
end

-- The solution as numbered text: "1. a b 2. c d 3. e".
local function line_text(sol)
  local parts = {}
  for i, mv in ipairs(sol) do
    if i % 2 == 1 then parts[#parts + 1] = string.format("%d.&nbsp;%s", (i + 1) // 2, esc(mv))
    else parts[#parts + 1] = esc(mv) end
  end
  return table.concat(parts, " ")
end

-- The HTML page for a list of puzzles (loaded tables); reports (optional)
-- maps a puzzle to its check report.
local function page(list, title, reports)
  local cheskers = require "cheskers"
  local svg = require "cheskers.svg"
  local puzzle = require "cheskers.puzzle"
  local out = { "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                "<title>" .. esc(title) .. "</title>", "<style>" .. STYLE .. "</style></head><body>",
                "<h1>" .. esc(title) .. "</h1>",
                string.format("<p>%s. The side to move wins &mdash; captures every enemy king or "
                  .. "leaves the enemy without a move &mdash; within the stated number of its own moves, "
                  .. "whatever the defence. Click <em>Solution</em> to see the main line.</p>",
                  cheskers.plural(#list, "puzzle")) }
  -- puzzles of several files: a section for each, listed first
  local files = files_of(list)
  if #files > 1 then
    local links = {}
    for k, f in ipairs(files) do
      links[k] = string.format('<a href="#f%d">%s</a> (%d)', k, esc(f.file:match("[^/]*$")), f.n)
    end
    out[#out + 1] = '<p class="meta">Files: ' .. table.concat(links, " &middot; ") .. "</p>"
  end
  local file_no, file = 0, nil
  for i, p in ipairs(list) do
    if i == 1 or #files > 1 and (p.file or "") ~= file then
      if i > 1 then out[#out + 1] = "</div>" end
      file, file_no = p.file or "", file_no + 1
      if #files > 1 then
        out[#out + 1] = string.format('<h2 class="file" id="f%d">%s</h2>', file_no, esc(file:match("[^/]*$")))
      end
      out[#out + 1] = '<div class="puzzles">'
    end
    local ok, b = pcall(cheskers.new, p.fen, p.rules)
    out[#out + 1] = string.format('<div class="puzzle" id="p%d">', i)
    out[#out + 1] = string.format("<h2>%d. %s</h2>", i, esc(p.title or ("Puzzle " .. i)))
    if not ok then
      out[#out + 1] = '<p class="unsound">bad position: ' .. esc(b) .. "</p>"
    else
      local side = b:turn() == "white" and "White" or "Black"
      out[#out + 1] = svg.render(b, { id = "p" .. i, size = 400, highlight = false,
                                      title = side .. " to play" })
      out[#out + 1] = '<p class="goal">' .. esc(puzzle.goal_text(p, reports and reports[p])) .. "</p>"
      if p.rules and p.rules ~= "golomb" then
        local r = type(p.rules) == "string" and p.rules or "custom rules"
        if type(p.rules) == "table" then
          local keys = {}
          for k, v in pairs(p.rules) do
            if type(v) ~= "table" then keys[#keys + 1] = k .. "=" .. tostring(v) end
          end
          table.sort(keys)
          r = table.concat(keys, ", ")
        end
        out[#out + 1] = '<p class="meta">Rules: ' .. esc(r) .. "</p>"
      end
    end
    -- the faults name the key and the defences: shown with the solution only
    local rep = reports and reports[p]
    local faults = {}
    if rep and not rep.ok then
      for _, f in ipairs(rep.faults) do faults[#faults + 1] = esc(f.kind .. ": " .. f.message) end
      out[#out + 1] = string.format('<p class="unsound">Unsound (%s: see the solution).</p>',
                                    cheskers.plural(#faults, "fault"))
    end
    out[#out + 1] = "<details><summary>Solution</summary>"
    if #faults > 0 then
      out[#out + 1] = '<p class="unsound">' .. table.concat(faults, "<br>") .. "</p>"
    end
    out[#out + 1] = '<p class="line">' .. line_text(p.solution or {}) .. "</p>"
    out[#out + 1] = '<p class="fen">' .. esc(p.fen) .. "</p>"
    local meta = {}
    if p.author then meta[#meta + 1] = "by " .. esc(p.author) end
    if p.comment then meta[#meta + 1] = esc(p.comment) end
    if p.tags and #p.tags > 0 then
      local tags = {}
      for k, t in ipairs(p.tags) do tags[k] = esc(t) end
      meta[#meta + 1] = table.concat(tags, ", ")
    end
    if #meta > 0 then out[#out + 1] = '<p class="meta">' .. table.concat(meta, " &middot; ") .. "</p>" end
    out[#out + 1] = "</details></div>"
  end
  if #list == 0 then out[#out + 1] = '<div class="puzzles">' end
  out[#out + 1] = "</div></body></html>"
  return table.concat(out, "\n") .. "\n"
end

local function run(args)
  local opts = require("cheskers.cli").parse_args(parser(), args, usage)
  if not opts then return 0 end
  if #opts.files == 0 then error("no puzzle files given\n" .. usage, 0) end
  if not opts.out then error("--out FILE is required\n" .. usage, 0) end
  local puzzle = require "cheskers.puzzle"
  local list = {}
  for _, path in ipairs(opts.files) do
    local ps, err = puzzle.load(path)
    if not ps then error(tostring(err) .. " (no page written)", 0) end
    for _, p in ipairs(ps) do list[#list + 1] = p end
  end
  local reports, unsound = nil, 0
  if opts.check then
    reports = {}
    local tables = puzzle.tables(opts.tb)
    for _, p in ipairs(list) do
      reports[p] = puzzle.check(p, { tb = tables })
      if not reports[p].ok then
        unsound = unsound + 1
        io.stderr:write(puzzle.format_report(reports[p]), "\n")
      end
    end
  end
  local plural = require("cheskers").plural
  require("cheskers.store").write_file(opts.out, page(list, opts.title, reports))
  io.stdout:write(string.format("%s written to %s\n", plural(#list, "puzzle"), opts.out))
  if unsound == 0 then return 0 end
  require("cheskers.cli").report(string.format("%s of %d unsound (marked on the page)",
    plural(unsound, "puzzle"), #list), "book")
  return 1
end

return {
  summary = "write an HTML page of puzzles (diagrams, goals, solutions on click)",
  usage = usage,
  run = run,
  page = page,
}
