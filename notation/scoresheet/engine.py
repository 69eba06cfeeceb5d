"""A chess engine's word on the readings of a scoresheet: which of the moves they disagree on a
player would make.

The readings of a sheet (:mod:`notation.scoresheet.copies`) often differ at a ply or two only
(``Rd4`` or ``Rd3``, ``Nf3`` or ``Nf5``), the boxes nearly alike for both. Where the top readings
part (:func:`branches`: the same moves so far, then different ones), a UCI engine
(:mod:`notation.engines.uci`) searches just the moves they play there (:func:`evaluate`), and
each reading is charged for how much worse its move is than the best of them
(:func:`engine_costs`: ``ENGINE_WEIGHT * min(loss, LOSS_CAP) / 100`` nats for a loss in
centipawns, so a blunder costs a bounded amount and a few centipawns next to nothing). The
positions most in dispute are searched first, within a time budget (``EngineSettings.seconds``);
those left when it is spent are not judged.

:func:`rescore` ranks the readings again and keeps the probabilities coherent: every reading's
mass is multiplied by ``exp(-cost / temperature)``, the mass of the lattice the listed readings do
not cover is left as it was (nothing is known of its moves), and the whole is normalised again.
The engine may reorder the readings and lower the confidence; it never raises it: the best
reading's confidence is at most what it was without the engine, and a reading the engine moves
to the top is never confident (:attr:`Judged.reordered`: a human looks).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from notation.engines.uci import EngineError, UciEngine

if TYPE_CHECKING:  # pragma: no cover
    from notation.formats.position import Position
    from notation.rules.move import Move

#: The default time budget of the engine per sheet (seconds).
SECONDS = 2.0
#: Nats a reading is charged per 100 centipawns its move loses against the best move the
#: readings play at the same position, up to :data:`LOSS_CAP` centipawns (set on the real HCS
#: sheets, ``benchmarks/bench_scoresheet_hcs.py --engine``).
ENGINE_WEIGHT = 1.0
LOSS_CAP = 300
#: The readings judged at most (the likeliest first).
MAX_JUDGED = 10
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
class Branch:
    """A position where the readings part: after ``ply`` plies alike, they play ``moves`` (the
    readings of ``members[j]`` play ``moves[j]``). ``weight``: how much is in dispute (the
    probability of the readings off the likeliest move)."""

    ply: int
    position: Position
    moves: list[Move]
    members: list[list[int]]
    weight: float


@dataclass(slots=True)
class Judged:
    """The readings ranked again with the engine's costs (see the module docstring).

    ``order``: the readings' indices, likeliest first; ``costs``, ``probabilities``: per reading
    (by its index before); ``reading_confidence`` and ``move_probability``: of the new best one
    (per ply); ``evaluated`` of ``branches`` positions judged; ``problem``: why the engine stopped
    judging (None: it did not)."""

    order: list[int]
    costs: list[float]
    probabilities: list[float]
    reading_confidence: float
    move_probability: list[float]
    evaluated: int = 0
    branches: int = 0
    problem: str | None = None
    scores: list[dict[str, int] | None] = field(default_factory=list)

    @property
    def reordered(self) -> bool:
        """True when the engine put another reading first."""
        return bool(self.order) and self.order[0] != 0


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


def branches(start: Position, readings: Sequence[Sequence[Move]], masses: Sequence[float]) -> list[Branch]:
    """The positions where the readings part, the most disputed first (see :class:`Branch`)."""
    found: list[Branch] = []

    def walk(group: list[int], ply: int, pos: Position) -> None:
        while True:
            nexts: dict[Move, list[int]] = {}
            for i in group:
                if ply < len(readings[i]):
                    nexts.setdefault(readings[i][ply], []).append(i)
            if not nexts:
                return
            if len(nexts) == 1:
                (only, following), = nexts.items()
                group = following
                pos = pos.play(only)
                ply += 1
                continue
            moves = list(nexts)
            members = [nexts[m] for m in moves]
            shares = sorted((sum(masses[i] for i in ms) for ms in members), reverse=True)
            found.append(Branch(ply, pos, moves, members, sum(shares[1:])))
            for move, ms in zip(moves, members):
                walk(ms, ply + 1, pos.play(move))
            return

    if readings:
        walk(list(range(len(readings))), 0, start)
    found.sort(key=lambda b: (-b.weight, b.ply))
    return found


def evaluate(engine: UciEngine, found: Sequence[Branch], seconds: float
             ) -> tuple[list[dict[str, int] | None], str | None]:
    """The engine's score (centipawns, for the side to move) of each move of each branch, the
    most disputed first, until ``seconds`` are spent (None: not judged); and why the engine
    stopped, if it failed."""
    out: list[dict[str, int] | None] = [None] * len(found)
    if not found or seconds <= 0:
        return out, None
    began = time.monotonic()
    for k, branch in enumerate(found):
        left = seconds - (time.monotonic() - began)
        if left < MIN_MOVETIME:
            break
        movetime = min(MAX_MOVETIME, left, max(MIN_MOVETIME, left / (len(found) - k)))
        pos = branch.position
        ucis = [m.uci() for m in branch.moves]
        try:
            got = engine.scores(pos.fen(), ucis, movetime=movetime, chess960=bool(pos.chess960))
        except EngineError as exc:
            return out, str(exc)
        if len(got) == len(ucis):
            out[k] = {u: s.cp for u, s in got.items()}
    return out, None


def engine_costs(found: Sequence[Branch], scores: Sequence[dict[str, int] | None], n: int) -> list[float]:
    """Per reading, the nats its moves cost at the judged branches (see the module docstring)."""
    costs = [0.0] * n
    for branch, score in zip(found, scores):
        if score is None:
            continue
        best = max(score.values())
        for move, members in zip(branch.moves, branch.members):
            loss = best - score[move.uci()]
            charge = ENGINE_WEIGHT * min(max(loss, 0), LOSS_CAP) / 100.0
            for i in members:
                costs[i] += charge
    return costs


def rescore(readings: Sequence[Sequence[Move]], scores: Sequence[float], probabilities: Sequence[float],
            reading_confidence: float, move_probability: Sequence[float], costs: Sequence[float],
            temperature: float) -> Judged:
    """The readings ranked by ``scores`` plus the engine's ``costs``, with their probabilities,
    the new best reading's confidence and per-ply probabilities (see the module docstring:
    reading 0 is the best without the engine, ``reading_confidence`` and ``move_probability``
    are its figures; the others' probabilities are those of the single readings)."""
    n = len(readings)
    if n == 0:
        return Judged([], [], [], reading_confidence, list(move_probability))
    t = temperature if temperature > 0 else 1.0
    p = [max(0.0, x) for x in probabilities]
    game = min(1.0, max(reading_confidence, p[0]))  # the best game's mass, all its alignments
    mass = [p[i] * math.exp(-costs[i] / t) for i in range(n)]
    game_after = game * math.exp(-costs[0] / t)
    rest = max(0.0, 1.0 - game - sum(p[1:]))
    z = game_after + sum(mass[1:]) + rest
    order = sorted(range(n), key=lambda i: (scores[i] + costs[i], i))
    new = order[0]
    probs = [m / z for m in mass] if z > 0 else list(p)
    if new == 0:
        confidence = min(reading_confidence, game_after / z if z > 0 else reading_confidence)
    else:
        confidence = min(probs[new], 1.0 - reading_confidence)
    best, old = readings[new], readings[0]
    per_move: list[float] = []
    for k, move in enumerate(best):
        before = move_probability[k] if k < len(move_probability) else 0.0
        same = k < len(old) and old[k] == move
        others = [i for i in range(1, n) if k < len(readings[i]) and readings[i][k] == move]
        if same:
            unlisted = max(0.0, before - game - sum(p[i] for i in others))
            share = (game_after + sum(mass[i] for i in others) + unlisted) / z if z > 0 else before
            per_move.append(max(0.0, min(before, share)))
        else:
            share = sum(mass[i] for i in others) / z if z > 0 else 0.0
            per_move.append(max(0.0, min(1.0 - before, share)))
    return Judged(order, list(costs), probs, max(0.0, confidence), per_move)


