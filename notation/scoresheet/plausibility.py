"""How plausible a move is, whatever was written: the prior of the scoresheet reading.

Players recapture, take what is offered and give check far more often than a move picked at
random from the legal ones would, and rarely leave a piece to be taken for nothing. Each legal
move falls in one class by those facts (:func:`move_class`); the cost of a class is the negative
log of how much likelier (or less likely) a played move is to be of that class than a legal move
at random, learned from the games of real sheets (``prior.move.*`` in ``channel_costs.json``,
:func:`notation.scoresheet.learn.learn_costs`). A reading whose moves blunder for no reason so
ranks below one whose moves a player would make, by as much as the games say, no more.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.scoresheet.tokens import BISHOP, KNIGHT, PAWN, QUEEN, ROOK

if TYPE_CHECKING:  # pragma: no cover
    from notation.rules.move import Move
    from notation.formats.position import Position

VALUE = {PAWN: 1, KNIGHT: 3, BISHOP: 3, ROOK: 5, QUEEN: 9}

#: A move leaves material hanging when the side to move after it can win this much at once
#: (a minor piece for nothing, or a rook for a minor piece), beyond what the move took.
HANG = 2

#: The classes, by their facts: ``r`` recapture on the square of the last capture, ``x`` another
#: capture, ``+`` check, ``h`` material left hanging; ``quiet`` none of them.
CLASSES = ("quiet", "+", "x", "x+", "h", "h+", "hx", "hx+", "r", "r+", "rh", "rh+")


def en_prise(pos: Position, colour: bool) -> int:
    """The most material ``colour`` can lose at once: a piece (not a pawn) attacked and
    undefended, or attacked by a cheaper piece (value of the piece, less the attacker's when
    defended)."""
    best = 0
    for piece_type in (KNIGHT, BISHOP, ROOK, QUEEN):
        bb = pos.pieces(piece_type, colour)
        while bb:
            low = bb & -bb
            bb ^= low
            sq = low.bit_length() - 1
            attackers = pos.attackers(not colour, sq)
            if not attackers:
                continue
            value = VALUE[piece_type]
            if not pos.attackers(colour, sq):
                best = max(best, value)
                continue
            cheapest = 99
            while attackers:
                a = attackers & -attackers
                attackers ^= a
                kind = pos.piece_type_at(a.bit_length() - 1)
                cheapest = min(cheapest, VALUE.get(kind or 0, 99))
            best = max(best, value - cheapest)
    return best


def captured_square(pos: Position, move: Move) -> int | None:
    """The square of the piece ``move`` takes in ``pos`` (None: it takes nothing)."""
    if pos.piece_type_at(move.to_square) is not None:
        return move.to_square
    return move.to_square if pos.is_en_passant(move) else None


def move_class(pos: Position, move: Move, after: Position, last_capture: int | None) -> str:
    """The class of ``move`` in ``pos`` (``after``: the position it gives; ``last_capture``:
    the square where the last move took a piece, None if it took none); see :data:`CLASSES`."""
    victim = pos.piece_type_at(move.to_square)
    taken = victim is not None or pos.is_en_passant(move)
    gained = VALUE.get(victim, 0) if victim is not None else (1 if taken else 0)
    flags = ""
    if taken and last_capture is not None and move.to_square == last_capture:
        flags += "r"
    if after.has_legal_moves() and en_prise(after, pos.turn) - gained >= HANG:
        flags += "h"
    if taken and "r" not in flags:
        flags += "x"
    if after.is_check():
        flags += "+"
    return flags or "quiet"


__all__ = ["CLASSES", "HANG", "VALUE", "captured_square", "en_prise", "move_class"]
