"""The reading of one or more copies of a scoresheet: a beam search over the plies of the game.

The game is read ply by ply from the start position. A state is the position reached and, for
each copy of the sheet, the box its reading has come to (a *cursor*). Playing a legal move from
a state, each copy either

* reads the move in its next box (the cost of the box's text for that move, from
  :mod:`notation.scoresheet.channel`; a blank ``?`` box fits every move at one cost),
* reads it in the box after next, the next being a box of no move (``edit.extra``),
* has no box for it (``edit.omitted``),
* starts a transposition: the same player's next two moves written in swapped order (boxes
  ``i+2``, ``i+1``, ``i`` read in that order, ``edit.transposed``), or two neighbouring boxes
  swapped (``edit.swapped``),
* or has ended (a copy that stops before the game: nothing more to read, at no cost).

Two copies of one game are independent witnesses: their costs add. A reading ends when every
copy has been read to its end, or when the game ends (mate or stalemate) with boxes left (each
an extra box). Every box has a finite cost for every move (the channel's floor), so the search
always ends with a complete reading, the best of the beam.

At each ply the cheapest :data:`BEAM` states (merged when they reach the same position with the
same cursors) go on. The costs are negative log-probabilities, so the lattice of kept states
also gives probabilities: forward and backward sums (at the channel's ``temperature``) give each
move of the best reading its probability (the share of readings that play that move at that
ply) and the reading as a whole its probability (the share that reach its final position, at
its worst ply). Readings the beam dropped are not counted: the figures are calibrated on real
sheets (``benchmarks/bench_scoresheet_hcs.py``).
"""

from __future__ import annotations

import functools
import heapq
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from notation.scoresheet.channel import BoxReading, MoveFacts, box_cost, box_readings, check_cost, cost, move_facts

if TYPE_CHECKING:  # pragma: no cover
    from notation.rules.move import Move
    from notation.formats.position import Position

#: States kept per ply.
BEAM = 64
#: Per copy, options of a move kept when within this many nats of that copy's best for it.
OPTION_SPAN = 9.0
#: The opening prior (:func:`_book_prior`) applies to the first this many plies.
BOOK_PLIES = 24
#: The reading stops where its best state has read this many boxes in a row at :data:`BREAK_COST`
#: or more each (none as written): the sheet breaks there, and the boxes after it are reported.
BREAK_RUN = 16
BREAK_COST = 4.5
#: A reading has at most this many plies more than its longest copy has boxes.
MAX_OMITTED = 12

