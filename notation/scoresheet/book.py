"""The opening prior of a scoresheet reading: players mostly stay on known lines, and on the
popular ones (the lines of the opening table, :mod:`notation.openings.eco`)."""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

from notation.scoresheet.channel import cost

if TYPE_CHECKING:  # pragma: no cover
    from notation.rules.move import Move
    from notation.formats.position import Position

#: How much a line's popularity counts in the opening prior: a move on the table is weighted by
#: the number of the table's lines through it to this power (0: every move on the table alike).
BOOK_POWER = 0.0
#: The same for a ply no box of which says anything (blank, unreadable or omitted boxes).
BLANK_BOOK_POWER = 1.0
#: The weight of the opening prior against what the boxes say (the table tells which lines are
#: theory, not how often each move is played: a tempered prior).
BOOK_WEIGHT = 0.5
#: The opening prior (:func:`book_prior`) applies to the first this many plies.
BOOK_PLIES = 24


def book_prior(pos: Position, moves: list[Move], depth: int, power: float = BOOK_POWER) -> list[float] | None:
    """The opening prior of each move from a position of the opening table (None elsewhere),
    as ``-log(p * n)`` for ``n`` legal moves (0 for a move as likely as any other): players
    mostly stay on known lines, and on the popular ones. A move staying on the table has
    probability ``(1 - leave)`` times its share of the table's lines through this position; one
    leaving the table shares ``leave`` (``prior.leave``: the share of moves that leave it,
    learned from real sheets) with the other moves off it."""
    if depth >= BOOK_PLIES:
        return None
    counts = book_counts()
    if depth > 0 and pos.key() not in counts:
        return None
    raw = [counts.get(pos.play(m).key(), 0) for m in moves]
    lines = [c**power if c else 0.0 for c in raw]
    total = sum(lines)
    n = len(moves)
    if total == 0:
        return None  # a leaf of the table: every move leaves it
    off = n - sum(1 for c in lines if c)
    leave = math.exp(-cost("prior.leave")) if off else 0.0
    return [-BOOK_WEIGHT * math.log(((1.0 - leave) * c / total if c else leave / off) * n) for c in lines]


@functools.cache
def book_counts() -> dict[int, int]:
    """Every position on a line of the opening table (each line's moves played out), by key:
    the number of the table's lines through it (how much theory, a measure of how often it is
    played)."""
    from notation.openings.eco import table
    from notation.formats.position import Position

    counts: dict[int, int] = {}
    for entry in table().values():
        pos = Position.initial()
        seen: set[int] = set()
        for token in entry.pgn.split():
            if token[0].isdigit():
                token = token.lstrip("0123456789.")
                if not token:
                    continue
            try:
                _, pos = pos.play_san(token)
            except ValueError:
                break
            key = pos.key()
            if key not in seen:
                seen.add(key)
                counts[key] = counts.get(key, 0) + 1
    return counts


__all__ = ["BLANK_BOOK_POWER", "BOOK_PLIES", "BOOK_POWER", "BOOK_WEIGHT", "book_counts", "book_prior"]
