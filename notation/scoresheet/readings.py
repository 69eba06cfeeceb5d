"""Ranked readings of a scoresheet: how people err and how chess is played.

The search (:mod:`notation.scoresheet.search`) finds the cheapest complete readings of a sheet
(the best and its rivals within ``CONFIDENCE_GAP``). Here each is scored as a negative
log-likelihood (in nats, so ``exp(-score)`` is proportional to its probability):

``score = edit cost + slip priors + implausibility``

* **edit cost**: the search's own cost (:mod:`notation.scoresheet.costs`). Its figures already
  are rough negative log-frequencies of each slip *relative to a correct cell*; they were set by
  hand, not fitted to real sheets (no corpus of real scoresheet errors is at hand), and are
  checked only through the injected-error benchmark (``benchmarks/bench_scoresheet_trust.py``).
* **slip priors** added here for what the search treats as free: a written move that fits
  several moves (a missing disambiguation, ``Nd2`` for ``Nbd2``) costs :data:`AMBIGUOUS` per
  cell. Relative figures used (estimates, per slip, from the costs): missing disambiguation
  0.5 nats (≈ 1 in 1.6 relative to the reading without it), handwriting confusion 0.8–1.5,
  pawn capture written as a push 1.5, missing piece letter 1.5, wrong piece letter 2.0, square
  one off 2.0, transposed pair 2.0, omitted move 3.0: a missing disambiguation is about
  e^(2.0 − 0.5) ≈ 4.5 times commoner than a transposition.
* **implausibility** (:func:`implausibility`): a shallow material-and-threat check of every move
  by the engine. A move that leaves a piece en prise (attacked and undefended, or attacked by a
  cheaper piece) for nothing costs :data:`HANG` per pawn of material at stake (a queen left for
  nothing: 1.35); not recapturing a piece just taken when a recapture is legal costs
  :data:`RECAPTURE_MISSED`. A move that mates or stalemates risks nothing.

Readings are ranked by score; probabilities are the scores' softmax over the readings found
(readings beyond the search's horizon are not counted, so the best reading's probability is an
upper bound). A reading is *confident* (exit 0) only when no other reading found scores within
:data:`MARGIN` of it, 1 nat: the best is at least e ≈ 2.7 times likelier than any rival found
(and every correction keeps the search's own confidence test: its nearest rival at least 0.9
of edit cost away). The margin was chosen on the benchmark's development sheets (not the 1,000 measured): 1.5 nats
flagged 7 points more sheets without removing a wrong one (there were none at 1.0 either);
the search still looks for rivals up to ``CONFIDENCE_GAP`` (1.5) above the best cost, so every
reading within the margin is in the searched space. The likeliest reading is also required to
be the cheapest (plausibility orders readings, it never makes a costlier one exit 0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from notation.scoresheet.costs import origin_mark_cost, reading_cost
from notation.scoresheet.plausibility import VALUE as _VALUE
from notation.scoresheet.plausibility import en_prise

if TYPE_CHECKING:  # pragma: no cover
    from notation.rules.move import Move
    from notation.formats.position import Position
    from notation.scoresheet.search import _Search, _Step

#: Score of a written move that fits several moves (a missing disambiguation), per cell.
AMBIGUOUS = 0.5
#: Score of a written disambiguation that no other piece makes necessary (``Nce4`` when no other
#: knight reaches e4), on top of the search's ``ORIGIN_EXTRA`` (1.0): 2.0 in all, like a wrong
#: origin. A writer adds the letter because he saw a second piece able to go there; writing a
#: needless one is rarer than dropping a needed one (:data:`AMBIGUOUS`).
ORIGIN_UNNEEDED = 1.0
#: Score of a written cell dropped as no move of the game, on top of its edit cost: writing a
#: move that was not played is rarer than leaving one out (both cost 3.0 in the search).
EXTRA_CELL = 1.0
#: Score per pawn of material a move leaves en prise for nothing.
HANG = 0.05
#: Score of a move that does not recapture a piece just taken when it could (a knight or more;
#: a pawn a third of it).
RECAPTURE_MISSED = 0.6
#: A reading is confident only when every other reading found scores at least this much more.
MARGIN = 1.0



@dataclass(frozen=True, slots=True)
class Edit:
    """One place where a reading departs from the literal sheet (see ``Correction.kind``)."""

    kind: str
    ply: int | None
    written: str | None
    chosen: str | None
    reasons: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "ply": self.ply, "written": self.written, "chosen": self.chosen,
                "reasons": list(self.reasons)}


@dataclass(slots=True)
class Reading:
    """One complete legal reading of the sheet, with its cost, score and probability."""

    moves: list[Move]
    sans: list[str]
    cost: float
    edits: list[Edit] = field(default_factory=list)
    score: float = 0.0
    implausibility: float = 0.0
    probability: float = 1.0

    def to_dict(self, rank: int) -> dict[str, Any]:
        return {
            "rank": rank, "moves": list(self.sans), "cost": round(self.cost, 3), "score": round(self.score, 3),
            "implausibility": round(self.implausibility, 3), "probability": round(self.probability, 4),
            "corrections": [e.to_dict() for e in self.edits],
        }


def _move_penalty(pos: Position, move: Move, last_capture: int | None, last_value: int) -> float:
    """Implausibility of ``move`` in ``pos`` (see the module docstring)."""
    mover = pos.turn
    victim = pos.piece_type_at(move.to_square)
    gained = _VALUE.get(victim or 0, 0) if victim is not None else (1 if pos.is_en_passant(move) else 0)
    after = pos.play(move)
    penalty = 0.0
    if after.has_legal_moves():  # nothing is at stake after mate or stalemate
        at_stake = en_prise(after, mover) - gained
        if at_stake > 0:
            penalty += HANG * at_stake
    if last_capture is not None and move.to_square != last_capture and gained < last_value:
        if pos.attackers(mover, last_capture) and not pos.is_check():
            penalty += RECAPTURE_MISSED * min(last_value, 3) / 3
    return penalty


def implausibility(start: Position, moves: list[Move], cache: dict[tuple[int, Move, int | None], float]) -> float:
    """Sum of the move penalties of a reading (``cache`` shared between readings: they share
    most positions)."""
    total = 0.0
    pos = start
    last_capture: int | None = None
    last_value = 0
    for move in moves:
        key = (pos.key(), move, last_capture)
        penalty = cache.get(key)
        if penalty is None:
            penalty = cache[key] = _move_penalty(pos, move, last_capture, last_value)
        total += penalty
        victim = pos.piece_type_at(move.to_square)
        last_capture = move.to_square if victim is not None else None
        last_value = _VALUE.get(victim or 0, 0)
        pos = pos.play(move)
    return total


def reading_edits(search: _Search, steps: list[_Step]) -> tuple[list[Edit], int, int]:
    """The edits of the reading made of ``steps`` (after the start), its ambiguous cells (a
    missing disambiguation) and its cells with a disambiguation that no other piece needs."""
    edits: list[Edit] = []
    ambiguous = unneeded = 0
    ply = 0
    for step in steps:
        parent = step.parent
        assert parent is not None
        pos = parent.pos
        first = ply
        ply += len(step.moves)
        written = " ".join(search.cells[c].text for c in sorted(step.cells) if c >= 0) or None
        if step.op == "move":
            move = step.moves[0]
            index = step.cells[0]
            if step.edit > 0.0:
                reasons = reading_cost(search.written[index], search.cells[index].text, search.variants[index], pos,
                                       move)[1]
                kind = "unreadable" if reasons == ("unreadable",) else "correction"
                edits.append(Edit(kind, first + 1, written, pos.san(move), () if kind == "unreadable" else reasons))
            elif len(search.exact(parent.index, pos)) > 1:
                ambiguous += 1
                edits.append(Edit("ambiguous", first + 1, written, pos.san(move)))
            if origin_mark_cost(search.written[index], pos, move) > 0.0:
                unneeded += 1
        elif step.op == "omitted":
            edits.append(Edit("omitted", first + 1, None, pos.san(step.moves[0])))
        elif step.op == "extra":
            edits.append(Edit("extra", first if first > 0 else None, written, None))
        elif step.op == "transposed":
            sans = []
            p = pos
            for m in step.moves:
                sans.append(p.san(m))
                p = p.play(m)
            edits.append(Edit("transposed", first + 1, written, " ".join(sans)))
    return edits, ambiguous, unneeded


def rank_readings(search: _Search, start: Position, found: list[tuple[float, list[Move], list[_Step]]],
                  sans_of: Any) -> list[Reading]:
    """The readings ``found`` (cost, moves, steps), scored, ranked best first, with probabilities.

    ``sans_of(moves)`` gives a reading's SAN list.
    """
    cache: dict[tuple[int, Move, int | None], float] = {}
    out: list[Reading] = []
    for cost, moves, steps in found:
        edits, ambiguous, unneeded = reading_edits(search, steps)
        reading = Reading(moves=moves, sans=sans_of(moves), cost=cost, edits=edits)
        if len(found) > 1:
            reading.implausibility = implausibility(start, moves, cache)
        extra = sum(1 for e in edits if e.kind == "extra")
        reading.score = (cost + AMBIGUOUS * ambiguous + ORIGIN_UNNEEDED * unneeded + EXTRA_CELL * extra
                         + reading.implausibility)
        out.append(reading)
    out.sort(key=lambda r: r.score)
    if out:
        low = out[0].score
        weights = [math.exp(-(r.score - low)) for r in out]
        total = sum(weights)
        for r, w in zip(out, weights):
            r.probability = w / total
    return out


def confident(readings: list[Reading]) -> bool:
    """True when no reading scores within :data:`MARGIN` of the best."""
    return len(readings) < 2 or readings[1].score - readings[0].score >= MARGIN - 1e-9
