-- cheskers check FILE... : says whether each puzzle is sound.

local usage = [[
usage: cheskers check [--quiet] [--no-defences] [--max-seconds S] [--max-nodes N] [--tb DIR] FILE...

Loads each puzzle file (as data, in a sandbox) and checks every puzzle in
it: OK, or every fault found - a bad position, an illegal solution move, a
goal that is not forced (with the defence that refutes it), cooks (other
first moves that also win in time), a shorter win than stated, a solution
that does not end in a win, duals (later solver moves with alternatives
that also win in time) - and the time it took. The exit status is 1 when
any puzzle fails or a file cannot be loaded, else 0.

  --quiet         print only the failures and the summary
  --no-defences   do not note solution defences that are not the longest
  --max-seconds S give up on a puzzle after S seconds of CPU (default 30;
                  the search running then is still finished)
  --max-nodes N   give up on a puzzle when one search needs more than N
                  nodes (default 10000000, about 10 s)
  --tb DIR        endgame tablebases (default: $CHESKERS_TB when set): the
                  positions they cover are judged exactly, and a puzzle may
                  ask for a win in more than 15 moves (up to 64), e.g. a
                  long endgame study; without tables such a puzzle fails
                  ("needs tablebases: cheskers tb build --pieces N", N
                  the pieces of its position), and so it does when the
                  tables do not cover it and go to fewer pieces
A puzzle given up on fails with the fault "too hard".]]

local function parser()
  local cli = require "cheskers.cli"
  local p = cli.parser("cheskers check", "Check puzzle files.")
  p:argument("files", "puzzle files"):args("*"):convert(cli.path)
  p:flag("--quiet")
  p:flag("--no-defences")
  local number = require("cheskers.cli").number
  number(p, "--max-seconds", "seconds per puzzle")
  number(p, "--max-nodes", "nodes per search")
  p:option("--tb", "tablebases directory"):convert(cli.path)
  return p
end

local function run(args)
  local opts = require("cheskers.cli").parse_args(parser(), args, usage)
  if not opts then return 0 end
  if #opts.files == 0 then error("no puzzle files given\n" .. usage, 0) end
  local puzzle = require "cheskers.puzzle"
  local tables = puzzle.tables(opts.tb)
  local total, failed, bad_files = 0, 0, 0
  local clock = require("cheskers").clock   -- elapsed (wall) seconds
  local start = clock()         -- the summary's time: loading included
  for _, path in ipairs(opts.files) do
    local loading = clock()
    local list, err = puzzle.load(path, { each = true })
    if not list then
      bad_files = bad_files + 1
      io.stdout:write(string.format("%s (%.2f s)\n", require("cheskers.escape").lines(tostring(err)),
                                    clock() - loading))   -- (it may quote the file)
    else
      for _, p in ipairs(list) do
        local r = puzzle.check(p, { defences = not opts.no_defences, max_seconds = opts.max_seconds,
                                    max_nodes = opts.max_nodes, tb = tables })
        total = total + 1
        if not r.ok then failed = failed + 1 end
        if not r.ok or not opts.quiet then
          io.stdout:write(puzzle.format_report(r), "\n")
          io.stdout:flush()
        end
      end
    end
  end
  local plural = require("cheskers").plural
  io.stdout:write(string.format("%s: %d OK, %d failed%s; %.2f s\n", plural(total, "puzzle"), total - failed,
    failed, bad_files > 0 and string.format(", %s rejected", plural(bad_files, "file")) or "", clock() - start))
  return (failed == 0 and bad_files == 0) and 0 or 1
end

return {
  summary = "check puzzle files: sound, or every fault found",
  usage = usage,
  run = run,
}
