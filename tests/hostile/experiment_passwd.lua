-- experiment_passwd.lua: an experiment file that reads /etc/passwd (and
-- would write it to MARKER) while it is loaded. With --sandbox it is
-- refused: io is not there.
local f = io.open("/etc/passwd")
local out = io.open("MARKER", "w")
out:write(f:read("a"))
return { name = "passwd", variants = { { name = "a" } } }
