"""The best-first repair search over whole-sheet readings: states, tuning constants, search.

The search itself is :class:`_Search`; :func:`_best_partial` gives the longest legal reading it
reached, for a sheet that no reading gets through.

The search (uniform-cost, i.e. best-first on the total edit cost) works on states ``(cell
index, position)``. From a state it may

* play a legal move for the cell, at the cost of the edits that turn what was written into
  that move (:func:`notation.scoresheet.costs.move_cost`: 0 for an exact reading; a wrong piece
  letter, a target square a file or rank off, from/to swapped, a wrong origin/disambiguation, a
  superfluous capture mark or promotion, ... each cost something), plus the evidence of the
  written marks (:func:`notation.scoresheet.costs.mark_cost`,
  :func:`notation.scoresheet.costs.origin_mark_cost`);
* insert a move the sheet omitted (``OMITTED``), drop a cell (``EXTRA``), or replay two
  cells in swapped order (``TRANSPOSED``, the same player's consecutive moves; a pair of
  adjacent cells written in the wrong column costs a little more, ``WRONG_COLUMN``).

Zero-cost successors are pushed at once; the costly edits of a state are *deferred* (each kind
at its own cost, candidate moves one cost level at a time), and opened only near a cell where
the sheet stopped resolving (a window of :data:`WINDOW` cells before the failure, widened when
nothing is found). A wrong early guess is therefore abandoned as soon as the later cells stop
resolving, and a clean sheet costs one pass. A legal but wrong move may stay playable for many
moves before the sheet stops resolving: when the literal reading first fails, every earlier
cell is also opened to *far* branches, a single misreading (or a swapped pair) replayed exactly
from there on; such a branch joins the ordinary search once it reaches the failure, and is
dropped if it stops resolving before (it would need a second correction where the sheet reads
well). States the beam dropped are taken back (with a wider beam) when the search runs dry.

An omitted move or an extra cell is tried only where a cell stops reading within
:data:`OMISSION_LOOKAHEAD` cells (:data:`RIVAL_OMISSION_LOOKAHEAD` once a reading is found), and an inserted move must be followed by a cell that reads
exactly. At most :data:`MAIN_BEAM` states per cell are expanded (a beam).

After the best interpretation is found the search continues up to :data:`CONFIDENCE_GAP` above
its cost, now also opening the cells up to :data:`RIVAL_WINDOW` before each correction (an
earlier legal-but-wrong move can explain a later failure as well), every earlier cell to far
branches, and the states the main beam dropped, with a narrower beam
(:data:`BEAM`); when a cheaper reading turns up it becomes the best and its cells are opened
in turn. The cheapest *different* games found (rivals, up to :data:`MAX_RIVALS`, and up to
:data:`RIVALS_PER_STATE` other arrivals at each state of the best reading) go to the
report (:mod:`notation.scoresheet.reconstruct`), which sets the confidence of each correction
from them.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from itertools import count
from typing import TYPE_CHECKING, Any

from notation.scoresheet.costs import (
    EXTRA,
    MIN_EDIT,
    OMITTED,
    TRANSPOSED,
    WRONG_COLUMN,
    _evidence,
    candidate_costs,
    exact_moves,
)

if TYPE_CHECKING:  # pragma: no cover
    from notation.rules.move import Move
    from notation.formats.position import Position
    from notation.scoresheet.layout import Cell
    from notation.scoresheet.tokens import Written

#: Default cap on the total edit cost of a reconstruction.
MAX_COST = 12.0
#: Costly edits are tried only within this many cells before a cell that did not resolve.
WINDOW = 4
#: After a correction, rival readings are sought this many cells before it.
RIVAL_WINDOW = 20
#: How far above the best cost the search looks for a rival reading; a correction whose nearest
#: rival costs this much more (or has none) has confidence 1.
CONFIDENCE_GAP = 1.5
#: Rival readings collected after the best one (shown to the human when needed).
MAX_RIVALS = 6
#: An omitted move (or an extra cell) is tried only where a cell fails within this many cells.
OMISSION_LOOKAHEAD = 3
#: ... and, once a reading is found, within this many cells (the rival search: an omission
#: several cells before the one that shows it, ``13... dxe4`` left out of ``dxe4 Nxe4 Nxe4
#: dxe4``, reads as an omission of the later ``dxe4`` as cheaply).
RIVAL_OMISSION_LOOKAHEAD = 8
#: Other arrivals kept per state (rival readings that join the best one there: several omitted
#: moves that the same piece's later move makes equivalent, for instance).
RIVALS_PER_STATE = 8
#: Beam width of the rival search: at most this many states are expanded per cell.
BEAM = 40
#: Beam width of the main search (states expanded per cell before the first reading is found).
MAIN_BEAM = 48
#: Node budget of one search (a bound on time for hopeless sheets).
MAX_EXPANSIONS = 60000


# --- the search ---------------------------------------------------------------------------------


@dataclass(slots=True)
class _Step:
    """A node of the search tree: how a state was reached from its parent."""

    parent: _Step | None
    index: int  # cells consumed after this step
    pos: Position
    cost: float
    op: str  # "start", "move", "omitted", "extra", "transposed", "skip"
    moves: tuple[Move, ...] = ()
    cells: tuple[int, ...] = ()  # cell index of each move (-1: inserted)
    edit: float = 0.0
    plies: int = 0  # plies played so far
    far: bool = False  # on a rival branch that left the best reading before the rival window


def _path(step: _Step | None) -> list[_Step]:
    out: list[_Step] = []
    while step is not None:
        out.append(step)
        step = step.parent
    out.reverse()
    return out


def _moves_of(path: list[_Step]) -> list[Move]:
    return [m for s in path for m in s.moves]



_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _blockers(pos: Position, target: int) -> set[int]:
    """The side to move's pieces that are the first piece on a line from ``target``.

    Moving one of them away may open a line to ``target`` (the only way, besides moving to or
    from ``target`` itself, in which an omitted move changes how the next cell reads).
    """
    out: set[int] = set()
    tf, tr = target % 8, target // 8
    for df, dr in _DIRECTIONS:
        f, r = tf + df, tr + dr
        while 0 <= f < 8 and 0 <= r < 8:
            sq = r * 8 + f
            piece = pos.piece_at(sq)
            if piece is not None:
                if piece[0] == pos.turn:
                    out.add(sq)
                break
            f += df
            r += dr
    return out


class _Search:
    """Uniform-cost search over (cell index, position) states; see the module docstring."""

    def __init__(self, cells: list[Cell], written: list[Written | None], start: Position,
                 max_cost: float, max_expansions: int,
                 variants: list[tuple[tuple[Written, float, str], ...]] | None = None) -> None:
        self.cells = cells
        self.written = written
        #: per cell, its readings through a handwriting confusion (costs.confusions)
        self.variants = variants if variants is not None else [() for _ in cells]
        self.n = len(cells)
        self.max_cost = max_cost
        self.max_expansions = max_expansions
        self.heap: list[tuple[float, int, int, str, _Step, Any]] = []
        self.counter = count()
        self.best: dict[tuple[int, int], float] = {}
        #: other arrivals at a state (cost, step), cheapest first: the rival readings through it
        self.rivals: dict[tuple[int, int], list[tuple[float, _Step]]] = {}
        self.failed: list[_Step] = []
        self.popped: dict[tuple[int, bool], int] = {}
        self.window = WINDOW
        self.omission_lookahead = OMISSION_LOOKAHEAD
        self.main_beam = MAIN_BEAM
        self._dropped: list[_Step] = []  # states the main search's beam did not expand
        #: cells near a correction of a best reading (where a far rival branch may be corrected)
        self.near: set[int] = set()
        #: the first cell where the literal reading (no edit) stops resolving
        self.first_failure: int | None = None
        self._far_opened: set[int] = set()
        self.expansions = 0
        self.truncated = False
        #: cheapest state the beam dropped (its completions were never searched: a reading
        #: that cheap may exist, so no correction can claim a larger gap)
        self.pruned = math.inf
        self._goal_edits: tuple[_Step, list[tuple[int, float]]] | None = None
        self.cache: dict[tuple[int, int], list[tuple[float, Move]]] = {}
        self._best_step: dict[tuple[int, int], _Step] = {}
        self._exact: dict[tuple[int, int], list[Move]] = {}
        self._parked: dict[int, list[tuple[float, str]]] = {}  # id(step) -> deferred entries
        self._opened: set[int] = set()
        self._steps: dict[int, _Step] = {}
        self._push(_Step(None, 0, start, 0.0, "start"))

    def _push(self, step: _Step) -> None:
        if step.cost > self.max_cost:
            return
        key = (step.index, step.pos.key())
        old = self.best.get(key)
        if old is not None:
            if step.cost >= old - 1e-9:
                if step.cost < old + CONFIDENCE_GAP:
                    self._add_rival(key, step.cost, step)
                return
            self._add_rival(key, old, self._best_step[key])
        self.best[key] = step.cost
        self._best_step[key] = step
        # priority: cost, then more cells consumed first (depth-first among equals)
        heapq.heappush(self.heap, (step.cost, -step.index, next(self.counter), "state", step, None))

    def _add_rival(self, key: tuple[int, int], cost: float, step: _Step) -> None:
        """Keep ``step`` among the cheapest :data:`RIVALS_PER_STATE` other arrivals at ``key``."""
        kept = self.rivals.setdefault(key, [])
        kept.append((cost, step))
        kept.sort(key=lambda item: item[0])
        del kept[RIVALS_PER_STATE:]

    def candidates(self, step: _Step) -> list[tuple[float, Move]]:
        return self.scored(step.index, step.pos)

    def scored(self, index: int, pos: Position) -> list[tuple[float, Move]]:
        """Candidate moves for cell ``index`` in ``pos``, cheapest first (cached)."""
        key = (index, pos.key())
        found = self.cache.get(key)
        if found is None:
            found = candidate_costs(self.written[index], self.cells[index].text, pos, self.variants[index])
            self.cache[key] = found
        return found

    def exact(self, index: int, pos: Position) -> list[Move]:
        """The moves that read cell ``index`` exactly in ``pos`` (cached)."""
        w = self.written[index]
        if w is None:
            return []
        key = (index, pos.key())
        found = self._exact.get(key)
        if found is None:
            found = self._exact[key] = exact_moves(w, pos)
        return found

    # -- deferred (costly) expansions, opened near cells that failed to resolve --
    def _defer(self, step: _Step, extra: float, payload: str) -> None:
        cost = step.cost + extra
        if cost > self.max_cost:
            return
        sid = id(step)
        if sid in self._opened:
            heapq.heappush(self.heap, (cost, -step.index, next(self.counter), "defer", step, payload))
        else:
            self._steps[sid] = step
            self._parked.setdefault(sid, []).append((cost, payload))

    def _open(self, step: _Step) -> None:
        sid = id(step)
        if sid in self._opened:
            return
        self._opened.add(sid)
        for cost, payload in self._parked.pop(sid, []):
            heapq.heappush(self.heap, (cost, -step.index, next(self.counter), "defer", step, payload))

    def _restore_dropped(self, limit: float) -> None:
        """Push the states the main beam dropped (up to cost ``limit``) back into the search."""
        for step in self._dropped:
            if step.cost <= limit:
                heapq.heappush(self.heap, (step.cost, -step.index, next(self.counter), "state", step, None))
        self._dropped = []

    def _open_rivals(self, goal: _Step) -> None:
        """Open the cells of the best reading ``goal`` to the search for rival readings.

        Up to :data:`RIVAL_WINDOW` cells before each correction (and :data:`WINDOW` after) every
        edit is opened; every other cell is opened to far rival branches (:meth:`_open_far`).
        """
        path = _path(goal)
        edited = [p.index for p in path if p.edit > 0.0 or p.op == "move" and p.parent is not None
                  and len(self.exact(p.parent.index, p.parent.pos)) > 1]
        for e in edited:
            self.near.update(range(max(0, e - WINDOW - 1), e + WINDOW + 1))
        for on_path in path:
            if any(e - RIVAL_WINDOW <= on_path.index <= e + WINDOW for e in edited):
                self._open(on_path)
            elif on_path.index < self.n:
                self._open_far(on_path)

    def _open_far(self, step: _Step) -> None:
        """Open a state far before a failure (or a correction) to single misreadings and swaps.

        A legal but wrong reading of an early cell may stay playable for many moves and only
        show where the sheet stops resolving: such a branch (``far``) replays the following
        cells exactly (exempt from the beam: it does not branch), and joins the ordinary search
        once it stops resolving at a cell in :attr:`near`; one that stops resolving before
        needs a second, separate correction where the sheet reads well, and is dropped.
        """
        if id(step) in self._far_opened:
            return
        self._far_opened.add(id(step))
        self._steps[id(step)] = step  # keep it alive: ids are the keys
        heapq.heappush(self.heap, (step.cost + MIN_EDIT, -step.index, next(self.counter), "defer", step, "far-moves"))
        heapq.heappush(self.heap, (step.cost + min(TRANSPOSED, WRONG_COLUMN), -step.index, next(self.counter), "defer",
                                   step, "far-swaps"))

    def _open_lineage(self, step: _Step, window: int | None = None) -> None:
        limit = step.index - (self.window if window is None else window)
        a: _Step | None = step
        while a is not None and a.index >= limit:
            self._open(a)
            if a.edit > 0.0:
                break  # the failure is evidence against this edit, not against earlier cells
            a = a.parent

    def _fail(self, step: _Step) -> None:
        self.failed.append(step)
        if step.cost == 0.0 and (self.first_failure is None or step.index < self.first_failure):
            self.first_failure = step.index
            self.near.update(range(max(0, step.index - WINDOW - 1), self.n + 1))
            # a legal but wrong move long before the failure: single misreadings of the
            # literal reading's earlier cells, each replayed exactly up to the failure
            a = step.parent
            while a is not None:
                if a.index < step.index - WINDOW:
                    self._open_far(a)
                a = a.parent
        self._open_lineage(step)

    def _widen(self) -> bool:
        if not self._parked or self.window > self.n:
            return False
        self.window = self.window * 3 if self.window * 3 <= self.n else self.n + 1
        for step in self.failed:
            self._open_lineage(step)
        return True

    def expand(self, step: _Step) -> None:
        i = step.index
        cell = self.cells[i]
        plies = step.plies
        if cell.placeholder:
            self._push(_Step(step, i + 1, step.pos, step.cost, "skip", (), (), 0.0, plies, step.far))
            return
        exact = self.exact(i, step.pos)
        w = self.written[i]
        for move in exact:
            after = step.pos.play(move)
            self._push(_Step(step, i + 1, after, step.cost + _evidence(w, step.pos, move, after), "move", (move,), (i,),
                             0.0, plies + 1,
                             step.far))
        if not exact:
            if step.far:
                if i not in self.near:
                    return  # a far rival branch needs a second correction away from the failures
                self._open_lineage(step, WINDOW)
            else:
                self._fail(step)
        if step.op == "omitted":
            return  # an inserted move must be followed by a cell that reads exactly
        self._defer(step, MIN_EDIT, "moves")
        # each kind of sheet-level edit at its own cost, so that none is tried above the horizon
        self._defer(step, min(TRANSPOSED, WRONG_COLUMN), "swaps")
        self._defer(step, min(OMITTED, EXTRA), "omissions")

    def expand_deferred(self, step: _Step, payload: str | tuple[str, int]) -> None:
        i = step.index
        plies = step.plies
        if isinstance(payload, tuple) or payload in ("moves", "far-moves"):
            # candidate readings of the cell, one cost level at a time (the rest deferred
            # again at the next level's cost: none is played above the search's horizon)
            name, k = payload if isinstance(payload, tuple) else (payload, 0)
            exact = self.exact(i, step.pos)
            w = self.written[i]
            far = name == "far-moves"
            scored = self.candidates(step)
            level = scored[k][0] if k < len(scored) else 0.0
            while k < len(scored) and scored[k][0] <= level + 1e-9:
                cost, move = scored[k]
                k += 1
                if cost > 0.0 or move not in exact:
                    after = step.pos.play(move)
                    self._push(_Step(step, i + 1, after, step.cost + cost + _evidence(w, step.pos, move, after), "move",
                                     (move,), (i,), cost, plies + 1, far))
            if k < len(scored):
                heapq.heappush(self.heap, (step.cost + scored[k][0], -i, next(self.counter), "defer", step, (name, k)))
            return
        # sheet-level edits: an omitted move, an extra cell, two cells in swapped order (only
        # the last on a far rival branch: an omission or an extra cell shows at once)
        if not step.pos.has_legal_moves():
            return
        if payload == "omissions":
            if self._fails_soon(i, step.pos, self.omission_lookahead):
                # an omitted move or an extra cell shows soon: a cell here stops reading
                for move in self._insertions(step):
                    after = step.pos.play(move)
                    if i < self.n and not self.cells[i].placeholder and not self.exact(i, after):
                        continue  # the next cell must read exactly after an inserted move
                    self._push(_Step(step, i, after, step.cost + OMITTED, "omitted", (move,), (-1,), OMITTED, plies + 1))
                self._push(_Step(step, i + 1, step.pos, step.cost + EXTRA, "extra", (), (i,), EXTRA, plies))
            return
        far = payload == "far-swaps"
        for gap in (2, 1):
            j = i + gap
            if j >= self.n or self.cells[j].placeholder:
                continue
            order = [j, i + 1, i] if gap == 2 else [j, i]
            pos = step.pos
            played: list[Move] = []
            total = TRANSPOSED if gap == 2 else WRONG_COLUMN
            marks = 0.0
            for index in order:
                if self.cells[index].placeholder:
                    break
                readings = self.exact(index, pos)
                if not readings:
                    break
                played.append(readings[0])
                before, pos = pos, pos.play(readings[0])
                marks += _evidence(self.written[index], before, readings[0], pos)
            else:
                self._push(_Step(step, i + len(order), pos, step.cost + total + marks, "transposed",
                                 tuple(played), tuple(order), total, plies + len(order), far))

    def _first_failure(self, index: int, pos: Position, stop: int | None = None) -> int | None:
        """The first cell from ``index`` (before ``stop``, default the end) that does not read
        exactly when replaying (None: none)."""
        for k in range(index, self.n if stop is None else min(self.n, stop)):
            if self.cells[k].placeholder:
                continue
            exact = self.exact(k, pos)
            if not exact:
                return k
            pos = pos.play(exact[0])
        return None

    def _completion_bound(self, step: _Step, goal: _Step) -> float:
        """An estimate from below of the cheapest complete reading through a dropped ``step``.

        When the rest of the sheet reads exactly from it, its own cost. Otherwise a correction is
        needed at or before the first cell that stops reading, and the best reading's corrections
        well after that cell (beyond :data:`WINDOW`) are taken to stay needed.
        """
        k = self._first_failure(step.index, step.pos)
        if k is None:
            return step.cost
        if self._goal_edits is None or self._goal_edits[0] is not goal:
            self._goal_edits = (goal, [(p.index - 1, p.edit) for p in _path(goal) if p.edit > 0.0])
        later = sum(edit for index, edit in self._goal_edits[1] if index > k + WINDOW)
        return step.cost + MIN_EDIT + later

    def _complete_exactly(self, step: _Step) -> _Step | None:
        """The reading that continues ``step`` with the exact reading of every later cell.

        None when a later cell does not read exactly or fits several moves.
        """
        for k in range(step.index, self.n):
            if self.cells[k].placeholder:
                step = _Step(step, k + 1, step.pos, step.cost, "skip", (), (), 0.0, step.plies)
                continue
            exact = self.exact(k, step.pos)
            if len(exact) != 1:
                return None
            after = step.pos.play(exact[0])
            step = _Step(step, k + 1, after, step.cost + _evidence(self.written[k], step.pos, exact[0], after), "move",
                         (exact[0],), (k,), 0.0, step.plies + 1)
        return step

    def _fails_soon(self, index: int, pos: Position, depth: int) -> bool:
        """True when reading cells from ``index`` exactly fails within ``depth`` cells."""
        return self._first_failure(index, pos, index + depth) is not None

    def _insertions(self, step: _Step) -> list[Move]:
        """Moves that may have been omitted before cell ``step.index``.

        The cell after an omission is written for the other side, so it must read exactly
        once the omitted move is played. When it already reads exactly after a null move, any
        move may be the omitted one; otherwise only moves that can change its reading (a move
        to or from its target or origin square, or a capture there) are tried.
        """
        i = step.index
        moves = step.pos.legal_moves()
        if i >= self.n or self.cells[i].placeholder:
            return moves
        w = self.written[i]
        if w is None:
            return moves
        if step.pos.is_check():
            return moves
        if self.exact(i, step.pos.play_null()):
            return moves
        if w.castle is not None or w.to_square is None:
            return moves
        squares = {w.to_square, w.from_square} | _blockers(step.pos, w.to_square)
        return [m for m in moves if m[1] in squares or m[0] in squares]

    def run(self) -> tuple[_Step | None, list[_Step]]:
        """Best goal step and rival goals (different final positions) within the gap."""
        goal: _Step | None = None
        opened_for: _Step | None = None
        rivals: list[_Step] = []
        while True:
            if not self.heap:
                if goal is not None:
                    break
                if self._dropped and self.main_beam < MAIN_BEAM * 4:
                    # the beam dropped the way through: take the dropped states back, wider
                    # (twice at most: a sheet that needs more is hopeless within the budget)
                    self.main_beam *= 2
                    self._restore_dropped(math.inf)
                    continue
                if not self._widen():
                    break
                continue
            cost, _, _, kind, step, payload = heapq.heappop(self.heap)
            if goal is not None and cost > goal.cost + CONFIDENCE_GAP:
                break
            if goal is not None and goal.cost > 0.0 and goal is not opened_for:
                # a correction was needed: look for rival readings anywhere in the sheet (an
                # earlier cell may explain the failure as well), not only near the failures;
                # again when a cheaper reading replaces the best one
                opened_for = goal
                self.window = self.n + 1
                self.omission_lookahead = RIVAL_OMISSION_LOOKAHEAD
                self._open_rivals(goal)
                # states the main beam dropped may complete as cheaply: they join the rival search
                self._restore_dropped(goal.cost + CONFIDENCE_GAP)
                heapq.heappush(self.heap, (cost, -step.index, next(self.counter), kind, step, payload))
                continue
            if self.expansions >= self.max_expansions:
                self.truncated = goal is not None  # rivals unexplored: no correction is confident
                break
            if kind == "state":
                if self.best.get((step.index, step.pos.key()), math.inf) < step.cost - 1e-9:
                    continue  # superseded
                if step.op != "omitted" and step.index < self.n and not step.far:
                    # the beam: only the cheapest states per cell are expanded (inserted-move
                    # states are exempt: they are cheap and die at once when wrong)
                    slot = (step.index, goal is None)
                    seen = self.popped.get(slot, 0)
                    if seen >= (self.main_beam if goal is None else BEAM):
                        if goal is None:
                            self._dropped.append(step)
                        elif step.cost <= goal.cost + 1e-9 and step.cost < self.pruned:
                            # a dropped state as cheap as the best reading: if its completion
                            # could cost no more, no correction may claim confidence
                            bound = self._completion_bound(step, goal)
                            self.pruned = min(self.pruned, bound)
                            done = self._complete_exactly(step) if bound <= goal.cost + 1e-9 else None
                            if done is not None and done.pos.key() != goal.pos.key():
                                rivals.append(done)  # shown to the human among the candidates
                                if len(rivals) >= MAX_RIVALS:
                                    break
                        continue
                    self.popped[slot] = seen + 1
                if step.index == self.n:
                    if goal is not None and step.cost < goal.cost - 1e-9:
                        rivals.insert(0, goal)  # an opened window found a cheaper reading
                        goal = step
                    elif goal is None:
                        goal = step
                    elif step.pos.key() != goal.pos.key():
                        rivals.append(step)
                        if len(rivals) >= MAX_RIVALS:
                            break
                    continue
                self.expansions += 1
                self.expand(step)
            else:
                self.expansions += 1
                self.expand_deferred(step, payload)
        return goal, rivals


def _best_partial(search: _Search) -> list[Move]:
    """The cheapest among the deepest states reached (for a needs-human report)."""
    best_key: tuple[int, float] | None = None
    best_step: _Step | None = None
    for (index, _), step in search._best_step.items():
        rank = (index, -step.cost)
        if best_key is None or rank > best_key:
            best_key, best_step = rank, step
    return _moves_of(_path(best_step)) if best_step is not None else []
