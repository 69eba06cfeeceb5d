"""Text formats of positions and moves: FEN, SAN and UCI/long algebraic, each read and written
against a :class:`notation.rules.position.Position`."""
