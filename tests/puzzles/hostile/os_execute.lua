-- Hostile: tries to run a program. Must be rejected without running it.
os.execute("touch /tmp/cheskers-hostile-puzzle-marker")
return { fen = "8/8/8/8/3k4/2K5/8/8 w", moves = 1, solution = { "c3xe5" } }
