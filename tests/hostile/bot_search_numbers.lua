-- calls b:search with numbers past their ranges: a depth of 2^31 (wrapped
-- to a C int once), a margin of 2^31 - 1 (overflowed margin * depth in the
-- core), an infinite or NaN time (a search that never ends), 2^63 nodes:
-- returns what each call said, a line each ("searched" for one that ran)
return { choose = function(b)
  local said = {}
  for _, o in ipairs({ { depth = 1 << 31 }, { depth = 4294967297 }, { depth = 2, rfp_margin = 2147483647 },
                       { depth = 2, fp_margin = -2147483648 }, { time = 1 / 0 }, { time = 0 / 0 },
                       { depth = 2, nodes = 2 ^ 63 }, { depth = 2, info_every = 0 / 0 } }) do
    local ok, err = pcall(b.search, b, o)
    said[#said + 1] = ok and "searched" or tostring(err)
  end
  return table.concat(said, "\n")
end }
