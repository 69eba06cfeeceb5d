"""Probabilities from the lattice of a scoresheet reading: forward and backward sums.

The costs of the lattice (:mod:`notation.scoresheet.lattice`) are negative log-probabilities, so
summing them as probabilities at the channel's ``temperature`` over the kept states gives each
move of the best reading its probability (the share of readings that play that move at that
ply), the other moves weighed at that ply, and the reading as a whole its probability (the share
of readings that reach its position at its worst ply, and its final position). Before the sums,
each error is priced at this writer's own rate (:func:`rate_shift`): a sheet whose boxes read as
written makes fewer slips than the average real sheet, one with many makes more. Readings the
decoder dropped are not counted: the figures are calibrated on real sheets
(``benchmarks/bench_scoresheet_hcs.py``), and where one copy alone speaks for a move its
probability is capped by how far the boxes around it read as written
(:mod:`notation.scoresheet.calibration`).
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

from notation.scoresheet.calibration import WRITTEN as LITERAL_COST
from notation.scoresheet.calibration import caps, read_as
from notation.scoresheet.channel import cost, is_slip, move_facts, written_cost
from notation.scoresheet.lattice import DONE, MATCH, SWAP, TRANSPOSE, Choice, CopyOp, Found, Lattice

if TYPE_CHECKING:  # pragma: no cover
    from notation.formats.position import Position
    from notation.rules.move import Move
    from notation.scoresheet.lattice import Edge, State

#: The share of boxes that are not what was meant, on the real sheets the costs were learned from
#: (87.1% are exact SAN; the HCS corpus's README).
BASE_ERROR_RATE = 0.129
#: How many boxes the sheet's own error rate is worth against :data:`BASE_ERROR_RATE` (the
#: strength of that prior), and the most the sheet's rate may move the costs of errors (nats).
#: Writers differ: a typed sheet or a careful writer makes far fewer slips than the average
#: real sheet, so the prior is weak (five boxes) and the shift may reach four nats: a clean
#: typed sheet of 60 boxes then prices a slip 2.6 nats dearer (1.8 with ten boxes and a cap of
#: two): clean typed sheets confident 34 -> 37 of 40, the HCS sheets read as exactly as before
#: (BENCHMARKS.md "Scoresheets").
RATE_PRIOR_BOXES = 5.0
MAX_RATE_SHIFT = 4.0
#: The readings listed at most (distinct games, likeliest first).
READINGS = 10
#: The moves listed per ply where the best reading's move is below this probability.
CHOICES_BELOW = 0.99
CHOICES = 5


def logsum(values: list[float], t: float) -> float:
    """``-t * log(sum(exp(-v / t)))``: costs added as probabilities."""
    low = min(values)
    if low == math.inf:
        return math.inf
    return low - t * math.log(sum(math.exp(-(v - low) / t) for v in values))


def errors(ops: tuple[CopyOp, ...], blank: float) -> float:
    """The slips of one ply's boxes (blank boxes apart: a blank fits every move alike; a
    transposition of three boxes or a swap of two is one slip, shared by its plies)."""
    n = 0.0
    for op in ops:
        if op.kind == DONE or (op.reading is None and op.kind == MATCH and op.cost == blank):
            continue
        if op.kind == TRANSPOSE:
            n += 1.0 / 3.0
        elif op.kind == SWAP:
            n += 0.5
        elif op.kind != MATCH or op.cost > LITERAL_COST:
            n += 1.0
    return n


def habit_only(op: CopyOp, pos: Position, move: Move) -> bool:
    """True for a box read as ``move`` (from ``pos``) at a cost above :data:`LITERAL_COST` made
    only of notation habits (``e2-e4``, ``qf3``, a check without ``+``): counted as an error by
    :func:`errors` (which must be cheap, for every edge), though it is none."""
    if op.kind != MATCH or op.reading is None or op.cost <= LITERAL_COST or op.reading.what:
        return False
    moves = pos.legal_moves()
    facts = move_facts(pos, moves)[moves.index(move)]
    parts: list[str] = []
    written_cost(op.reading.written, facts, parts)
    return not any(is_slip(p) for p in parts)


def rate_shift(best: State) -> float:
    """How much more (positive) or less an error costs on this sheet than on the average real
    sheet, read off its best reading (slips among the boxes read; notation habits are none), shrunk
    towards :data:`BASE_ERROR_RATE` by :data:`RATE_PRIOR_BOXES` boxes."""
    blank = cost("box.blank")
    slips = 0.0
    boxes = 0
    for edge in best.path():
        slips += errors(edge.ops, blank) - sum(1 for op in edge.ops if habit_only(op, edge.parent.pos, edge.move))
        boxes += sum(1 for op in edge.ops if op.kind != DONE)
    rate = (slips + RATE_PRIOR_BOXES * BASE_ERROR_RATE) / (boxes + RATE_PRIOR_BOXES)
    return max(-MAX_RATE_SHIFT, min(MAX_RATE_SHIFT, math.log(BASE_ERROR_RATE / rate)))


def posterior(layers: list[list[State]], ends: list[State], t: float, settled: frozenset[int] = frozenset()) -> Lattice:
    """The lattice of kept states ``layers`` (per ply) whose readings end at ``ends``, with its
    readings and probabilities: each move's the share of the readings that play it, capped where
    one copy alone speaks for it by how far its neighbourhood reads as written
    (:mod:`notation.scoresheet.calibration`; ``settled``: plies a reviewer has settled, 0-based)."""
    if not ends:
        return Lattice([], [], 0.0, 0, temperature=t)
    blank = cost("box.blank")
    shift = rate_shift(min(ends, key=lambda s: s.total))
    if shift:
        for layer in layers:
            for state in layer:
                for e in state.incoming:
                    e.weight = e.cost + shift * errors(e.ops, blank)
        value = _best_by_weight(layers)
        ranked = sorted(ends, key=lambda s: value.get(id(s), math.inf) + (s.end or 0.0))
    else:
        ranked = sorted(ends, key=lambda s: s.total)
    best_end = ranked[0]
    _forward(layers, t)
    _backward(layers, t)
    z = logsum([s.alpha + (s.end or 0.0) for s in ends], t)
    readings = _readings(ranked)
    path = best_end.path()
    move_probability: list[float] = []
    choices: list[tuple[Choice, ...]] = []
    reading_probability = 1.0
    limits = caps([read_as(e.ops, blank, functools.partial(_habit_at, edge=e)) for e in path], settled)
    for depth, edge in enumerate(path):
        here = layers[depth + 1] if depth + 1 < len(layers) else []
        same_move, same_position, weighed = _at_ply(here, edge, z, t)
        shown = min(1.0, same_move, limits[depth])
        move_probability.append(shown)
        reading_probability = min(reading_probability, same_position, shown)
        # (capped: every move weighed there scaled alike, the rest is what the lattice did not weigh)
        scale = shown / same_move if same_move > shown else 1.0
        choices.append(_choices(edge, weighed, scale) if shown < CHOICES_BELOW else ())
    final = best_end.pos.key()
    at_end = sum(
        math.exp(-(s.alpha + (s.end or 0.0) - z) / t)
        for s in ends
        if s.pos.key() == final and s.depth == best_end.depth
    )
    reading_probability = min(reading_probability, at_end, 1.0)
    return Lattice(readings, move_probability, reading_probability, sum(len(layer) for layer in layers), z, choices, t)


def _best_by_weight(layers: list[list[State]]) -> dict[int, float]:
    """Each state's best way in by the edges' weights (the costs at this sheet's error rate, what
    the probabilities are computed from), and its cost the cost of that way: the best reading is
    then the likeliest one, not the cheapest at the average rate (on a careful writer's sheet a
    reading with one slip fewer can be likelier though dearer). Ties keep the cheapest way. The
    weight of each state's best way in, by ``id``."""
    value: dict[int, float] = {}
    for layer in layers:
        for state in layer:
            if not state.incoming:
                value[id(state)] = state.cost
                continue
            best = state.best
            least = math.inf if best is None else value.get(id(best.parent), math.inf) + best.weight
            for e in state.incoming:
                here = value.get(id(e.parent), math.inf) + e.weight
                if here < least - 1e-9:
                    least, best = here, e
            value[id(state)] = least
            if best is not None:  # (the cost of the way in, whose states may have changed theirs)
                state.best = best
                state.cost = best.parent.cost + best.cost
    return value