# what a copy did at a ply
MATCH, EXTRA_MATCH, OMIT, DONE, TRANSPOSE, SWAP = "match", "extra", "omitted", "done", "transposed", "swapped"


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
    the box dropped before it (``extra``), the box's cost for the move, and the reading of
    its text that gave it (None: blank, or read as any move)."""

    kind: str
    box: int | None
    dropped: int | None
    cost: float
    reading: BoxReading | None


@dataclass(slots=True)
class _Edge:
    parent: _State
    child: _State
    move: Move
    ops: tuple[CopyOp, ...]
    cost: float


@dataclass(slots=True, eq=False)
class _State:
    pos: Position
    cursors: tuple[tuple[int, int], ...]
    depth: int
    cost: float
    best: _Edge | None = None
    incoming: list[_Edge] = field(default_factory=list)
    outgoing: list[_Edge] = field(default_factory=list)
    alpha: float = 0.0
    beta: float = math.inf
    end: float | None = None  # the cost of ending here (None: not an end)


@dataclass(slots=True)
class Found:
    """One complete reading: the moves, what each copy did at each ply, its cost, and the
    boxes left when the game ended before the sheet."""

    moves: list[Move]
    ops: list[tuple[CopyOp, ...]]
    cost: float
    left: tuple[tuple[int, ...], ...]  # per copy, the boxes after the end of the game
    final: Position


@dataclass(slots=True)
class Lattice:
    """The search's outcome: the readings found (cheapest first, distinct games), the
    probability of each move of the best one, and of the best one as a whole."""

    readings: list[Found]
    move_probability: list[float]
    reading_probability: float
    states: int
    z: float = math.inf  # all readings' costs summed as probabilities (``-t log sum exp(-c / t)``)


def _logsum(values: list[float], t: float) -> float:
    """``-t * log(sum(exp(-v / t)))``: costs added as probabilities."""
    low = min(values)
    if low == math.inf:
        return math.inf
    return low - t * math.log(sum(math.exp(-(v - low) / t) for v in values))


class _Copy:
    def __init__(self, boxes: list[Box], lang: str) -> None:
        self.boxes = boxes
        self.n = len(boxes)
        self.readings = [() if b.blank else box_readings(b.text, lang) for b in boxes]
        self.cache: dict[tuple[int, MoveFacts], tuple[float, BoxReading | None]] = {}
        self.option_cache: dict[tuple[tuple[int, int], MoveFacts], list[_Option]] = {}

    def emit(self, i: int, f: MoveFacts) -> tuple[float, BoxReading | None]:
        key = (i, f)
        found = self.cache.get(key)
        if found is None:
            if self.boxes[i].blank:
                found = (cost("box.blank"), None)
            else:
                found = box_cost(self.readings[i], f)
            self.cache[key] = found
        return found

    def options(self, cursor: tuple[int, int], f: MoveFacts) -> list[_Option]:
        """What this copy may do when ``f``'s move is played at ``cursor`` (cached)."""
        key = (cursor, f)
        found = self.option_cache.get(key)
        if found is None:
            found = self.option_cache[key] = self._options(cursor, f)
        return found

    def _options(self, cursor: tuple[int, int], f: MoveFacts) -> list[_Option]:
        i, phase = cursor
        n = self.n
        if phase == 1:  # transposition: box i+2 was read, now i+1
            c, r = self.emit(i + 1, f)
            return [(c, (i, 2), TRANSPOSE, i + 1, None, r)]
        if phase == 2:  # ... and now box i
            c, r = self.emit(i, f)
            return [(c, (i + 3, 0), TRANSPOSE, i, None, r)]
        if phase == 3:  # neighbours swapped: box i+1 was read, now box i
            c, r = self.emit(i, f)
            return [(c, (i + 2, 0), SWAP, i, None, r)]
        if i >= n:
            return [(0.0, cursor, DONE, None, None, None)]
        c, r = self.emit(i, f)
        out: list[_Option] = [(c, (i + 1, 0), MATCH, i, None, r)]
        out.append((cost("edit.omitted"), cursor, OMIT, None, None, None))
        if i + 1 < n:
            c, r = self.emit(i + 1, f)
            out.append((c + cost("edit.extra"), (i + 2, 0), EXTRA_MATCH, i + 1, i, r))
            out.append((c + cost("edit.swapped"), (i, 3), SWAP, i + 1, None, r))
        if i + 2 < n:
            c, r = self.emit(i + 2, f)
            out.append((c + cost("edit.transposed"), (i, 1), TRANSPOSE, i + 2, None, r))
        best = min(o[0] for o in out)
        return [o for o in out if o[0] <= best + OPTION_SPAN]


#: One option of a copy: (cost, new cursor, kind, box read, box dropped, reading)
_Option = tuple[float, tuple[int, int], str, "int | None", "int | None", "BoxReading | None"]


def _combine(per_copy: list[list[_Option]]) -> list[tuple[float, tuple[tuple[int, int], ...], tuple[_Option, ...]]]:
    if len(per_copy) == 1:
        return [(o[0], (o[1],), (o,)) for o in per_copy[0]]
    combos: list[tuple[float, tuple[tuple[int, int], ...], tuple[_Option, ...]]] = [(0.0, (), ())]
    for options in per_copy:
        combos = [(c + o[0], cur + (o[1],), ops + (o,)) for c, cur, ops in combos for o in options]
        if len(combos) > 12:
            combos.sort(key=lambda item: item[0])
            del combos[12:]
    return combos


def _op(option: _Option) -> CopyOp:
    c, _, kind, box, dropped, reading = option
    return CopyOp(kind, box, dropped, c, reading)


def _book_prior(pos: Position, moves: list[Move], depth: int) -> list[float] | None:
    """The opening prior of each move from a position of the opening table (None elsewhere):
    players mostly stay on known lines, so a move to a table position costs less than one
    that leaves the table (``prior.book``: the share of moves that stay, learned)."""
    if depth >= BOOK_PLIES:
        return None
    known = _book_keys()
    if depth > 0 and pos.key() not in known:
        return None
    inside = [pos.play(m).key() in known for m in moves]
    n_in = sum(inside)
    if n_in == 0:
        return None
    stay = math.exp(-cost("prior.leave"))  # the probability of leaving the table
    n = len(moves)
    on = -math.log((1.0 - stay) * n / n_in)
    off = -math.log(stay * n / (n - n_in)) if n > n_in else on
    # only the difference matters: a move on the table is free, one off it costs the difference
    return [0.0 if k else max(0.0, off - on) for k in inside]