def judge_readings(engine: UciEngine, start: Position, readings: Sequence[Sequence[Move]], scores: Sequence[float],
                   probabilities: Sequence[float], reading_confidence: float, move_probability: Sequence[float],
                   temperature: float, seconds: float) -> Judged:
    """The top :data:`MAX_JUDGED` readings judged by ``engine`` within ``seconds`` and ranked
    again (:func:`branches`, :func:`evaluate`, :func:`engine_costs`, :func:`rescore`); the
    readings beyond are kept, after them, at no cost."""
    top = list(readings[:MAX_JUDGED])
    found = branches(start, top, probabilities[:len(top)])
    scored, problem = evaluate(engine, found, seconds)
    costs = engine_costs(found, scored, len(top)) + [0.0] * (len(readings) - len(top))
    judged = rescore(readings, [s if i < len(top) else math.inf for i, s in enumerate(scores)], probabilities,
                     reading_confidence, move_probability, costs, temperature)
    judged.evaluated = sum(1 for s in scored if s is not None)
    judged.branches = len(found)
    judged.problem = problem
    judged.scores = scored
    return judged


__all__ = [
    "ENGINE_WEIGHT", "LOSS_CAP", "SECONDS", "Branch", "EngineSettings", "Judged", "branches", "check_engine",
    "engine_costs", "engine_session", "evaluate", "judge_readings", "rescore",
]