def _readings(ranked: list[State]) -> list[Found]:
    """The readings listed (distinct games, likeliest first, at most :data:`READINGS`): the
    best way to each end (see :func:`_best_by_weight`), and the ways that leave the best reading
    at one state only (another edge into it, then the best reading on). Two readings that reach the same position with the
    same boxes read (two move orders, two transpositions of the same boxes) are one state of the
    lattice; only the second kind lists the one that is not its cheapest way."""
    best_end = ranked[0]
    path = best_end.path()
    detours: list[tuple[float, int, int, Edge]] = []
    for k, edge in enumerate(path):
        rest = best_end.total - edge.child.cost
        detours.extend(
            # (never below the best reading: a tie computed by another sum may round lower)
            (max(best_end.total, other.parent.cost + other.cost + rest), k, n, other)
            for n, other in enumerate(edge.child.incoming)
            if other is not edge
        )
    detours.sort(key=lambda d: (d[0], d[1], d[2]))
    # the best reading first, then the cheapest, the ends first on equal costs
    options = [(end.total, 0, n) for n, end in enumerate(ranked) if n] + [
        (d[0], 1, n) for n, d in enumerate(detours[:READINGS])
    ]
    options.sort()
    readings: list[Found] = []
    seen: set[tuple[Move, ...]] = set()
    for _, kind, n in [(best_end.total, 0, 0), *options]:
        if kind == 0:
            found = Found.ending_at(ranked[n])
        else:
            total, k, _, other = detours[n]
            found = Found.along(other.parent.path() + [other] + path[k + 1 :], best_end, total)
        if found.moves in seen:
            continue
        seen.add(found.moves)
        readings.append(found)
        if len(readings) >= READINGS:
            break
    # likeliest first: the others by their weight (the best one's is the least: see _best_by_weight)
    return readings[:1] + sorted(readings[1:], key=lambda r: r.weight)


