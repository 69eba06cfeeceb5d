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
same cursors) go on. With several copies a state is ranked by what it has paid and what its
copies still owe (:func:`_pending`: the least their unread boxes will cost, as far as the boxes
have been read at their own plies): a copy that skips a box nothing fits is cheaper for a ply
or two and then a box behind the other copies for the rest of the game.

A beam can still drop the reading that explains the sheet: a move the writer left out costs
more, for a few plies, than misreading the boxes after it, and the boxes then read as no move at
all. Where the best reading of a sheet read alone reads a box so, the plies before it are read
again with a wider beam and the sheet read on from there; the new reading is kept when it is
cheaper (:func:`_repair`).

The costs are negative log-probabilities, so the lattice of kept states also gives
probabilities: forward and backward sums (at the channel's ``temperature``) give each
move of the best reading its probability (the share of readings that play that move at that
ply) and the reading as a whole its probability (the share that reach its final position, at
its worst ply). Readings the beam dropped are not counted: the figures are calibrated on real
sheets (``benchmarks/bench_scoresheet_hcs.py``).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import heapq
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from notation.scoresheet.channel import (
    BoxReading,
    MoveFacts,
    box_cost,
    box_readings,
    check_cost,
    cost,
    move_facts,
    sheet_style,
)
from notation.scoresheet.plausibility import captured_square, move_class

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable, Iterable, Iterator

    from notation.rules.move import Move
    from notation.formats.position import Position

#: States kept per ply.
BEAM = 64
#: Per copy, options of a move kept when within this many nats of that copy's best for it.
OPTION_SPAN = 9.0
#: How much a line's popularity counts in the opening prior: a move on the table is weighted by
#: the number of the table's lines through it to this power (0: every move on the table alike).
BOOK_POWER = 0.0
#: The weight of the opening prior against what the boxes say (the table tells which lines are
#: theory, not how often each move is played: a tempered prior).
BOOK_WEIGHT = 0.5
#: The opening prior (:func:`_book_prior`) applies to the first this many plies.
BOOK_PLIES = 24
#: The reading stops where its best state has read this many boxes in a row at :data:`BREAK_COST`
#: or more each (none as written): the sheet breaks there, and the boxes after it are reported.
BREAK_RUN = 16
BREAK_COST = 4.5
#: At most this many states of the beam in one position (see :func:`_keep`).
PER_POSITION = 3
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
    prior: float = 0.0  # the part of ``cost`` that is the opening prior, not the boxes
    weight: float = 0.0  # the cost the probabilities use (``cost`` at this sheet's error rate)

    def __post_init__(self) -> None:
        self.weight = self.cost


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
    last_capture: int | None = None  # where the move that led here (the best edge's) took a piece


@dataclass(slots=True)
class Found:
    """One complete reading: the moves, what each copy did at each ply, its cost, and the
    boxes left when the game ended before the sheet."""

    moves: list[Move]
    ops: list[tuple[CopyOp, ...]]
    cost: float
    left: tuple[tuple[int, ...], ...]  # per copy, the boxes after the end of the game
    final: Position
    prior: float = 0.0  # the part of ``cost`` that is the opening prior (what the boxes cost: the rest)
    weight: float = 0.0  # ``cost`` at this sheet's error rate (what its probability is computed from)


@dataclass(slots=True)
class Lattice:
    """The search's outcome: the readings found (cheapest first, distinct games), the
    probability of each move of the best one, and of the best one as a whole."""

    readings: list[Found]
    move_probability: list[float]
    reading_probability: float
    states: int
    z: float = math.inf  # all readings' costs summed as probabilities (``-t log sum exp(-c / t)``)
    layers: list[list[_State]] = field(default_factory=list, repr=False)  # the kept states, per ply
    ends: list[_State] = field(default_factory=list, repr=False)  # the states where a reading ends
    temperature: float = 1.0
    read_again: bool = False  # the best reading was found by a repair pass (:func:`_repair`)


#: What a layer of the beam was: its states (position key, cursors, cost), and the cheapest end
#: found when it was kept.
_Mark = tuple[frozenset[tuple[int, tuple[tuple[int, int], ...], float]], float]


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
        self.style = sheet_style(self.readings)
        self.cache: dict[tuple[int, MoveFacts], tuple[float, BoxReading | None]] = {}
        self.option_cache: dict[tuple[tuple[int, int], MoveFacts], list[_Option]] = {}
        # The least each box can cost: its cheapest reading's edit, or dropped as an extra box,
        # raised by ``above`` once the box has been read as the move of its own ply (it costs
        # about what it cost for the moves of that ply).
        unreadable, blank = cost("box.unreadable"), cost("box.blank")
        self.extra = cost("edit.extra")
        self.least = [min(self.extra, blank if b.blank else min((r.edit for r in rs), default=unreadable))
                      for b, rs in zip(boxes, self.readings)]
        self.above = [math.inf] * self.n

    def owed(self, box: int) -> float:
        return self.least[box] + (0.0 if self.above[box] == math.inf else self.above[box])

    def pending(self, cursor: tuple[int, int], horizon: int) -> float:
        """What the boxes before ``horizon`` that this copy has not read at ``cursor`` will cost
        at least (the boxes from ``horizon`` on are owed alike by every state compared)."""
        i, phase = cursor
        boxes: Iterable[int]
        if phase == 0:
            boxes = range(i, horizon)
        elif phase == 1:  # box i+2 read; i and i+1 owed
            boxes = [i, i + 1, *range(i + 3, horizon)]
        else:  # phase 2 (box i owed, i+1 and i+2 read) or 3 (box i owed, i+1 read)
            boxes = [i, *range(i + (3 if phase == 2 else 2), horizon)]
        return sum(self.owed(j) for j in boxes if j < self.n)

    def emit(self, i: int, f: MoveFacts) -> tuple[float, BoxReading | None]:
        key = (i, f)
        found = self.cache.get(key)
        if found is None:
            if self.boxes[i].blank:
                found = (cost("box.blank"), None)
            else:
                found = box_cost(self.readings[i], f, self.style)
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
        above = min(c, self.extra) - self.least[i]
        if above < self.above[i]:  # box i read for a move of its own ply
            self.above[i] = above
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


#: One way the copies take a move: (cost, their cursors after it, each copy's option, and 0 when
#: some copy wrote it, 1 when none did, 2 when every copy has ended).
_Combo = tuple[float, tuple[tuple[int, int], ...], tuple[_Option, ...], int]


def _unwritten(ops: tuple[_Option, ...]) -> int:
    if all(o[2] in (OMIT, DONE) for o in ops):
        return 2 if all(o[2] == DONE for o in ops) else 1
    return 0


def _combine(per_copy: list[list[_Option]]) -> list[_Combo]:
    """The ways the copies take one move: each copy's options combined, the cheapest 12."""
    if len(per_copy) == 1:
        return [(o[0], (o[1],), (o,), _unwritten((o,))) for o in per_copy[0]]
    combos: list[tuple[float, tuple[tuple[int, int], ...], tuple[_Option, ...]]] = [(0.0, (), ())]
    for options in per_copy:
        combos = [(c + o[0], cur + (o[1],), ops + (o,)) for c, cur, ops in combos for o in options]
        if len(combos) > 12:
            combos.sort(key=lambda item: item[0])
            del combos[12:]
    return [(c, cur, ops, _unwritten(ops)) for c, cur, ops in combos]


def _op(option: _Option) -> CopyOp:
    c, _, kind, box, dropped, reading = option
    return CopyOp(kind, box, dropped, c, reading)


def _book_prior(pos: Position, moves: list[Move], depth: int) -> list[float] | None:
    """The opening prior of each move from a position of the opening table (None elsewhere),
    as ``-log(p * n)`` for ``n`` legal moves (0 for a move as likely as any other): players
    mostly stay on known lines, and on the popular ones. A move staying on the table has
    probability ``(1 - leave)`` times its share of the table's lines through this position; one
    leaving the table shares ``leave`` (``prior.leave``: the share of moves that leave it,
    learned from real sheets) with the other moves off it."""
    if depth >= BOOK_PLIES:
        return None
    counts = _book_counts()
    if depth > 0 and pos.key() not in counts:
        return None
    raw = [counts.get(pos.play(m).key(), 0) for m in moves]
    lines = [c ** BOOK_POWER if c else 0.0 for c in raw]
    total = sum(lines)
    n = len(moves)
    if total == 0:
        return None  # a leaf of the table: every move leaves it
    off = n - sum(1 for c in lines if c)
    leave = math.exp(-cost("prior.leave")) if off else 0.0
    return [-BOOK_WEIGHT * math.log(((1.0 - leave) * c / total if c else leave / off) * n) for c in lines]


@functools.cache
def _book_counts() -> dict[int, int]:
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


def _check_level(after: Position) -> int:
    if not after.is_check():
        return 0
    return 2 if not after.has_legal_moves() else 1


def read_copies(copies: list[list[Box]], start: Position, lang: str = "en", beam: int = BEAM,
                forced: list[Move] | None = None, only: list[Move] | None = None) -> Lattice:
    """Read the copies of one game's sheet (see the module docstring). ``forced``: the game is
    known (only its moves are played: the alignment of the boxes with it, for learning).
    ``only``: read as usual, every cost and prior alike, but play only these moves (what the
    reading of that game costs under the model: for diagnosing a reading). The cyclic garbage
    collector is paused meanwhile (:func:`collector_paused`)."""
    with collector_paused():
        return _read(copies, start, lang, beam, forced, only)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for the block, then as it was: a lattice's states
    and edges refer to each other and all live until the reading is done, and the collector
    would walk them again and again as they grow (about half the time of a sheet)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _read(copies: list[list[Box]], start: Position, lang: str, beam: int, forced: list[Move] | None,
          only: list[Move] | None) -> Lattice:
    sheets = [_Copy(boxes, lang) for boxes in copies]
    t = cost("temperature")
    root = _State(start, tuple((0, 0) for _ in sheets), 0, 0.0)
    ends: list[_State] = []
    layers: list[list[_State]] = [[root]]
    longest = max((s.n for s in sheets), default=0)
    omitted_cost = cost("edit.omitted")
    extra_cost = cost("edit.extra")
    best_end = math.inf
    plausibility: dict[tuple[int, Move, int | None], float] = {}
    generated: dict[int, tuple[list[Move], list[MoveFacts]]] = {}
    combined: dict[tuple[tuple[tuple[int, int], ...], MoveFacts], list[_Combo]] = {}
    # per depth, the states kept (position, cursors, cost) and the cheapest end found so far; a
    # sheet read alone may be read again (several copies keep each other in step)
    history: dict[int, _Mark] = {}
    repairable = forced is None and only is None and len(sheets) == 1

    def advance(k: int, width_at: Callable[[int], int], settled: int | None = None) -> float | None:
        """Read on from ``layers[k]``, dropping what was read after it; the cheapest end's cost.
        From depth ``settled`` on, a layer the same as the last reading's at its depth (the same
        states at the same costs, the same cheapest end so far) reads on as before: None then."""
        nonlocal best_end
        del layers[k + 1:]
        ends[:] = [s for s in ends if s.depth < k]
        best_end = min((s.cost + (s.end or 0.0) for s in ends), default=math.inf)
        layer = layers[k]
        for state in layer:
            state.outgoing = []
            state.end = None
        while layer:
            # (rank, state, move, order, cursors, options, prior, cost): the rank is the cost, plus what
            # the copies owe when there are several
            candidates: list[tuple[float, int, int, int, tuple[tuple[int, int], ...], tuple[_Option, ...], float,
                                   float]] = []
            moves_of: list[list[Move]] = []
            for si, state in enumerate(layer):
                if forced is not None:
                    moves = forced[state.depth:state.depth + 1]
                else:
                    moves = (_generate(state.pos, generated)[0] if state.depth < longest + MAX_OMITTED else [])
                    if only is not None and state.depth >= len(only):
                        moves = []
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
                legal, facts = _generate(state.pos, generated)
                choice = math.log(max(1, len(legal)))
                if forced is not None:
                    facts = [facts[legal.index(moves[0])]]
                book = _book_prior(state.pos, moves, state.depth) if forced is None else None
                for mi, f in enumerate(facts):
                    if only is not None and moves[mi] != only[state.depth]:
                        continue
                    combos = combined.get((state.cursors, f))
                    if combos is None:
                        combos = combined[(state.cursors, f)] = _combine(
                            [s.options(c, f) for c, s in zip(state.cursors, sheets)])
                    prior = book[mi] if book is not None else 0.0
                    for c, cursors, ops, unwritten in combos:
                        if unwritten:
                            if unwritten == 2:  # every copy has ended
                                continue
                            c += choice  # a move no copy wrote: any of the legal moves
                        total = state.cost + c + prior
                        candidates.append((total, si, mi, len(candidates), cursors, ops, prior, total))
            if not candidates:
                break
            owing = forced is None and len(sheets) > 1
            if owing:  # copies out of step: ranked by what they have paid and what they owe
                horizon = tuple(max(c[4][k][0] for c in candidates) + 3 for k in range(len(sheets)))
                debts: dict[tuple[tuple[int, int], ...], float] = {}
                for k, cand in enumerate(candidates):
                    debt = debts.get(cand[4])
                    if debt is None:
                        debt = debts[cand[4]] = _pending(cand[4], sheets, horizon)
                    candidates[k] = (cand[7] + debt,) + cand[1:]
            width = width_at(layer[0].depth)
            chosen = heapq.nsmallest(width * 3, candidates)
            merged: dict[tuple[tuple[tuple[int, int], ...], int], _State] = {}
            played: dict[tuple[int, int], tuple[Position, int, float]] = {}
            edges: list[_Edge] = []
            for _, si, mi, _, cursors, options, prior, total in chosen:
                copy_ops = tuple(_op(o) for o in options)
                parent = layer[si]
                move = moves_of[si][mi]
                found = played.get((si, mi))
                if found is None:
                    after = parent.pos.play(move)
                    plausible = 0.0
                    if forced is None:
                        pkey = (parent.pos.key(), move, parent.last_capture)
                        found_p = plausibility.get(pkey)
                        if found_p is None:
                            found_p = plausibility[pkey] = cost(
                                "prior.move." + move_class(parent.pos, move, after, parent.last_capture))
                        plausible = found_p
                    found = played[(si, mi)] = (after, _check_level(after), plausible)
                after, level, plausible = found
                marks = sum((check_cost(op.reading.written, level) for op in copy_ops
                             if op.kind not in (OMIT, DONE) and op.reading is not None), 0.0)
                edge_cost = total - parent.cost + marks + plausible
                prior += plausible
                key = (cursors, after.key())
                child = merged.get(key)
                if child is None:
                    child = merged[key] = _State(after, cursors, parent.depth + 1, math.inf)
                edge = _Edge(parent, child, move, copy_ops, edge_cost, prior)
                edges.append(edge)
                if parent.cost + edge_cost < child.cost:
                    child.cost = parent.cost + edge_cost
                    child.best = edge
                    child.last_capture = captured_square(parent.pos, move)
            if owing:
                kept = _keep(merged.values(), width, PER_POSITION, lambda st: debts[st.cursors])
            else:
                kept = _keep(merged.values(), width, PER_POSITION if forced is None else width)
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
            if repairable:  # (the marks serve only a sheet that may be read again)
                depth = len(layers) - 1
                mark = (frozenset((s.pos.key(), s.cursors, round(s.cost, 9)) for s in kept), best_end)
                if settled is not None and depth >= settled and history.get(depth) == mark:
                    return None
                history[depth] = mark
        return min((s.cost + (s.end or 0.0) for s in ends), default=math.inf)

    found = advance(0, lambda depth: beam)
    assert found is not None
    repaired = repairable and _repair(layers, ends, history, advance, found, beam)
    lattice = _finish(layers, ends, t)
    lattice.read_again = repaired
    return lattice


#: Repair passes (see the module docstring): the plies before a box read as no move are read
#: again with a beam of :data:`REPAIR_BEAM`, from :data:`REPAIR_BEFORE` plies before it to
#: :data:`REPAIR_AFTER` after, and the sheet read on; at most :data:`REPAIRS` places a sheet.
REPAIRS = 2
REPAIR_BEAM = 256
REPAIR_BEFORE = 6
REPAIR_AFTER = 1


def _trouble(ends: list[_State], unreadable: float, after: int) -> tuple[int, int, int] | None:
    """The first place (at ply ``after`` or later, 0-based) where the best reading reads a box as
    no move written: ``(ply, first, stop)``, the plies ``first`` to ``stop - 1`` to read again
    with the wide beam; None if there is none."""
    if not ends:
        return None
    state = min(ends, key=lambda s: s.cost + (s.end or 0.0))
    path: list[_Edge] = []
    while state.best is not None:
        path.append(state.best)
        state = state.best.parent
    path.reverse()
    for ply in range(after, len(path)):
        ops = path[ply].ops
        if any(op.kind == MATCH and op.reading is None and op.cost >= unreadable - 1e-9 for op in ops):
            return ply, max(0, ply - REPAIR_BEFORE), ply + REPAIR_AFTER
    return None


def _repair(layers: list[list[_State]], ends: list[_State], history: dict[int, _Mark],
            advance: Callable[[int, Callable[[int], int], int | None], float | None], found: float, beam: int) -> bool:
    """Read again, with a wider beam, before each place where the best reading reads a box as no
    move (see :data:`REPAIRS`); keep what is cheaper. True when a cheaper reading was kept."""
    unreadable = cost("box.unreadable")
    after = 0
    kept = False
    for _ in range(REPAIRS):
        place = _trouble(ends, unreadable, after)
        if place is None:
            return kept
        ply, k, stop = place
        saved_layers = layers[k + 1:]
        saved_ends = list(ends)
        saved = [(s, s.outgoing, s.end) for s in layers[k]]
        saved_history = dict(history)
        # where the wide beam's layer comes back to the first reading's, the rest reads as before
        again = advance(k, lambda depth: REPAIR_BEAM if k <= depth < stop else beam, stop)
        if again is not None and again < found - 1e-9:
            found = again
            kept = True
        else:  # the first reading stands
            del layers[k + 1:]
            layers.extend(saved_layers)
            ends[:] = saved_ends
            for state, outgoing, end in saved:
                state.outgoing = outgoing
                state.end = end
            history.clear()
            history.update(saved_history)
        after = ply + 1
    return kept


def _tie_order(move: Move) -> tuple[int, int, int]:
    """The order in which equally likely moves are preferred: the piece from the higher square
    first (for Black, the piece nearer its home rank: the undeveloped one), then the higher
    target square, then the stronger promotion."""
    return (-move.from_square, -move.to_square, -(move.promotion or 0))


def _generate(pos: Position, cache: dict[int, tuple[list[Move], list[MoveFacts]]]
              ) -> tuple[list[Move], list[MoveFacts]]:
    """The legal moves of ``pos`` in :func:`_tie_order` and their facts (cached by position)."""
    key = pos.key()
    found = cache.get(key)
    if found is None:
        moves = sorted(pos.legal_moves(), key=_tie_order)
        found = cache[key] = (moves, move_facts(pos, moves))
    return found


def _pending(cursors: tuple[tuple[int, int], ...], sheets: list[_Copy], horizon: tuple[int, ...]) -> float:
    """The least the boxes not yet read will cost, summed over the copies (see
    :meth:`_Copy.pending`)."""
    return sum(sheet.pending(cursor, h) for cursor, sheet, h in zip(cursors, sheets, horizon))


def _keep(states: Iterable[_State], beam: int, per_position: int,
          owed: Callable[[_State], float] | None = None) -> list[_State]:
    """The cheapest ``beam`` states, at most ``per_position`` of them in one position (the
    same moves aligned with the boxes in other ways): the beam keeps other games alive rather
    than many alignments of one. With several copies, a state is ranked by what it has paid
    and what its copies still ``owed`` (:func:`_pending`): a copy that skips a box it cannot
    read looks cheaper for a ply or two, and falls out of step with the others for good."""
    kept: list[_State] = []
    count: dict[int, int] = {}
    for state in sorted(states, key=(lambda s: s.cost + owed(s)) if owed is not None else (lambda s: s.cost)):
        key = state.pos.key()
        n = count.get(key, 0)
        if n >= per_position:
            continue
        count[key] = n + 1
        kept.append(state)
        if len(kept) >= beam:
            break
    return kept


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


#: The share of boxes that are not what was meant, on the real sheets the costs were learned from
#: (87.1% are exact SAN; the HCS corpus's README).
BASE_ERROR_RATE = 0.129
#: How many boxes the sheet's own error rate is worth against :data:`BASE_ERROR_RATE` (the
#: strength of that prior), and the most the sheet's rate may move the costs of errors (nats).
RATE_PRIOR_BOXES = 10.0
MAX_RATE_SHIFT = 2.0
#: A box read at no more than this cost reads as written (a missing check mark, a style).
LITERAL_COST = 0.75


def _errors(ops: tuple[CopyOp, ...], blank: float) -> float:
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


def _rate_shift(ends: list[_State]) -> float:
    """How much more (positive) or less an error costs on this sheet than on the average real
    sheet: a writer whose boxes read as written makes fewer slips, one with many makes more. The
    sheet's rate is read off its best reading (errors among the boxes read), shrunk towards
    :data:`BASE_ERROR_RATE` by :data:`RATE_PRIOR_BOXES` boxes."""
    if not ends:
        return 0.0
    best = min(ends, key=lambda s: s.cost + (s.end or 0.0))
    blank = cost("box.blank")
    errors = 0.0
    boxes = 0
    state = best
    while state.best is not None:
        ops = state.best.ops
        errors += _errors(ops, blank)
        boxes += sum(1 for op in ops if op.kind != DONE)
        state = state.best.parent
    rate = (errors + RATE_PRIOR_BOXES * BASE_ERROR_RATE) / (boxes + RATE_PRIOR_BOXES)
    return max(-MAX_RATE_SHIFT, min(MAX_RATE_SHIFT, math.log(BASE_ERROR_RATE / rate)))


def _finish(layers: list[list[_State]], ends: list[_State], t: float) -> Lattice:
    # The probabilities are those of this writer: each error costs the sheet's rate shift more.
    shift = _rate_shift(ends)
    if shift:
        blank = cost("box.blank")
        for layer in layers:
            for state in layer:
                for e in state.incoming:
                    e.weight = e.cost + shift * _errors(e.ops, blank)
    # forward sums
    for layer in layers:
        for state in layer:
            if state.incoming:
                state.alpha = _logsum([e.parent.alpha + e.weight for e in state.incoming], t)
    # backward sums
    for layer in reversed(layers):
        for state in layer:
            values = [e.weight + e.child.beta for e in state.outgoing]
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
                    same_move += math.exp(-(e.parent.alpha + e.weight + child.beta - z) / t)
        move_probability.append(min(1.0, same_move))
        reading_probability = min(reading_probability, same_position)
    final = best_end.pos.key()
    at_end = sum(math.exp(-(s.alpha + (s.end or 0.0) - z) / t) for s in ends
                 if s.pos.key() == final and s.depth == best_end.depth)
    reading_probability = min(reading_probability, at_end, 1.0)
    return Lattice(readings, move_probability, reading_probability, sum(len(layer) for layer in layers), z,
                   layers, ends, t)


def _backtrack(end: _State) -> Found:
    moves: list[Move] = []
    ops: list[tuple[CopyOp, ...]] = []
    state = end
    total = end.cost + (end.end or 0.0)
    prior = 0.0
    weight = end.end or 0.0
    while state.best is not None:
        prior += state.best.prior
        weight += state.best.weight
        moves.append(state.best.move)
        ops.append(state.best.ops)
        state = state.best.parent
    moves.reverse()
    ops.reverse()
    return Found(moves, ops, total, (), end.pos, prior, weight)


__all__ = ["BEAM", "Box", "CopyOp", "Found", "Lattice", "read_copies"]
