"""The decoder of a scoresheet reading: a beam search over the plies of the game.

The game is read ply by ply from the start position. A state (:class:`~notation.scoresheet.lattice.State`)
is the position reached and, for each copy of the sheet, the box its reading has come to (a
*cursor*). Playing a legal move from a state, each copy either

* reads the move in its next box (the cost of the box's text for that move, from
  :mod:`notation.scoresheet.channel`; a blank ``?`` box fits every move at one cost),
* reads it in the box after next, the next being a box of no move (``edit.extra``; where that
  box names a legal move of the position as written, also the choice of that move among the
  legal ones, as for a move left out: a move written and not played is as unlikely a text as a
  move played and not written, and a box too many cannot be cheaper than the move left out that
  it otherwise is),
* has no box for it (``edit.omitted``),
* starts a transposition: the same player's next two moves written in swapped order (boxes
  ``i+2``, ``i+1``, ``i`` read in that order, ``edit.transposed``), or two neighbouring boxes
  swapped (``edit.swapped``),
* or has ended (a copy that stops before the game: nothing more to read, at no cost).

Each way is an :class:`Option` of one copy; the options of all copies for one move make a
:class:`Combo`; a combo from a state is a :class:`Candidate` for the next layer. Copies of one
game are independent witnesses: their costs add. A reading ends when every copy has been read to
its end, or when the game ends (mate or stalemate) with boxes left (each an extra box). Every box
has a finite cost for every move (the channel's floor), so the search always ends with a
complete reading.

At each ply the cheapest :data:`BEAM` states (merged when they reach the same position with the
same cursors) go on, and past that width those within :data:`BEAM_SPAN` nats of the best, up to
:data:`WIDE_BEAM`. With several copies a state is ranked by what it has paid and what its copies
still owe (:meth:`_Copy.owed`): a copy that skips a box nothing fits is cheaper for a ply or
two and then a box behind the other copies for the rest of the game.

**The widening second pass.** A beam can still drop the reading that explains the sheet: a move
the writer left out costs more, for a few plies, than misreading the boxes after it, and the
boxes then read as no move at all. Where the best reading of a sheet read alone reads a box so,
the plies before it (from before the place where the reading left the boxes' order, when that
was shortly before: a box dropped as one too many is often where a move was left out) are read
again with a wider beam and the sheet read on from there; the new reading is kept when it is
cheaper (:meth:`_Decoder.widen`). Then the stretches around the first places where the best
reading leaves its boxes' order (a move with no box, a box dropped, boxes swapped) and corrects
a box soon after are read again so: a move left out opens every legal move at one cost, more
states than the beam holds, and the one played is often told apart only by the boxes a ply or
two after it. Copies read together
keep each other in step and are not read again.

**Pins.** A reviewer may settle a ply (``pins``: the move played there, as SAN): only that move is
played at that ply, by every state whose position has it.

The probabilities come from the lattice kept (:mod:`notation.scoresheet.sums`).
"""

from __future__ import annotations

import contextlib
import gc
import math
from typing import TYPE_CHECKING, NamedTuple

from notation._core import ComboCosts, select_layer
from notation.scoresheet.book import BLANK_BOOK_POWER, book_prior
from notation.scoresheet.calibration import WRITTEN as LITERAL_COST
from notation.scoresheet.channel import (
    BoxReading,
    MoveFacts,
    PositionMoves,
    box_cost,
    box_readings,
    check_cost,
    core_board,
    cost,
    position_moves,
    sheet_style,
)
from notation.scoresheet.lattice import (
    DONE,
    EXTRA_MATCH,
    MATCH,
    OMIT,
    SWAP,
    TRANSPOSE,
    Box,
    CopyOp,
    Edge,
    Lattice,
    State,
)
from notation.scoresheet.plausibility import move_class
from notation.scoresheet.sums import posterior

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable, Iterable, Iterator

    from notation.formats.position import Position
    from notation.rules.move import Move

