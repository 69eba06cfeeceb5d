"""Dead positions (FIDE 5.2.2) and wins on time against a side that cannot mate (6.9).

A side *can mate* when some series of legal moves, the opponent cooperating, ends with it
checkmating. A position is *dead* when neither side can: the game ends there as a draw
(5.2.2). A player whose flag falls still draws when the opponent cannot mate (6.9).

The search lives in the compiled core only (``notation._core``, ``src/dead.rs``: the textbook
material cases, then the quick static test and the full helpmate search of the MIT crate
``chasolver``), and both validation paths call it, so their reports agree. Each game has a
budget of :data:`SEARCHES` full searches; where it runs out, or for a position the solver
does not take (Chess960 castling rights), the answer is *undecided*, never "cannot".

Deadness is kept by every move (a position reached from a dead one is dead), so the first dead
position is found from the end: the final position first, and only when it is dead, back
through the game while positions stay dead.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from notation.compiled import solver_module

if TYPE_CHECKING:  # pragma: no cover
    from notation.validation.replay import Replay
    from notation._core import CoreGame

#: Environment variable that sets :data:`SEARCHES` for a process: ``0`` keeps the quick tests
#: alone (the cheapest database scan; a side they do not settle stays undecided).
SEARCHES_VARIABLE = "NOTATION_DEAD_SEARCHES"
DEFAULT_SEARCHES = 8


def _searches() -> int:
    text = os.environ.get(SEARCHES_VARIABLE, "").strip()
    if text.isascii() and text.isdigit() and int(text) <= 1_000_000:
        return int(text)
    return DEFAULT_SEARCHES


#: Full searches one game may spend (each bounded by the solver's own node limits). Passed to
#: the core on every call; tests lower it to show what an exhausted budget does.
SEARCHES = _searches()

#: Whether a side can mate: (True, None), (False, reason), (None, None) when undecided or
#: :data:`NOT_COMPUTED`.
Mate = tuple[bool | None, str | None]
UNDECIDED: Mate = (None, None)
#: A verdict not looked at: ``validate`` reads only whether the final position is dead and the
#: winner's verdict (a win on time, 6.9), so where the winner is not proved unable to mate (the
#: position is then not dead whatever the loser's verdict) the loser's is left alone, and after a
#: drawn result neither side's where a short helpmate walk plays a mate. ``import``
#: (its ``white_can_mate`` and ``black_can_mate`` columns) asks for both sides (``both=True``).
NOT_COMPUTED: Mate = (None, "not computed")


@dataclass(frozen=True, slots=True)
class Dead:
    """The dead-position analysis of one game: the ply of the first dead position (0 for the
    start position, None if none was proved) and, for the final position, whether each side
    can still mate."""

    first: int | None = None
    white: Mate = UNDECIDED
    black: Mate = UNDECIDED

    def side(self, white: bool) -> Mate:
        return self.white if white else self.black

    def computed(self, white: bool) -> bool:
        """Whether that side's verdict was looked at (not :data:`NOT_COMPUTED`)."""
        return self.side(white) != NOT_COMPUTED


NO_ANALYSIS = Dead()


def of_core(result: CoreGame) -> Dead:
    """The analysis a core ``replay_game`` result carries."""
    return Dead(result.first_dead, result.white_mate, result.black_mate)


def analyse(rep: Replay, wins: bool | None, both: bool = True) -> Dead:
    """The analysis of a replayed mainline (the reference path), by the core's search.

    ``wins``: the side the recorded result makes the winner (True White; None when the result
    is not decisive), the side the search is spent on. ``both``: both sides' verdicts (import),
    else what ``validate`` reads (the loser's may be :data:`NOT_COMPUTED`, as in the core path).
    Without the compiled core only the bare king is recognised."""
    final = rep.final
    if final is None or rep.start is None:
        return NO_ANALYSIS
    module = solver_module()
    if module is None:
        return Dead(None, *(((False, "bare king") if final.only_king(c) else UNDECIDED) for c in (True, False)))
    first, white, black = module.dead_analysis([_fen(final)], wins, SEARCHES, both)
    if first is not None and rep.plies:
        fens = [_fen(rep.start)] + [_fen(record.after) for record in rep.plies]
        first, white, black = module.dead_analysis(fens, wins, SEARCHES, both)
    return Dead(first, white, black)


def _fen(position: Any) -> str:
    return str(position.fen(shredder=True, en_passant="fen"))
