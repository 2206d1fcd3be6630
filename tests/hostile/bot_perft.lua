-- core work that would run for ages: perft to depth 20
return { choose = function(board) return board:perft(20) end }
