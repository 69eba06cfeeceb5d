"""A chess engine's word on the reading of a scoresheet: which of the moves in dispute a player
would make.

The reading of a sheet (:mod:`notation.scoresheet.viterbi`) is often unsure at a ply or two
only (``Rd4`` or ``Rd3``, ``Nf3`` or ``Nf5``), the boxes nearly alike for both. At each ply of
the best reading whose move has probability below :data:`CONTESTED` (:func:`contested`: the
position there and the moves the lattice plays from it), a UCI engine
(:mod:`notation.engines.uci`) searches just those moves (:func:`evaluate`), and each is charged
for how much worse it is than the best of them (:func:`charge`: ``ENGINE_WEIGHT * min(loss,
LOSS_CAP) / 100`` nats for a loss in centipawns: a blunder costs a bounded amount, a few
centipawns next to nothing). The plies most in dispute are searched first, within a time budget
(``EngineSettings.seconds``); those left when it is spent are not judged.

The charges are a prior on the moves like the move-class prior: added to the edges of the
search's lattice that play those moves from those positions, the best paths, the readings and
the probabilities are computed again by the search's own sums
(:func:`~notation.scoresheet.reprice.reprice`), so they stay coherent. The engine may reorder
the readings and lower the confidence; it never raises it (:func:`guarded`): the best reading's
confidence and per-move probabilities are at most what they were without the engine, and a
reading the engine moves to the top is never confident (``Judged.reordered``: a human looks).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from notation.engines.uci import EngineError, UciEngine
from notation.scoresheet.reprice import alternatives, reprice
from notation.scoresheet.viterbi import Lattice

if TYPE_CHECKING:  # pragma: no cover
    from notation.formats.position import Position
    from notation.rules.move import Move

#: The default time budget of the engine per sheet (seconds).
SECONDS = 2.0
#: Nats a move is charged per 100 centipawns it loses against the best move judged at the same
#: position, up to :data:`LOSS_CAP` centipawns. Set on the real HCS sheets (BENCHMARKS.md, a grid
#: of weights and caps on all of them): where the reading is in doubt, the move the player made
#: is often not the engine's choice (at the plies read wrong on one copy, the engine preferred
#: the move read at 10 or 12 of 18; players blunder), so its word counts for little. This weight
#: read as many single sheets exactly as none, or one more (the engine's scores vary with the
#: CPU it gets; a weight of 1 with a cap of 300: three fewer), and two games fewer with the copies
#: together (every weight up to 1 alike).
ENGINE_WEIGHT = 0.5
LOSS_CAP = 100
#: A ply of the best reading is in dispute when its move has less than this probability.
CONTESTED = 0.995
#: At a ply in dispute, the moves judged: at most this many, each with at least this share of
#: the probability there.
MAX_CANDIDATES = 6
MIN_SHARE = 0.01
#: Seconds one position is searched at least and at most (what is left of the budget is shared
#: among the positions left, within these bounds; none is searched once less than the least is
#: left).
MIN_MOVETIME = 0.05
MAX_MOVETIME = 0.5


@dataclass(frozen=True, slots=True)
class EngineSettings:
    """Which engine to run (the program's path) and the time it has per sheet (seconds)."""

    path: str
    seconds: float = SECONDS


@dataclass(slots=True)
class Point:
    """A ply of the best reading in dispute: before ply ``ply`` (0-based) in ``position`` the
    readings play ``moves`` (likeliest first, the best reading's among them); ``weight``: how
    much is in dispute (the probability that the best reading's move is not the one)."""

    ply: int
    position: Position
    moves: list[Move]
    weight: float


@dataclass(slots=True)
class Judged:
    """What the engine made of a sheet: the ``lattice`` read again with its costs, ``charges``
    (nats per ply, position and move), and how sure the best reading is after it
    (``reading_confidence``, ``move_probability``, at most what they were before: see the module
    docstring); ``reordered`` when the best reading is not the one before; ``evaluated`` of
    ``points`` positions judged; ``problem``: why the engine stopped judging (None: it did not)."""

    lattice: Lattice
    charges: dict[tuple[int, int], tuple[dict[Move, float], float]]
    reading_confidence: float
    move_probability: list[float]
    reordered: bool = False
    evaluated: int = 0
    points: int = 0
    problem: str | None = None
    scores: list[dict[str, int] | None] = field(default_factory=list)

    def implausibility(self, start: Position, moves: Sequence[Move]) -> float:
        """The nats the engine charged the reading that plays ``moves`` from ``start``."""
        total = 0.0
        pos = start
        for ply, move in enumerate(moves):
            found = self.charges.get((ply, pos.key()))
            if found is not None:
                total += found[0].get(move, found[1])
            pos = pos.play(move)
        return total


def check_engine(path: str) -> str | None:
    """None when ``path`` runs as a UCI engine (started and quit at once), else why not."""
    try:
        with UciEngine(path):
            return None
    except EngineError as exc:
        return str(exc)


@contextmanager
def engine_session(engine: EngineSettings | UciEngine) -> Iterator[tuple[UciEngine | None, str | None]]:
    """``(running engine, None)``, or ``(None, why not)``: a running :class:`UciEngine` as it is
    (its owner closes it), an :class:`EngineSettings` started here and always quit."""
    if isinstance(engine, UciEngine):
        yield engine, None
        return
    try:
        running = UciEngine(engine.path)
    except EngineError as exc:
        yield None, str(exc)
        return
    try:
        yield running, None
    finally:
        running.close()


def contested(lattice: Lattice) -> list[Point]:
    """The plies of the best reading whose move has probability below :data:`CONTESTED`, with
    the moves played there (at most :data:`MAX_CANDIDATES`, each with at least
    :data:`MIN_SHARE` of the probability there), the most disputed first."""
    if not lattice.readings:
        return []
    best = lattice.readings[0].moves
    points: list[Point] = []
    for ply, p in enumerate(lattice.move_probability[:len(best)]):
        if p >= CONTESTED:
            continue
        found = alternatives(lattice, ply)
        if found is None:
            continue
        pos, shares = found
        total = sum(shares.values())
        ranked = sorted(shares, key=lambda m: -shares[m])
        moves = [m for m in ranked if shares[m] >= MIN_SHARE * total][:MAX_CANDIDATES]
        if best[ply] not in moves:
            moves = [best[ply], *moves[:MAX_CANDIDATES - 1]]
        if len(moves) >= 2:
            points.append(Point(ply, pos, moves, 1.0 - p))
    points.sort(key=lambda point: (-point.weight, point.ply))
    return points


def evaluate(engine: UciEngine, points: Sequence[Point], seconds: float
             ) -> tuple[list[dict[str, int] | None], str | None]:
    """The engine's score (centipawns, for the side to move) of each move of each point, the
    most disputed first, until ``seconds`` are spent (None: not judged); and why the engine
    stopped, if it failed."""
    out: list[dict[str, int] | None] = [None] * len(points)
    if not points or seconds <= 0:
        return out, None
    began = time.monotonic()
    for k, point in enumerate(points):
        left = seconds - (time.monotonic() - began)
        if left < MIN_MOVETIME:
            break
        movetime = min(MAX_MOVETIME, left, max(MIN_MOVETIME, left / (len(points) - k)))
        pos = point.position
        ucis = [m.uci() for m in point.moves]
        try:
            got = engine.scores(pos.fen(), ucis, movetime=movetime, chess960=bool(pos.chess960))
        except EngineError as exc:
            return out, str(exc)
        if len(got) == len(ucis):
            out[k] = {u: s.cp for u, s in got.items()}
    return out, None


def charge(loss: int) -> float:
    """The nats a move is charged for losing ``loss`` centipawns against the best candidate."""
    return ENGINE_WEIGHT * min(max(loss, 0), LOSS_CAP) / 100.0


def engine_costs(points: Sequence[Point], scores: Sequence[dict[str, int] | None]
                 ) -> dict[tuple[int, int], tuple[dict[Move, float], float]]:
    """Per judged point, ``(ply, position key)``: the charge of each candidate move, and the
    charge of any other move played there (the worst candidate's: a move too unlikely to be a
    candidate gains nothing by not being judged)."""
    out: dict[tuple[int, int], tuple[dict[Move, float], float]] = {}
    for point, score in zip(points, scores):
        if score is None:
            continue
        best = max(score.values())
        charges = {m: charge(best - score[m.uci()]) for m in point.moves}
        out[(point.ply, point.position.key())] = (charges, max(charges.values()))
    return out


def guarded(before: Lattice, after: Lattice) -> tuple[float, list[float], bool]:
    """The best reading's confidence and per-ply probabilities after the engine, never above
    those before: the same best reading keeps the lower of each; another one moved to the top
    gets at most what the readings other than the old best had (see the module docstring).
    And whether the best reading changed."""
    old, new = before.readings[0].moves, after.readings[0].moves
    old_p = before.move_probability
    if new == old:
        return (min(before.reading_probability, after.reading_probability),
                [min(a, b) for a, b in zip(old_p, after.move_probability)], False)
    per_move: list[float] = []
    for ply, (move, p) in enumerate(zip(new, after.move_probability)):
        was = old_p[ply] if ply < len(old_p) else 0.0
        same = ply < len(old) and old[ply] == move
        per_move.append(min(p, was) if same else min(p, 1.0 - was))
    return min(after.reading_probability, 1.0 - before.reading_probability), per_move, True


def judge(engine: UciEngine, lattice: Lattice, seconds: float) -> Judged:
    """The lattice's disputed plies judged by ``engine`` within ``seconds`` (:func:`contested`,
    :func:`evaluate`, :func:`engine_costs`) and the lattice read again with the charges
    (:func:`~notation.scoresheet.reprice.reprice`; ``lattice`` itself is changed)."""
    before = Lattice(list(lattice.readings), list(lattice.move_probability), lattice.reading_probability,
                     lattice.states, lattice.z)
    points = contested(lattice)
    scores, problem = evaluate(engine, points, seconds)
    charges = engine_costs(points, scores)
    after = reprice(lattice, charges) if charges else lattice
    confidence, per_move, reordered = guarded(before, after) if after.readings else (
        lattice.reading_probability, list(lattice.move_probability), False)
    return Judged(after, charges, confidence, per_move, reordered, sum(1 for s in scores if s is not None),
                  len(points), problem, scores)


__all__ = [
    "ENGINE_WEIGHT", "LOSS_CAP", "SECONDS", "EngineSettings", "Judged", "Point", "charge", "check_engine",
    "contested", "engine_costs", "engine_session", "evaluate", "guarded", "judge",
]
