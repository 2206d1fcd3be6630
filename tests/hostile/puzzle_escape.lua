-- a puzzle file that tries to reach files and code
return { fen = io.open("MARKER", "w"), moves = 1 }
