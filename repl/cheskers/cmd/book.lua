-- cheskers book FILE... --out book.html : one HTML page of puzzles (the page
-- is cheskers.book's; this reads the arguments and the files, and prints).

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
  require("cheskers.store").write_file(opts.out, require("cheskers.book").page(list, opts.title, reports))
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
}
