-- Hostile: tries to reach the os library through require.
local os = require("os")
os.execute("touch /tmp/cheskers-hostile-puzzle-marker")
return {}