#: States kept per ply.
BEAM = 64
#: Past the beam's width, states within this many nats of the best are kept too, up to
#: :data:`WIDE_BEAM` (a run of blank or unreadable boxes leaves many readings about as cheap).
BEAM_SPAN = 3.0
WIDE_BEAM = 256
#: Per copy, options of a move kept when within this many nats of that copy's best for it.
OPTION_SPAN = 9.0
#: The ways the copies take one move, kept at most (the cheapest).
COMBOS = 12
#: At most this many states of the beam in one position (see :func:`_keep`).
PER_POSITION = 3
#: A reading has at most this many plies more than its longest copy has boxes.
MAX_OMITTED = 12
#: The reading stops where its best state has read this many boxes in a row at :data:`BREAK_COST`
#: or more each (none as written): the sheet breaks there, and the boxes after it are reported.
BREAK_RUN = 16
BREAK_COST = 4.5
#: The widening second pass: the plies before a box read as no move are read again with a beam of
#: :data:`WIDE_PASS_BEAM`, from :data:`WIDE_PASS_BEFORE` plies before it to :data:`WIDE_PASS_AFTER`
#: after, and the sheet read on; at most :data:`WIDE_PASSES` places a sheet. Where the reading
#: left its boxes' order shortly before (a box dropped as extra, a move with no box, boxes
#: swapped: in the :data:`WIDE_PASS_LOOK` plies before), the pass starts
#: :data:`WIDE_PASS_BEFORE_EDIT` plies before the first such ply instead if that is earlier: a move
#: left out is often read first as a box too many, the boxes after it then as no move.
WIDE_PASSES = 2
WIDE_PASS_BEAM = 256
WIDE_PASS_BEFORE = 6
WIDE_PASS_AFTER = 1
WIDE_PASS_LOOK = 12
WIDE_PASS_BEFORE_EDIT = 2
#: Then, at most :data:`WIDE_EDIT_PASSES` places a sheet where the best reading leaves its boxes'
#: order (a move with no box, a box dropped, boxes swapped) and corrects a box (:data:`BREAK_COST`
#: or more) in the :data:`WIDE_EDIT_AFTER` - 1 plies after are read again so, from
#: :data:`WIDE_EDIT_BEFORE` plies before to :data:`WIDE_EDIT_AFTER` after: a move left out opens
#: every legal move at the same cost, more states than the beam holds, and the one played is often
#: known only a ply or two later, by the boxes after it (a reading that kept another then pays
#: for them). Where the boxes after the edit read as written, nothing is read again (the CPU of
#: a pass at every edit: a sixth more on the HCS sheets read alone, for the same readings).
WIDE_EDIT_PASSES = 2
WIDE_EDIT_BEFORE = 2
WIDE_EDIT_AFTER = 3
#: What the decoder caches to read a layer is dropped this many plies behind the layer read: each
#: position's moves and facts and the core's boards always (a widening pass that reads an earlier
#: stretch again makes them again, in the core: cheap); the copies' ways to take each move and the
#: boxes' costs (Python's work, a third more of it in a widening pass made again) where no
#: widening pass may come (copies read together, a known game). A reading so holds a few layers'
#: positions, not the whole sheet's (2.5 MB a move of a damaged sheet read alone before, about half
#: now; a fifth with several copies).
CACHE_PLIES = 2


class Option(NamedTuple):
    """One way a copy takes a move: its cost, the copy's cursor after it, the kind (a constant of
    :mod:`notation.scoresheet.lattice`), the box read and the box dropped (None: none), and the
    reading of the box's text that gave the cost (None: blank, or read as any move)."""

    cost: float
    cursor: tuple[int, int]
    kind: str
    box: int | None
    dropped: int | None
    reading: BoxReading | None

    def op(self) -> CopyOp:
        return CopyOp(self.kind, self.box, self.dropped, self.cost, self.reading)


class Combo(NamedTuple):
    """One way all the copies take a move: the cost, their cursors after it, each copy's option,
    and whether no copy wrote it (``unwritten``: 0 some copy did, 1 none did, 2 every copy has
    ended)."""

    cost: float
    cursors: tuple[tuple[int, int], ...]
    options: tuple[Option, ...]
    unwritten: int


class Candidate(NamedTuple):
    """A move from a state of the layer, taken by the copies one way: ranked by ``rank`` (the
    cost so far, plus what the copies still owe when there are several), then by the order the
    candidates were made (ties resolve the same way every run)."""

    rank: float
    state: int  # index in the layer
    move: int  # index in that state's moves
    order: int
    combo: Combo
    prior: float  # the opening prior of the move (part of ``total``)
    total: float  # the cost of the state reached this way, before the move's plausibility and marks