def _habit_at(op: CopyOp, edge: Edge) -> bool:
    return habit_only(op, edge.parent.pos, edge.move)


def _forward(layers: list[list[State]], t: float) -> None:
    for layer in layers:
        for state in layer:
            if state.incoming:
                state.alpha = logsum([e.parent.alpha + e.weight for e in state.incoming], t)


def _backward(layers: list[list[State]], t: float) -> None:
    for layer in reversed(layers):
        for state in layer:
            values = [e.weight + e.child.beta for e in state.outgoing]
            if state.end is not None:
                values.append(state.end)
            state.beta = logsum(values, t) if values else math.inf


def _at_ply(here: list[State], edge: Edge, z: float, t: float) -> tuple[float, float, dict[tuple[int, Move], float]]:
    """At the ply of the best reading's ``edge``: the probability of its move (every edge of
    the ply that plays it), of its position, and of each (position, move) played there."""
    same_move = 0.0
    same_position = 0.0
    weighed: dict[tuple[int, Move], float] = {}
    target_key = edge.child.pos.key()
    for child in here:
        if child.beta == math.inf:
            continue
        if child.pos.key() == target_key:
            same_position += math.exp(-(child.alpha + child.beta - z) / t)
        for e in child.incoming:
            p = math.exp(-(e.parent.alpha + e.weight + child.beta - z) / t)
            if e.move == edge.move:
                same_move += p
            key = (id(e.parent), e.move)
            weighed[key] = weighed.get(key, 0.0) + p
    return same_move, same_position, weighed


def _choices(edge: Edge, weighed: dict[tuple[int, Move], float], scale: float = 1.0) -> tuple[Choice, ...]:
    """The moves weighed at a ply, as SAN in the best reading's position there (a move not legal
    there is named in its own position), likeliest first, their probabilities times ``scale``."""
    pos = edge.parent.pos
    legal = set(pos.legal_moves())
    by_move: dict[Move, float] = {}
    for (_, move), p in weighed.items():
        by_move[move] = by_move.get(move, 0.0) + p
    by_san: dict[str, float] = {}
    for move, p in by_move.items():
        if move not in legal:
            continue  # a move of another position: not one the reviewer can pin here
        san = pos.san(move)
        by_san[san] = by_san.get(san, 0.0) + p
    ranked = sorted(by_san.items(), key=lambda item: -item[1])[:CHOICES]
    return tuple(Choice(san, round(min(1.0, p * scale), 4)) for san, p in ranked)


__all__ = ["CHOICES_BELOW", "errors", "habit_only", "logsum", "posterior", "rate_shift"]
