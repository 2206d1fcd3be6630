-- core work that would run for ages: divide to depth 20
return { choose = function(board) return board:divide(20) end }