class _Copy:
    """One copy's boxes as the decoder reads them: each box's readings, the cost of each box for
    each move (cached), the options at each cursor, and the least each unread box will cost."""

    def __init__(self, boxes: list[Box], lang: str) -> None:
        self.boxes = boxes
        self.n = len(boxes)
        self.readings = [() if b.blank else box_readings(b.text, lang) for b in boxes]
        self.style = sheet_style(self.readings)
        self.cache: dict[tuple[int, MoveFacts], tuple[float, BoxReading | None]] = {}
        self.option_cache: dict[tuple[tuple[int, int], MoveFacts], list[Option]] = {}
        # the keys of both caches by the box they start at (see :meth:`forget`)
        self.costs_at: dict[int, list[MoveFacts]] = {}
        self.options_at: dict[int, list[tuple[tuple[int, int], MoveFacts]]] = {}
        # The least each box can cost: its cheapest reading's edit, or dropped as an extra box,
        # raised by ``above`` once the box has been read as the move of its own ply (it costs
        # about what it cost for the moves of that ply).
        unreadable, blank = cost("box.unreadable"), cost("box.blank")
        self.extra = cost("edit.extra")
        self.omitted = cost("edit.omitted")
        self.swapped = cost("edit.swapped")
        self.transposed = cost("edit.transposed")
        self.blank = blank
        self.least = [
            min(self.extra, blank if b.blank else min((r.edit for r in rs), default=unreadable))
            for b, rs in zip(boxes, self.readings)
        ]
        self.above = [math.inf] * self.n

    def owed(self, box: int) -> float:
        """The least box ``box`` will cost. What a copy at a cursor still owes is what the boxes
        before the layer's horizon (3 past the furthest cursor of its candidates) that it has not
        read will cost at least (the boxes from there on are owed alike by every state
        compared): summed by the core (``select_layer``)."""
        return self.least[box] + (0.0 if self.above[box] == math.inf else self.above[box])

    def emit(self, i: int, f: MoveFacts) -> tuple[float, BoxReading | None]:
        """The cost of box ``i`` for the move of ``f``, and the reading of its text that gives it."""
        key = (i, f)
        found = self.cache.get(key)
        if found is None:
            found = (self.blank, None) if self.boxes[i].blank else box_cost(self.readings[i], f, self.style)
            self.cache[key] = found
            self.costs_at.setdefault(i, []).append(f)
        return found

    def options(self, cursor: tuple[int, int], f: MoveFacts) -> list[Option]:
        """What this copy may do when ``f``'s move is played at ``cursor`` (cached)."""
        key = (cursor, f)
        found = self.option_cache.get(key)
        if found is None:
            found = self.option_cache[key] = self._options(cursor, f)
            self.options_at.setdefault(cursor[0], []).append(key)
        return found

    def forget(self, before: int) -> None:
        """Drop what is cached of the boxes before ``before`` (no reading from the layer read on
        comes back to them; a pass that reads again from further back makes them again)."""
        for i in [i for i in self.costs_at if i < before]:
            for f in self.costs_at.pop(i):
                self.cache.pop((i, f), None)
        for i in [i for i in self.options_at if i < before]:
            for key in self.options_at.pop(i):
                self.option_cache.pop(key, None)

    def names_move(self, cursor: tuple[int, int], facts: list[MoveFacts]) -> bool:
        """True when the box at ``cursor`` (read next) names one of the moves ``facts`` as written
        (at :data:`~notation.scoresheet.calibration.WRITTEN` or less)."""
        i, phase = cursor
        if phase != 0 or i + 1 >= self.n or self.boxes[i].blank:
            return False
        return any(self.emit(i, f)[0] <= LITERAL_COST for f in facts)

    def _options(self, cursor: tuple[int, int], f: MoveFacts) -> list[Option]:
        i, phase = cursor
        if phase == 1:  # transposition: box i+2 was read, now i+1
            c, r = self.emit(i + 1, f)
            return [Option(c, (i, 2), TRANSPOSE, i + 1, None, r)]
        if phase == 2:  # ... and now box i
            c, r = self.emit(i, f)
            return [Option(c, (i + 3, 0), TRANSPOSE, i, None, r)]
        if phase == 3:  # neighbours swapped: box i+1 was read, now box i
            c, r = self.emit(i, f)
            return [Option(c, (i + 2, 0), SWAP, i, None, r)]
        if i >= self.n:
            return [Option(0.0, cursor, DONE, None, None, None)]
        c, r = self.emit(i, f)
        above = min(c, self.extra) - self.least[i]
        if above < self.above[i]:  # box i read for a move of its own ply
            self.above[i] = above
        out = [Option(c, (i + 1, 0), MATCH, i, None, r), Option(self.omitted, cursor, OMIT, None, None, None)]
        if i + 1 < self.n:
            c, r = self.emit(i + 1, f)
            out.append(Option(c + self.extra, (i + 2, 0), EXTRA_MATCH, i + 1, i, r))
            out.append(Option(c + self.swapped, (i, 3), SWAP, i + 1, None, r))
        if i + 2 < self.n:
            c, r = self.emit(i + 2, f)
            out.append(Option(c + self.transposed, (i, 1), TRANSPOSE, i + 2, None, r))
        best = min(o.cost for o in out)
        return [o for o in out if o.cost <= best + OPTION_SPAN]


