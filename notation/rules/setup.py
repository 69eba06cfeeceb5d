"""A set-up: the data of a position before the Laws have checked it (what a FEN gives, or
any other source of a position), and the error of one that is no legal position.

:meth:`notation.rules.position.Position.from_setup` validates a :class:`Setup`; reading FEN text
into one is :func:`notation.formats.fen.parse_fen`'s work, so the rules never read text.
"""

from __future__ import annotations

from dataclasses import dataclass


class SetupError(ValueError):
    """A set-up that is no legal chess position; ``field`` names the part at fault, with FEN's
    field names (``placement``, ``turn``, ``castling``, ``en_passant``, ``halfmove``,
    ``fullmove``, ``position``)."""

    def __init__(self, field: str, message: str, fen: str | None = None) -> None:
        super().__init__(f"invalid set-up ({field}): {message}")
        self.field = field
        self.message = message
        self.fen = fen


@dataclass(frozen=True, slots=True)
class Setup:
    """A position's parts, not yet validated: 64 piece codes (0 empty, piece type ``| 8`` for
    White, a1 first), the side to move, the castling rights as FEN writes them (``KQkq``,
    X-FEN or Shredder-FEN file letters, ``-``), the en passant square and the two clocks."""

    board: tuple[int, ...]
    turn: bool
    castling: str
    ep_square: int | None
    halfmove_clock: int
    fullmove_number: int


def _back_rank(white: bool) -> tuple[int, ...]:
    colour = 8 if white else 0
    return tuple(piece | colour for piece in (4, 2, 3, 5, 6, 3, 2, 4))  # R N B Q K B N R


#: The standard starting position as a set-up.
STARTING_SETUP = Setup(_back_rank(True) + (9,) * 8 + (0,) * 32 + (1,) * 8 + _back_rank(False), True, "KQkq", None, 0, 1)
