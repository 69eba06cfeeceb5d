"""How far the posterior of a move can be trusted where one copy alone speaks for it.

The posterior (:mod:`notation.scoresheet.sums`) weighs only the readings the decoder kept. Where
a copy's boxes read as what they say, the right reading is among them; where the boxes around a
move read unlike what they say (a box corrected, a blank, a move with no box), the beam may have
dropped the reading that explains them, and every reading it kept then agrees on a wrong move,
at a probability near 1. A second copy that agrees keeps the readings in step (two witnesses
read unlike themselves in the same place are rare), so this cap applies to a ply only where at
most one copy has a written box for it.

The cap is measured, not derived, and on sheets the costs were not learned from: the HCS
sheets read one copy at a time, the cap off, each with the channel costs learned from the other
three of four folds of the games (``benchmarks/bench_scoresheet_hcs.py --folds 4 --caps`` prints
the table and the caps again; measured with the sheets' own costs, the training-set rates were
higher: 99.3% and 100% with one and two doubtful neighbours, 100% of 7 blanks). The share of the
moves at a posterior of 0.99 or more that were right, by how the ply's own box read (a box read
with only the writer's habits, such as ``e2-e4`` or ``qf3``, counts as written: see
:func:`read_as`) and how many of the :data:`SPAN` plies either side read unlike what they say:

=========================  ==============  ============  ===========  ===========
ply's own box               0              1             2            3 or more
=========================  ==============  ============  ===========  ===========
read as written             2246 of 2255    695 of 708    171 of 183   38 of 63
a mark or a habit off       13 of 15        5 of 7        0 of 2       none
corrected                   70 of 76        33 of 45      5 of 15      4 of 20
no written box              6 of 6          4 of 8        4 of 4       0 of 3
=========================  ==============  ============  ===========  ===========

Each cap is the cell's share right with one right and one wrong move more (``(right + 1) /
(moves + 2)``: a few moves, all right, make no certainty), rounded down to two places, 1.0 at
0.99 or more; a cell takes no more than its left neighbour (fewer doubtful neighbours), and an
empty cell takes its left neighbour's.

A move's confidence is its posterior capped by its cell (:data:`CAPS`): where the table says
fewer than 99 in 100 were right, the move is flagged for a human. A ply a reviewer has settled
(a pin) is neither capped nor counted as a doubtful neighbour.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.scoresheet.lattice import DONE, OMIT

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable

    from notation.scoresheet.lattice import CopyOp

#: A box read at this cost or more is corrected: not read as what it says.
CORRECTED = 4.5
#: A box read at no more than this cost reads as written (a missing check mark, a style).
WRITTEN = 0.75
#: The plies either side of a move whose boxes are looked at.
SPAN = 3
#: How the ply's own box read (rows) and how many neighbours read unlike what they say (0 to 3 or
#: more): the most a move's confidence may be (see the module's table, measured held out).
CAPS: dict[str, tuple[float, float, float, float]] = {
    "written": (1.0, 0.98, 0.92, 0.6),
    "close": (0.82, 0.66, 0.25, 0.25),
    "corrected": (0.91, 0.72, 0.35, 0.22),
    "blank": (0.87, 0.5, 0.5, 0.2),
}


def read_as(ops: tuple[CopyOp, ...], blank: float, habit: Callable[[CopyOp], bool]) -> tuple[str, int]:
    """How a ply's boxes read (``written``, ``close``, ``corrected`` or ``blank``: the best of
    the copies with a written box; ``blank`` when none has one) and how many copies have a
    written box for it; ``habit(op)``: the box's cost is only the writer's notation habits
    (``e2-e4``, ``qf3``): it reads as written."""
    witnesses = [op for op in ops if op.kind not in (DONE, OMIT) and not (op.reading is None and op.cost == blank)]
    if not witnesses:
        return "blank", 0
    least = min(0.0 if habit(op) else op.cost for op in witnesses)
    kind = "written" if least <= WRITTEN else "close" if least < CORRECTED else "corrected"
    return kind, len(witnesses)


def doubtful_neighbours(read: list[tuple[str, int]], settled: frozenset[int] = frozenset()) -> list[int]:
    """For each ply of a reading whose plies read as ``read`` (from :func:`read_as`), how many of
    the :data:`SPAN` plies either side read unlike what they say (corrected, or no written box),
    the plies a reviewer settled (``settled``, 0-based) apart."""
    doubtful = [k not in settled and kind in ("corrected", "blank") for k, (kind, _) in enumerate(read)]
    return [
        sum(doubtful[j] for j in range(max(0, k - SPAN), min(len(read), k + SPAN + 1)) if j != k)
        for k in range(len(read))
    ]


def caps(read: list[tuple[str, int]], settled: frozenset[int] = frozenset()) -> list[float]:
    """The cap of each ply's confidence along a reading whose plies read as ``read`` (from
    :func:`read_as`; ``settled``: plies a reviewer has settled, 0-based)."""
    near = doubtful_neighbours(read, settled)
    return [
        1.0 if k in settled or witnesses > 1 else CAPS[kind][min(near[k], 3)]
        for k, (kind, witnesses) in enumerate(read)
    ]


__all__ = ["CAPS", "CORRECTED", "SPAN", "WRITTEN", "caps", "doubtful_neighbours", "read_as"]