def _combo_costs(combos: list[Combo]) -> ComboCosts:
    """``combos`` as the core ranks them: each one's cost, whether no copy wrote the move, whether
    no copy's box says anything of it (the blank opening prior), and the cursors after it."""
    return ComboCosts([(c.cost, c.unwritten, all(o.reading is None for o in c.options), c.cursors) for c in combos])


def _unwritten(options: tuple[Option, ...]) -> int:
    if all(o.kind in (OMIT, DONE) for o in options):
        return 2 if all(o.kind == DONE for o in options) else 1
    return 0


def _combine(per_copy: list[list[Option]]) -> list[Combo]:
    """The ways the copies take one move: each copy's options combined, the cheapest :data:`COMBOS`."""
    if len(per_copy) == 1:
        return [Combo(o.cost, (o.cursor,), (o,), _unwritten((o,))) for o in per_copy[0]]
    partial: list[tuple[float, tuple[tuple[int, int], ...], tuple[Option, ...]]] = [(0.0, (), ())]
    for options in per_copy:
        partial = [(c + o.cost, cur + (o.cursor,), ops + (o,)) for c, cur, ops in partial for o in options]
        if len(partial) > COMBOS:
            partial.sort(key=lambda item: item[0])
            del partial[COMBOS:]
    return [Combo(c, cur, ops, _unwritten(ops)) for c, cur, ops in partial]


def pin_matches(pos: Position, move: Move, pin: str) -> bool:
    """True when ``pin`` (SAN as a reviewer types it) names ``move`` in ``pos``."""
    try:
        return pos.parse_san(pin) == move
    except ValueError:
        return False


#: The key of the combos of a move from a state: the copies' cursors and the move's facts, and
#: where a copy drops its next box in one of them, what that costs each copy beyond the edit (see
#: :meth:`_Copy.names_move`).
_ComboKey = (
    tuple[tuple[tuple[int, int], ...], "MoveFacts"] | tuple[tuple[tuple[int, int], ...], "MoveFacts", tuple[float, ...]]
)


