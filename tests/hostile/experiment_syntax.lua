-- A syntax error in an experiment file: the program must say where in one
-- line (FILE:LINE: message), with or without --sandbox, and print no
-- traceback (issue 30, "What reaches the console").
return {
  variants = { { name = "a", rules = "golomb" } },
  games = ,
}
