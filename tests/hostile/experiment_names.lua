-- experiment_names.lua: variant and measure names that forge output: a
-- newline and a row after it, escape sequences, a NUL, bytes that are not
-- UTF-8, control bytes XML 1.0 forbids and markup. The report's text, its
-- SVG chart and its HTML page must show them escaped and stay well-formed.
return {
  name = "names", games = 2, seed = 1, max_plies = 12, bots = "builtin-random",
  variants = {
    { name = "a\n1  forged\27[31m\0\255" },
    { name = "b<i>&\1\12\127", rules = "majority=false" },
  },
  measures = { "result", ["m\27[1m\n"] = function() return 1 end },
}