class _Decoder:
    """One reading of the copies: the layers of kept states, the ends found, and how to read on
    from a layer (:meth:`read_on`) and read a stretch again wider (:meth:`widen`)."""

    def __init__(
        self,
        copies: list[list[Box]],
        start: Position,
        lang: str,
        forced: list[Move] | None,
        only: list[Move] | None,
        pins: dict[int, str],
    ) -> None:
        self.sheets = [_Copy(boxes, lang) for boxes in copies]
        self.forced = forced
        self.only = only
        self.pins = pins
        self.layers: list[list[State]] = [[State(start, tuple((0, 0) for _ in self.sheets), 0, 0.0)]]
        self.ends: list[State] = []
        self.longest = max((s.n for s in self.sheets), default=0)
        self.best_end = math.inf
        self.generated: dict[int, PositionMoves] = {}
        # the core's position of each position reached, made when a state first reaches it
        self.boards = {start.key(): core_board(start)}
        self.pinned: dict[tuple[int, int], list[Move]] = {}
        self.combined: dict[_ComboKey, tuple[list[Combo], ComboCosts, bool]] = {}
        # the keys of those caches by the depth of the layer that made them (see :meth:`forget`)
        self.depth = 0
        self.made: dict[int, tuple[list[int], list[_ComboKey]]] = {}
        # per depth, the states kept (position, cursors, cost) and the cheapest end found so far:
        # a layer the same as the last pass's at its depth reads on as before
        self.history: dict[int, tuple[frozenset[tuple[int, tuple[tuple[int, int], ...], float]], float]] = {}
        self.may_widen = forced is None and only is None and len(self.sheets) == 1
        self.several = forced is None and len(self.sheets) > 1

    # -- the moves of a state -------------------------------------------------------------------

    def generate(self, pos: Position) -> PositionMoves:
        """The legal moves of ``pos`` in the tie order (for Black, the piece nearer its home rank,
        the undeveloped one, first), their facts and what they give (cached by position; see
        :class:`~notation.scoresheet.channel.PositionMoves`)."""
        key = pos.key()
        found = self.generated.get(key)
        if found is None:
            board = self.boards.pop(key, None)  # (kept with the moves)
            found = self.generated[key] = position_moves(board if board is not None else core_board(pos))
            self._made(key)
        return found

    def moves_of(self, state: State) -> list[Move]:
        """The moves the reading may play from ``state``."""
        if self.forced is not None:
            return self.forced[state.depth : state.depth + 1]
        if self.only is not None and state.depth >= len(self.only):
            return []
        if state.depth >= self.longest + MAX_OMITTED:
            return []
        moves = self.generate(state.pos).moves
        pin = self.pins.get(state.depth)
        if pin is not None:
            key = (state.pos.key(), state.depth)
            found = self.pinned.get(key)
            if found is None:
                found = self.pinned[key] = [m for m in moves if pin_matches(state.pos, m, pin)]
            return found
        return moves

    # -- one layer ------------------------------------------------------------------------------

    def expand(
        self, layer: list[State], moves_of: list[list[Move]], width: int
    ) -> tuple[list[Candidate], dict[tuple[tuple[int, int], ...], float] | None]:
        """The candidates from ``layer`` that may make the next layer (its ends recorded on the
        way), best first, and with several copies what the copies of each owe, by cursors.

        Every move of every state, taken by the copies every way its combos say, is a candidate,
        ranked by its cost (with several copies, plus what its copies still owe: see
        :meth:`_Copy.owed`); the cheapest ``3 * width`` go on, and past them those within twice
        :data:`BEAM_SPAN` of the best (before the plausibility of the moves), up to ``3 *``
        :data:`WIDE_BEAM`. The core ranks and chooses them (``select_layer``)."""
        sheets = self.sheets
        rows: list[tuple[int, float, float, list[ComboCosts | None], list[float] | None, list[float] | None]] = []
        combos_of: dict[int, list[list[Combo] | None]] = {}
        for si, state in enumerate(layer):
            moves = moves_of[si]
            finished = all(c[0] >= s.n and c[1] == 0 for c, s in zip(state.cursors, sheets))
            if finished or not moves:
                left = sum(max(0, s.n - c[0]) for c, s in zip(state.cursors, sheets))
                state.end = left * sheets[0].extra if sheets else 0.0
                self.ends.append(state)
                self.best_end = min(self.best_end, state.total)
                continue
            if state.cost > self.best_end + 2 * OPTION_SPAN:
                continue
            legal, facts, _, _ = self.generate(state.pos)
            choice = math.log(max(1, len(legal)))
            every = facts
            named: tuple[float, ...] | None = None
            if moves is not legal:
                facts = [facts[legal.index(m)] for m in moves]
            book = blind = None
            if self.forced is None:
                book = book_prior(state.pos, moves, state.depth)
                if book is not None:
                    blind = book_prior(state.pos, moves, state.depth, BLANK_BOOK_POWER)
            only = self.only[state.depth] if self.only is not None else None
            tables: list[ComboCosts | None] = []
            lists: list[list[Combo] | None] = []
            for mi, f in enumerate(facts):
                if only is not None and moves[mi] != only:
                    tables.append(None)
                    lists.append(None)
                    continue
                found = self.combined.get((state.cursors, f))
                if found is None:
                    combos = _combine([s.options(c, f) for c, s in zip(state.cursors, sheets)])
                    dropped = any(o.kind == EXTRA_MATCH for c in combos for o in c.options)
                    found = self.combined[(state.cursors, f)] = (combos, _combo_costs(combos), dropped)
                    self._made(None, (state.cursors, f))
                if found[2]:
                    # a box dropped as one too many that names a legal move here costs, beyond the
                    # edit, the choice of that move among the legal ones, as a move left out does
                    # (see the module docstring; to a quarter of a nat: states in positions with
                    # about as many moves share the combos)
                    if named is None:
                        charge = round(choice * 4.0) / 4.0
                        named = tuple(charge if s.names_move(c, every) else 0.0 for c, s in zip(state.cursors, sheets))
                    if any(named):
                        found = self._charged(state.cursors, f, named, found[0])
                lists.append(found[0])
                tables.append(found[1])
            rows.append((si, state.cost, choice, tables, book, blind))
            combos_of[si] = lists
        if not rows:
            return [], None
        owed = [[s.owed(j) for j in range(s.n)] for s in sheets] if self.several else None
        wide = max(width, WIDE_BEAM) if self.forced is None else width
        chosen: list[Candidate] = []
        debts: dict[tuple[tuple[int, int], ...], float] = {}
        for si, mi, ci, order, rank, prior, total, debt in select_layer(rows, owed, width, wide, BEAM_SPAN):
            ways = combos_of[si][mi]
            assert ways is not None
            cand = Candidate(rank, si, mi, order, ways[ci], prior, total)
            chosen.append(cand)
            debts[cand.combo.cursors] = debt
        return chosen, debts if self.several else None

    def _charged(
        self, cursors: tuple[tuple[int, int], ...], f: MoveFacts, named: tuple[float, ...], combos: list[Combo]
    ) -> tuple[list[Combo], ComboCosts, bool]:
        """``combos`` with each copy that drops its next box charged ``named`` for it (cached)."""
        key = (cursors, f, named)
        found = self.combined.get(key)
        if found is None:
            charged = [
                c._replace(cost=c.cost + sum(d for o, d in zip(c.options, named) if o.kind == EXTRA_MATCH))
                for c in combos
            ]
            found = self.combined[key] = (charged, _combo_costs(charged), True)
            self._made(None, key)
        return found

    def merge(
        self, layer: list[State], moves_of: list[list[Move]], chosen: list[Candidate]
    ) -> tuple[dict[tuple[tuple[tuple[int, int], ...], int], State], list[Edge]]:
        """The states the chosen candidates reach (merged by cursors and position) and their edges:
        each edge's cost adds the move's plausibility and the written check marks."""
        merged: dict[tuple[tuple[tuple[int, int], ...], int], State] = {}
        played: dict[tuple[int, int], tuple[Position, int, float, int | None]] = {}
        edges: list[Edge] = []
        for cand in chosen:
            ops = tuple(o.op() for o in cand.combo.options)
            parent = layer[cand.state]
            move = moves_of[cand.state][cand.move]
            found = played.get((cand.state, cand.move))
            if found is None:
                after = parent.pos.play(move)
                known = self.generate(parent.pos)
                index = cand.move if moves_of[cand.state] is known.moves else known.moves.index(move)
                gives = known.gives[index]
                reached = after.key()
                if reached not in self.boards and reached not in self.generated:
                    self.boards[reached] = known.board.play(*move)
                    self._made(reached)
                found = played[(cand.state, cand.move)] = (after, gives[0], self.plausible(parent, gives), gives[1])
            after, level, plausible, captured = found
            marks = sum(
                (
                    check_cost(op.reading.written, level, copy.style)
                    for op, copy in zip(ops, self.sheets)
                    if op.kind not in (OMIT, DONE) and op.reading is not None
                ),
                0.0,
            )
            edge_cost = cand.total - parent.cost + marks + plausible
            key = (cand.combo.cursors, after.key())
            child = merged.get(key)
            if child is None:
                child = merged[key] = State(after, cand.combo.cursors, parent.depth + 1, math.inf)
            edge = Edge(parent, child, move, ops, edge_cost, cand.prior + plausible)
            edges.append(edge)
            if parent.cost + edge_cost < child.cost:
                child.cost = parent.cost + edge_cost
                child.best = edge
                child.last_capture = captured
        return merged, edges

    def plausible(self, parent: State, gives: tuple[int, int | None, bool]) -> float:
        """The prior of the class of a move from ``parent`` that gives ``gives``
        (:mod:`notation.scoresheet.plausibility`); none when the game is forced."""
        if self.forced is not None:
            return 0.0
        return cost("prior.move." + move_class(gives, parent.last_capture))

    def _made(self, position: int | None, combo: _ComboKey | None = None) -> None:
        positions, combos = self.made.setdefault(self.depth, ([], []))
        if position is not None:
            positions.append(position)
        if combo is not None:
            combos.append(combo)

    def forget(self, depth: int) -> None:
        """Drop what the layer at ``depth`` cached (:data:`CACHE_PLIES`): the moves and boards of
        its positions, and where no widening pass may come, the combos of its states' cursors and
        the copies' costs of the boxes no state at the next depth has yet to read."""
        positions, combos = self.made.pop(depth, ([], []))
        for key in positions:
            self.generated.pop(key, None)
            self.boards.pop(key, None)
        if not self.may_widen:
            for combo in combos:
                self.combined.pop(combo, None)
            if depth + 1 < len(self.layers) and self.layers[depth + 1]:
                for c, sheet in enumerate(self.sheets):
                    sheet.forget(min(state.cursors[c][0] for state in self.layers[depth + 1]))

    # -- reading on -----------------------------------------------------------------------------

    def read_on(self, k: int, width_at: Callable[[int], int], settled: int | None = None) -> float | None:
        """Read on from ``layers[k]``, dropping what was read after it; the cheapest end's cost.
        From depth ``settled`` on, a layer the same as the last pass's at its depth (the same
        states at the same costs, the same cheapest end so far) reads on as before: None then."""
        layers = self.layers
        del layers[k + 1 :]
        self.ends[:] = [s for s in self.ends if s.depth < k]
        self.best_end = min((s.total for s in self.ends), default=math.inf)
        layer = layers[k]
        for state in layer:
            state.outgoing = []
            state.end = None
        while layer:
            self.depth = layer[0].depth
            moves_of = [self.moves_of(state) for state in layer]
            width = width_at(layer[0].depth)
            chosen, debts = self.expand(layer, moves_of, width)
            if not chosen:
                break
            merged, edges = self.merge(layer, moves_of, chosen)
            wide = max(width, WIDE_BEAM) if self.forced is None else width
            if debts is not None:
                kept = _keep(merged.values(), width, PER_POSITION, wide, debts_of(debts))
            else:
                kept = _keep(merged.values(), width, PER_POSITION if self.forced is None else width, wide)
            alive = {id(s) for s in kept}
            _link(edges, alive)
            for state in merged.values():
                if id(state) not in alive:
                    state.best = None  # (no cycle left for the collector: freed with its edges)
            layers.append(kept)
            if self.depth >= CACHE_PLIES:
                self.forget(self.depth - CACHE_PLIES)
            if kept and self.forced is None and _broken(kept[0]):
                for state in kept:  # the sheet breaks here: the readings end, the boxes left reported
                    state.end = 0.0
                    self.ends.append(state)
                break
            layer = kept
            if self.may_widen:  # (the marks serve only a sheet that may be read again)
                depth = len(layers) - 1
                mark = (frozenset((s.pos.key(), s.cursors, round(s.cost, 9)) for s in kept), self.best_end)
                if settled is not None and depth >= settled and self.history.get(depth) == mark:
                    return None
                self.history[depth] = mark
        return min((s.total for s in self.ends), default=math.inf)

    # -- the widening second pass ---------------------------------------------------------------

    def trouble(self, after: int, edits: bool = False) -> tuple[int, int, int] | None:
        """The first place (at ply ``after`` or later, 0-based) where the best reading reads a box
        as no move written (``edits``: leaves the boxes' order instead: a move with no box, a box
        dropped, boxes swapped, and corrects a box soon after: see :data:`WIDE_EDIT_PASSES`):
        ``(ply, first, stop)``, the plies ``first`` to ``stop - 1`` to read again wider; None if
        there is none."""
        if not self.ends:
            return None
        unreadable = cost("box.unreadable")
        path = min(self.ends, key=lambda s: s.total).path()
        for ply in range(after, len(path)):
            if edits:
                if any(op.kind in (EXTRA_MATCH, OMIT, SWAP, TRANSPOSE) for op in path[ply].ops) and any(
                    op.kind == MATCH and op.cost >= BREAK_COST
                    for edge in path[ply + 1 : ply + WIDE_EDIT_AFTER]
                    for op in edge.ops
                ):
                    return ply, max(0, ply - WIDE_EDIT_BEFORE), ply + WIDE_EDIT_AFTER
                continue
            if any(op.kind == MATCH and op.reading is None and op.cost >= unreadable - 1e-9 for op in path[ply].ops):
                first = ply - WIDE_PASS_BEFORE
                for before in range(max(0, ply - WIDE_PASS_LOOK), ply):
                    if any(op.kind in (EXTRA_MATCH, OMIT, SWAP, TRANSPOSE) for op in path[before].ops):
                        first = min(first, before - WIDE_PASS_BEFORE_EDIT)
                        break
                return ply, max(0, first), ply + WIDE_PASS_AFTER
        return None

    def widen(self, found: float, beam: int) -> bool:
        """Read again, with a wider beam, before each place where the best reading reads a box as
        no move (see :data:`WIDE_PASSES`), then around each place where it leaves the boxes' order
        (:data:`WIDE_EDIT_PASSES`); keep what is cheaper. True when a cheaper reading was kept."""
        kept = False
        for edits, passes in ((False, WIDE_PASSES), (True, WIDE_EDIT_PASSES)):
            after = 0
            for _ in range(passes):
                place = self.trouble(after, edits)
                if place is None:
                    break
                ply, k, stop = place
                saved_layers = self.layers[k + 1 :]
                saved_ends = list(self.ends)
                saved = [(s, s.outgoing, s.end) for s in self.layers[k]]
                saved_history = dict(self.history)
                # where the wide layer comes back to the first pass's, the rest reads as before
                again = self.read_on(k, _widths(k, stop, beam), stop)
                if again is not None and again < found - 1e-9:
                    found = again
                    kept = True
                else:  # the first pass stands
                    del self.layers[k + 1 :]
                    self.layers.extend(saved_layers)
                    self.ends[:] = saved_ends
                    for state, outgoing, end in saved:
                        state.outgoing = outgoing
                        state.end = end
                    self.history.clear()
                    self.history.update(saved_history)
                after = stop if edits else ply + 1
        return kept