@functools.cache
def _book_keys() -> frozenset[int]:
    """Every position on a line of the opening table (each line's moves played out), by key."""
    from notation.openings.eco import table
    from notation.formats.position import Position

    keys: set[int] = set()
    for entry in table().values():
        pos = Position.initial()
        for token in entry.pgn.split():
            if token[0].isdigit():
                token = token.lstrip("0123456789.")
                if not token:
                    continue
            try:
                _, pos = pos.play_san(token)
            except ValueError:
                break
            keys.add(pos.key())
    return frozenset(keys)


def _forced_facts(pos: Position, move: Move) -> list[MoveFacts]:
    moves = pos.legal_moves()
    return [move_facts(pos, moves)[moves.index(move)]]


def _check_level(after: Position) -> int:
    if not after.is_check():
        return 0
    return 2 if not after.has_legal_moves() else 1


def read_copies(copies: list[list[Box]], start: Position, lang: str = "en", beam: int = BEAM,
                forced: list[Move] | None = None) -> Lattice:
    """Read the copies of one game's sheet (see the module docstring). ``forced``: the game is
    known (only its moves are played: the alignment of the boxes with it, for learning)."""
    sheets = [_Copy(boxes, lang) for boxes in copies]
    t = cost("temperature")
    root = _State(start, tuple((0, 0) for _ in sheets), 0, 0.0)
    layer = [root]
    ends: list[_State] = []
    layers: list[list[_State]] = [layer]
    longest = max((s.n for s in sheets), default=0)
    omitted_cost = cost("edit.omitted")
    extra_cost = cost("edit.extra")
    best_end = math.inf
    while layer:
        candidates: list[tuple[float, int, int, int, tuple[tuple[int, int], ...], tuple[_Option, ...]]] = []
        moves_of: list[list[Move]] = []
        for si, state in enumerate(layer):
            if forced is not None:
                moves = forced[state.depth:state.depth + 1]
            else:
                moves = state.pos.legal_moves() if state.depth < longest + MAX_OMITTED else []
            moves_of.append(moves)
            finished = all(c[0] >= s.n and c[1] == 0 for c, s in zip(state.cursors, sheets))
            if finished or not moves:
                left = sum(max(0, s.n - c[0]) for c, s in zip(state.cursors, sheets))
                state.end = left * extra_cost
                ends.append(state)
                best_end = min(best_end, state.cost + state.end)
                continue
            if state.cost > best_end + 2 * OPTION_SPAN:
                continue
            facts = move_facts(state.pos, moves) if forced is None else _forced_facts(state.pos, moves[0])
            choice = math.log(len(moves) if forced is None else max(1, len(state.pos.legal_moves())))
            book = _book_prior(state.pos, moves, state.depth) if forced is None else None
            for mi, f in enumerate(facts):
                per_copy = [s.options(c, f) for c, s in zip(state.cursors, sheets)]
                prior = book[mi] if book is not None else 0.0
                for c, cursors, ops in _combine(per_copy):
                    if all(o[2] in (OMIT, DONE) for o in ops):
                        if all(o[2] == DONE for o in ops):
                            continue
                        c += choice  # a move no copy wrote: any of the legal moves
                    candidates.append((state.cost + c + prior, si, mi, len(candidates), cursors, ops))
        if not candidates:
            break
        chosen = heapq.nsmallest(beam * 3, candidates)
        merged: dict[tuple[tuple[tuple[int, int], ...], int], _State] = {}
        played: dict[tuple[int, int], tuple[Position, int]] = {}
        edges: list[_Edge] = []
        for total, si, mi, _, cursors, options in chosen:
            copy_ops = tuple(_op(o) for o in options)
            parent = layer[si]
            move = moves_of[si][mi]
            found = played.get((si, mi))
            if found is None:
                after = parent.pos.play(move)
                found = played[(si, mi)] = (after, _check_level(after))
            after, level = found
            marks = sum((check_cost(op.reading.written, level) for op in copy_ops
                         if op.kind not in (OMIT, DONE) and op.reading is not None), 0.0)
            edge_cost = total - parent.cost + marks
            key = (cursors, after.key())
            child = merged.get(key)
            if child is None:
                child = merged[key] = _State(after, cursors, parent.depth + 1, math.inf)
            edge = _Edge(parent, child, move, copy_ops, edge_cost)
            edges.append(edge)
            if parent.cost + edge_cost < child.cost:
                child.cost = parent.cost + edge_cost
                child.best = edge
        kept = sorted(merged.values(), key=lambda s: s.cost)[:beam]
        if kept and forced is None and _broken(kept[0]):
            for state in kept:  # the sheet breaks here: the readings end, the boxes left reported
                state.end = 0.0
                ends.append(state)
            _link(edges, {id(s) for s in kept})
            layers.append(kept)
            break
        _link(edges, {id(s) for s in kept})
        layer = kept
        layers.append(layer)
    return _finish(layers, ends, t)


