"""PGN: opening sources, splitting them into games (headers-only is a mode of the same reader),
parsing each game with the Lark grammar, the game model, the writer and comment commands."""
