-- experiment_hook_chain.lua: a filter hook that chains core calls, each
-- ending at its deadline: it counts moves on a copy of the board, whose
-- rules are these, so the hook runs again under itself, each time as a new
-- call of the box. Run with --sandbox, the first hook call must end within
-- the hook's CPU cap (2 s) with the nested calls in it, not get a fresh
-- cap for each nested call.
return {
  name = "hookchain", games = 1, seed = 1, max_plies = 4, bots = "builtin-random",
  variants = { { name = "chain", rules = { filter = function(b)
    for _ = 1, 3 do
      pcall(b.perft, b:copy(), 20)
      pcall(b.search, b:copy(), { depth = 40 })
    end
    return true
  end } } },
  measures = { "result" },
}
