-- tests/core/conformance_spec.lua - the legal move sets of every position of
-- tests/data/dagaz_nomajority.tsv (an independent implementation, Dagaz,
-- rules {majority = false}) compared with ours by (from, to, captured set,
-- promotion).
local cheskers = require "cheskers"
local H = require "helpers"

local RULES = { majority = false }
local MAX_REPORT = 25

describe("conformance with Dagaz (majority = false)", function()
  local rows, path = H.load_conformance()

  it("reads the conformance file " .. path, function()
    assert.is_true(#rows > 1000, "expected the whole file, got " .. #rows .. " rows")
    for _, row in ipairs(rows) do
      local p, err = H.parse_fen(H.full_fen(row.fen))
      assert(p, ("%s:%d: our reader rejects %s: %s"):format(path, row.line, row.fen, tostring(err)))
    end
  end)

  it("has the same legal moves in every position (" .. #rows .. " positions)", function()
    local failures, nfail = {}, 0
    for _, row in ipairs(rows) do
      local fen = H.full_fen(row.fen)
      local ok, b = pcall(cheskers.new, fen, RULES)
      local good, report
      if not ok then
        good, report = false, "cheskers.new raised: " .. tostring(b)
      else
        good, report = H.compare_moves(b:moves(), row.moves)
      end
      if not good then
        nfail = nfail + 1
        if nfail <= MAX_REPORT then
          failures[#failures + 1] = ("line %d: %s\n    %s"):format(row.line, fen, report)
        end
      end
    end
    if nfail > 0 then
      error(("%d of %d positions differ%s:\n%s"):format(nfail, #rows,
        nfail > MAX_REPORT and (" (first " .. MAX_REPORT .. " shown)") or "",
        table.concat(failures, "\n")), 0)
    end
  end)

  it("counts the same number of moves with b:count() and b:perft(1)", function()
    local failures = {}
    for _, row in ipairs(rows) do
      local fen = H.full_fen(row.fen)
      local ok, b = pcall(cheskers.new, fen, RULES)
      if ok then
        local c, p = b:count(), b:perft(1)
        if c ~= #row.moves or p ~= #row.moves then
          failures[#failures + 1] = ("line %d: %s: expected %d, count() %s, perft(1) %s")
            :format(row.line, fen, #row.moves, tostring(c), tostring(p))
          if #failures >= MAX_REPORT then break end
        end
      end
    end
    if #failures > 0 then error(table.concat(failures, "\n"), 0) end
  end)
end)
