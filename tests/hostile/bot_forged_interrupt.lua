-- raises an error value it caught (here: was given) with its code rewritten
-- to "interrupted", to pass for Ctrl-C and stop the whole match
return { choose = function(_, caught)
  rawset(caught, "code", "interrupted")
  error(caught, 0)
end }
