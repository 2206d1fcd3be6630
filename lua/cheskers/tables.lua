-- cheskers.tables - what `cheskers tb` computes over the endgame tables,
-- for a script as for the command (cheskers.cmd.tb prints it): the summary
-- of a build plan and the data of the atlas. The tables themselves are the
-- binding's (cheskers.tb, b:probe, tables:info ...; docs/guide/tables.md).
--
--   tables.plan_summary(units) -> { levels = {{level, names}...}, units,
--       entries, disk, todo, largest }   of cheskers.tb.plan's units: the
--       units of each level, their entries and the bytes of their files in
--       all, those not built yet, the unit needing the most memory
--   tables.atlas(dir, rules [, pieces [, rules_text]]) -> a   the tables of
--       the atlas for rules (what cheskers.new takes; rules_text: as the
--       user wrote them, for messages), up to pieces (2..MAX_PIECES): { list (the info of every table of
--       a complete set, by pieces), complete (their most pieces), partial
--       (tables left out: an incomplete set), rules (the full rule table),
--       tables, board }; raises a one-line message (none there: the command
--       that builds them; a partial set up to pieces refused)
--   tables.one_move(a, t) -> n      the won positions of table t (of
--       tables.atlas a) whose winner has exactly one winning move
--   tables.longest(list) -> t       the table of list with the longest win
local cheskers = require "cheskers"

local errorf = require("cheskers").errorf
local M = {}

function M.plan_summary(units)
  local sum = { levels = {}, units = #units, entries = 0, disk = 0, todo = 0, largest = units[1] }
  local by_level = {}
  for _, u in ipairs(units) do
    local level = by_level[u.level]
    if not level then
      level = { level = u.level, names = {} }
      by_level[u.level] = level
      sum.levels[#sum.levels + 1] = level
    end
    level.names[#level.names + 1] = u.name
    sum.entries, sum.disk = sum.entries + u.entries, sum.disk + u.disk
    if not u.built then sum.todo = sum.todo + u.disk end
    if u.memory > sum.largest.memory then sum.largest = u end
  end
  table.sort(sum.levels, function(x, y) return x.level < y.level end)
  return sum
end

function M.atlas(dir, rules, pieces, rules_text)
  local board = cheskers.new(nil, rules)
  local tables = cheskers.tb.open(dir)
  local list, err = tables:info(board)
  if not list then error(err, 0) end
  local hint = require("cheskers.puzzle").build_hint
  if #list == 0 then
    errorf("no tables in %s for the rules %s: build them with `%s`", dir, rules_text or "golomb",
      hint(board, dir, pieces))
  end
  local complete = tables:max_pieces(board) or 0
  if pieces then
    if complete < pieces then
      errorf("%s holds every table up to %s, not up to %d: the atlas of a partial set would "
        .. "mislead (%s first)", dir, cheskers.plural(complete, "piece"), pieces,
        hint(board, dir, pieces))
    end
    complete = pieces
  end
  local kept, partial = {}, 0
  for _, t in ipairs(list) do
    if t.pieces <= complete then kept[#kept + 1] = t else partial = partial + 1 end
  end
  if #kept == 0 then error("no complete set of tables in " .. dir .. " for these rules", 0) end
  return { list = kept, complete = complete, partial = partial, rules = board:rules(), tables = tables,
           board = board }
end

function M.one_move(a, t)
  if t.wins == 0 then return 0 end
  local list, n = a.tables:wins(a.board, t.name, 1, true, 0)
  if not list then error(n, 0) end
  return n
end

function M.longest(list)
  local longest
  for _, t in ipairs(list) do
    if not longest or t.longest_win > longest.longest_win then longest = t end
  end
  return longest
end

return M