def read_copies(
    copies: list[list[Box]],
    start: Position,
    lang: str = "en",
    beam: int = BEAM,
    forced: list[Move] | None = None,
    only: list[Move] | None = None,
    pins: dict[int, str] | None = None,
) -> Lattice:
    """Read the copies of one game's sheet (see the module docstring). ``forced``: the game is
    known (only its moves are played: the alignment of the boxes with it, for learning).
    ``only``: read as usual, every cost and prior alike, but play only these moves (what the
    reading of that game costs under the model: for diagnosing a reading). ``pins``: by ply
    (0-based), the move a reviewer says was played there (SAN). The cyclic garbage collector is
    paused meanwhile (:func:`collector_paused`)."""
    with collector_paused():
        decoder = _Decoder(copies, start, lang, forced, only, dict(pins or {}))
        found = decoder.read_on(0, lambda depth: beam)
        assert found is not None
        widened = decoder.may_widen and decoder.widen(found, beam)
        lattice = posterior(decoder.layers, decoder.ends, cost("temperature"), frozenset(decoder.pins))
        lattice.read_again = widened
        _unlink(decoder.layers)
        return lattice


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


def _keep(
    states: Iterable[State], beam: int, per_position: int, wide: int = 0, owed: Callable[[State], float] | None = None
) -> list[State]:
    """The cheapest ``beam`` states, at most ``per_position`` of them in one position (the
    same moves aligned with the boxes in other ways), and past ``beam`` those within
    :data:`BEAM_SPAN` of the cheapest, up to ``wide``: the beam keeps other games alive rather
    than many alignments of one. With several copies, a state is ranked by what it has paid and
    what its copies still ``owed``: a copy that skips a box it cannot read looks cheaper for a ply
    or two, and falls out of step with the others for good."""
    kept: list[State] = []
    count: dict[int, int] = {}
    ranked = sorted(
        ((s.cost + (owed(s) if owed is not None else 0.0), k, s) for k, s in enumerate(states)),
        key=lambda item: (item[0], item[1]),
    )
    least = ranked[0][0] if ranked else math.inf
    for rank, _, state in ranked:
        if len(kept) >= beam and (len(kept) >= wide or rank > least + BEAM_SPAN):
            break
        key = state.pos.key()
        n = count.get(key, 0)
        if n >= per_position:
            continue
        count[key] = n + 1
        kept.append(state)
    return kept


def _widths(first: int, stop: int, beam: int) -> Callable[[int], int]:
    """The beam's width by depth in a widening pass: :data:`WIDE_PASS_BEAM` from ``first`` to
    ``stop - 1``, ``beam`` elsewhere."""
    return lambda depth: WIDE_PASS_BEAM if first <= depth < stop else beam


def debts_of(debts: dict[tuple[tuple[int, int], ...], float]) -> Callable[[State], float]:
    """What a state's copies still owe, from the debts by cursors."""
    return lambda state: debts[state.cursors]


def _link(edges: list[Edge], alive: set[int]) -> None:
    for edge in edges:
        if id(edge.child) in alive:
            edge.child.incoming.append(edge)
            edge.parent.outgoing.append(edge)


def _unlink(layers: list[list[State]]) -> None:
    """The links between states and edges cut once the sums are done: the lattice is then freed
    by reference counting as soon as it is dropped, with no pass of the cyclic collector over
    its (many) states and edges."""
    for layer in layers:
        for state in layer:
            state.best = None
            state.incoming = []
            state.outgoing = []


def _broken(state: State) -> bool:
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


__all__ = ["BEAM", "Candidate", "Combo", "Option", "collector_paused", "pin_matches", "read_copies"]
