"""The lattice of a scoresheet reading: the states the decoder keeps, the edges between them, and
the complete readings it yields.

A state (:class:`State`) is a position reached after some plies and, for each copy of the sheet,
the box its reading has come to (a *cursor*). An edge (:class:`Edge`) plays one legal move from a
state: what each copy did with it (:class:`CopyOp`), and its cost in nats (negative
log-probability). :mod:`notation.scoresheet.decoder` builds the lattice ply by ply;
:mod:`notation.scoresheet.sums` adds the forward and backward sums that give the probabilities
(:class:`Lattice`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from notation.formats.position import Position
    from notation.rules.move import Move
    from notation.scoresheet.channel import BoxReading

# What a copy did at a ply (:attr:`CopyOp.kind`).
#: The move read in the copy's next box.
MATCH = "match"
#: The move read in the box after next; the next is a box of no move (dropped).
EXTRA_MATCH = "extra"
#: The copy has no box for the move.
OMIT = "omitted"
#: The copy has ended: nothing more to read, at no cost.
DONE = "done"
#: The same player's two moves written in swapped order (three boxes read ``i+2``, ``i+1``, ``i``).
TRANSPOSE = "transposed"
#: Two neighbouring boxes swapped.
SWAP = "swapped"


@dataclass(frozen=True, slots=True)
class Box:
    """One box of a copy as written (``blank``: typed ``?`` or left empty)."""

    text: str
    line: int | None = None
    column: int | None = None
    blank: bool = False


@dataclass(frozen=True, slots=True)
class CopyOp:
    """What one copy did at one ply: ``kind`` (a constant above), the box read (None: none),
    the box dropped before it (``extra``), the box's cost for the move, and the reading of its
    text that gave it (None: blank, or read as any move)."""

    kind: str
    box: int | None
    dropped: int | None
    cost: float
    reading: BoxReading | None


@dataclass(slots=True)
class Edge:
    """One move played from ``parent`` to ``child``: each copy's op, the cost (boxes, priors and
    marks), the part of it that is a prior on the move rather than what the boxes say, and the
    weight the probabilities use (the cost at this sheet's error rate, set by the sums)."""

    parent: State
    child: State
    move: Move
    ops: tuple[CopyOp, ...]
    cost: float
    prior: float = 0.0
    weight: float = 0.0

    def __post_init__(self) -> None:
        self.weight = self.cost


@dataclass(slots=True, eq=False)
class State:
    """A position after ``depth`` plies with each copy's cursor ``(box, phase)``: phase 0 is the
    plain next box; 1 to 3 are the middle of a transposition or swap (see the decoder). ``cost``
    is the cheapest way here and ``best`` its last edge; ``alpha``/``beta`` the forward and
    backward sums; ``end`` the cost of ending the reading here (None: not an end)."""

    pos: Position
    cursors: tuple[tuple[int, int], ...]
    depth: int
    cost: float
    best: Edge | None = None
    incoming: list[Edge] = field(default_factory=list)
    outgoing: list[Edge] = field(default_factory=list)
    alpha: float = 0.0
    beta: float = math.inf
    end: float | None = None
    last_capture: int | None = None  # where the best edge's move took a piece

    def path(self) -> list[Edge]:
        """The edges of the cheapest way to this state, first to last."""
        edges: list[Edge] = []
        state = self
        while state.best is not None:
            edges.append(state.best)
            state = state.best.parent
        edges.reverse()
        return edges

    @property
    def total(self) -> float:
        """The cost of the reading that ends here."""
        return self.cost + (self.end or 0.0)


@dataclass(frozen=True, slots=True)
class Found:
    """One complete reading: the moves, what each copy did at each ply, its cost (of which
    ``prior`` is the opening prior), its weight (the cost at this sheet's error rate: what its
    probability is computed from) and the final position."""

    moves: tuple[Move, ...]
    ops: tuple[tuple[CopyOp, ...], ...]
    cost: float
    final: Position
    prior: float = 0.0
    weight: float = 0.0

    @classmethod
    def ending_at(cls, end: State) -> Found:
        """The cheapest reading that ends at ``end``."""
        return cls.along(end.path(), end, end.total)

    @classmethod
    def along(cls, path: list[Edge], end: State, total: float) -> Found:
        """The reading that takes the edges ``path`` (from the start) to ``end`` and ends there,
        at the cost ``total``."""
        return cls(
            tuple(e.move for e in path),
            tuple(e.ops for e in path),
            total,
            end.pos,
            sum(e.prior for e in path),
            (end.end or 0.0) + sum(e.weight for e in path),
        )


@dataclass(frozen=True, slots=True)
class Choice:
    """One move the lattice plays at a ply, as SAN in its position, with its probability."""

    san: str
    probability: float


@dataclass(slots=True)
class Lattice:
    """The decoder's outcome: the readings found (likeliest first, distinct games), the
    probability of each move of the best one and the moves the lattice weighs at each of its plies
    (:class:`Choice`, likeliest first), and the probability of the best reading as a whole."""

    readings: list[Found]
    move_probability: list[float]
    reading_probability: float
    states: int
    z: float = math.inf  # all readings' weights summed as probabilities (``-t log sum exp(-w / t)``)
    choices: list[tuple[Choice, ...]] = field(default_factory=list)
    temperature: float = 1.0
    read_again: bool = False  # the best reading was found by the widening second pass


__all__ = [
    "DONE",
    "EXTRA_MATCH",
    "MATCH",
    "OMIT",
    "SWAP",
    "TRANSPOSE",
    "Box",
    "Choice",
    "CopyOp",
    "Edge",
    "Found",
    "Lattice",
    "State",
]