def _link(edges: list[_Edge], alive: set[int]) -> None:
    for edge in edges:
        if id(edge.child) in alive:
            edge.child.incoming.append(edge)
            edge.parent.outgoing.append(edge)


def _broken(state: _State) -> bool:
    """True when the best reading's last :data:`BREAK_RUN` plies were each read from no box as
    written (every copy's box at :data:`BREAK_COST` or more, or no box)."""
    run = 0
    while state.best is not None and run < BREAK_RUN:
        ops = state.best.ops
        if any(op.box is not None and op.cost < BREAK_COST for op in ops) or all(op.kind == DONE for op in ops):
            return False
        run += 1
        state = state.best.parent
    return run >= BREAK_RUN


def _finish(layers: list[list[_State]], ends: list[_State], t: float) -> Lattice:
    # forward sums
    for layer in layers:
        for state in layer:
            if state.incoming:
                state.alpha = _logsum([e.parent.alpha + e.cost for e in state.incoming], t)
    # backward sums
    for layer in reversed(layers):
        for state in layer:
            values = [e.cost + e.child.beta for e in state.outgoing]
            if state.end is not None:
                values.append(state.end)
            state.beta = _logsum(values, t) if values else math.inf
    if not ends:
        return Lattice([], [], 0.0, 0)
    z = _logsum([s.alpha + (s.end or 0.0) for s in ends], t)
    ranked = sorted(ends, key=lambda s: s.cost + (s.end or 0.0))
    readings: list[Found] = []
    seen: set[tuple[Move, ...]] = set()
    for end in ranked:
        found = _backtrack(end)
        key = tuple(found.moves)
        if key in seen:
            continue
        seen.add(key)
        readings.append(found)
        if len(readings) >= 10:
            break
    best_end = ranked[0]
    path: list[_Edge] = []
    state = best_end
    while state.best is not None:
        path.append(state.best)
        state = state.best.parent
    path.reverse()
    # the probability of each move of the best reading: all edges at that ply playing it
    move_probability: list[float] = []
    reading_probability = 1.0
    for depth, edge in enumerate(path):
        here = [s for s in layers[depth + 1]] if depth + 1 < len(layers) else []
        same_move = 0.0
        same_position = 0.0
        target_key = edge.child.pos.key()
        for child in here:
            weight = math.exp(-(child.alpha + child.beta - z) / t) if child.beta < math.inf else 0.0
            if child.pos.key() == target_key:
                same_position += weight
            for e in child.incoming:
                if e.move == edge.move:
                    same_move += math.exp(-(e.parent.alpha + e.cost + child.beta - z) / t)
        move_probability.append(min(1.0, same_move))
        reading_probability = min(reading_probability, same_position)
    final = best_end.pos.key()
    at_end = sum(math.exp(-(s.alpha + (s.end or 0.0) - z) / t) for s in ends
                 if s.pos.key() == final and s.depth == best_end.depth)
    reading_probability = min(reading_probability, at_end, 1.0)
    return Lattice(readings, move_probability, reading_probability, sum(len(layer) for layer in layers), z)


def _backtrack(end: _State) -> Found:
    moves: list[Move] = []
    ops: list[tuple[CopyOp, ...]] = []
    state = end
    total = end.cost + (end.end or 0.0)
    while state.best is not None:
        moves.append(state.best.move)
        ops.append(state.best.ops)
        state = state.best.parent
    moves.reverse()
    ops.reverse()
    return Found(moves, ops, total, (), end.pos)


__all__ = ["BEAM", "Box", "CopyOp", "Found", "Lattice", "read_copies"]
