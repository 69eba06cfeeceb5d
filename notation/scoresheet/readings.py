"""The readings of a scoresheet: each complete legal reading the search found, with its edits.

A reading's ``cost`` is the sum of its boxes' costs (negative log-probabilities, nats, from
:mod:`notation.scoresheet.channel`) and of its sheet-level edits (an omitted move, an extra box, a
transposition); its ``probability`` is its share of all readings the search kept
(:mod:`notation.scoresheet.viterbi`). ``edits`` are the places where it departs from the sheet as
written (``Correction.kind`` in :mod:`notation.scoresheet.reconstruct` names them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from notation.rules.move import Move


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
