-- experiment_hook_loop.lua: a filter hook that never returns. Run with
-- --sandbox, the run must end with a message naming the hook (the hook
-- limits of cheskers.sandbox), not hang.
return {
  name = "hookloop", games = 2, seed = 1, max_plies = 20, bots = "builtin-random",
  variants = { { name = "loop", rules = { filter = function() while true do end end } } },
  measures = { "result" },
}
