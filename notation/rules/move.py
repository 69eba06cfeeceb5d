"""``Move``: a small immutable, hashable value (from square, to square, promotion).

Castling is the king's move to its destination (``e1g1``) in standard positions and *king takes
own rook* (``e1h1``) in Chess960 positions. ``Move.null()`` is the null move (``bool`` False).
A ``Move`` is a named tuple (fast to build and compare, no per-instance dict).
"""

from __future__ import annotations

from typing import NamedTuple

from notation.rules.squares import PIECE_SYMBOLS, SQUARE_NAMES

_PROMOTION_LETTERS = {"n": 2, "b": 3, "r": 4, "q": 5}


class Move(NamedTuple):
    from_square: int
    to_square: int
    promotion: int | None = None

    def uci(self) -> str:
        """``e2e4``, ``e7e8q``; ``0000`` for the null move."""
        if not self:
            return "0000"
        text = SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square]
        if self.promotion:
            text += PIECE_SYMBOLS[self.promotion]  # type: ignore[operator]
        return text

    def __bool__(self) -> bool:
        return self.from_square != self.to_square

    def __str__(self) -> str:
        return self.uci()

    def __repr__(self) -> str:
        return f"Move.from_uci({self.uci()!r})"

    @classmethod
    def null(cls) -> Move:
        return NULL_MOVE

    @classmethod
    def from_uci(cls, text: str) -> Move:
        """Parse ``e2e4`` / ``e7e8q`` / ``0000`` (syntax only); raises ValueError."""
        if text == "0000":
            return NULL_MOVE
        if len(text) not in (4, 5):
            raise ValueError(f"not a UCI move: {text!r}")
        try:
            f = SQUARE_NAMES.index(text[0:2])
            t = SQUARE_NAMES.index(text[2:4])
        except ValueError:
            raise ValueError(f"not a UCI move: {text!r}") from None
        promo = None
        if len(text) == 5:
            promo = _PROMOTION_LETTERS.get(text[4])
            if promo is None:
                raise ValueError(f"not a UCI move: {text!r} (bad promotion piece)")
        if f == t:
            raise ValueError(f"not a UCI move: {text!r} (from and to squares are equal)")
        return MOVES[f][t] if promo is None else Move(f, t, promo)


NULL_MOVE = Move(0, 0, None)
# MOVES[from][to]: shared instances of the plain moves (resolution allocates nothing).
MOVES: list[list[Move]] = [[Move(f, t) for t in range(64)] for f in range(64)]
