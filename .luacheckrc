-- .luacheckrc - luacheck's settings for every Lua file of the repository:
-- `make lint` checks them all, and make test (tests/run.sh, suite
-- "luacheck") fails on any warning in the files it lists.
std = "lua54"
max_line_length = 120
-- methods keep their implicit self even when one does not use it
self = false

-- Deliberately broken or hostile Lua: puzzle files the sandbox and the
-- checker must reject (unused variables, a 1,000-character line and the like
-- are the point of them).
exclude_files = {
  "tests/hostile/",
  "tests/puzzles/hostile/",
  "tests/puzzles/faulty/",
  "tests/fuzz/",
}

-- busted's globals (describe, it, assert.*, finally, ...) in the specs and
-- the test helpers; match_spec captures the progress output by replacing
-- io.stderr for the length of one test.
-- Their tables of cases are data, one case a line.
files["tests/"] = {
  std = "+busted",
  max_line_length = 160,
  globals = { io = { fields = { stderr = { read_only = false } } } },
}

-- Puzzle files are data: a solution is one list on one line.
files["scripts/puzzles/"] = { max_line_length = false }

-- Bots and experiment hooks are callbacks whose arguments the API fixes
-- (choose(board, limits), filter(board, move)): naming an argument that one
-- callback does not need is documentation, not a slip.
files["scripts/bots/"] = { unused_args = false }
files["scripts/experiments/"] = { unused_args = false }
