-- core work that would run for ages: a win in 15 from the start
return { choose = function(board) return board:solve{ moves = 15 } end }
