"""Game-level checks over a replayed game: claims, outcome, result and tags.

Pure functions of a :class:`notation.pgn.model.Game` and its :class:`notation.validation.replay.Replay`; none of
them replays moves. Each returns :class:`~notation.diagnostics.Diagnostic` values with stable
codes (registered in :mod:`notation.diagnostics`).

Claims (the jsonl contract of ``notation validate``), plies counted from 1 on the mainline:

- ``threefold``: first ply after which the current position has occurred three times (FIDE 10.10
  identity: the repetition key counts en passant only when the capture is legal); the start
  position counts as an occurrence;
- ``fifty_moves``: first ply after which the half-move clock is >= 100 and the side to move has
  a legal move (10.12);
- ``fivefold`` / ``seventyfive_moves``: likewise with 5 occurrences / 150 half-moves (9.6).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple
from collections.abc import Callable

from notation.diagnostics import CODES, Diagnostic

from notation.pgn.model import RESULTS, SEVEN_TAG_ROSTER
from notation.validation.dead import Dead

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.model import Game
    from notation.formats.position import Position
    from notation.validation.replay import PlyRecord

DATE_TAGS: tuple[str, ...] = ("Date", "EventDate", "UTCDate")
DECISIVE = {"1-0": "white", "0-1": "black"}

_DATE = re.compile(r"^(\d{4}|\?{4})\.(\d{2}|\?{2})\.(\d{2}|\?{2})$")
#: A Termination tag for a win on time: Lichess's "Time forfeit", "won on time", "lost on time",
#: "timeout", "time out", "flag fell", "flagged".
TIME_FORFEIT_PATTERN = r"time\s*forfeit|\bon time\b|time\s*-?\s*out|\bflag(?:ged|\s+fell|\s+fall)"
_TIME_FORFEIT = re.compile(TIME_FORFEIT_PATTERN, re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Claims:
    """First plies of the four repetition / move-count events (None if never reached)."""

    threefold: int | None = None
    fifty_moves: int | None = None
    fivefold: int | None = None
    seventyfive_moves: int | None = None

    def to_dict(self) -> dict[str, int | None]:
        return {
            "threefold": self.threefold,
            "fifty_moves": self.fifty_moves,
            "fivefold": self.fivefold,
            "seventyfive_moves": self.seventyfive_moves,
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the mainline ended by rule: termination and winner (both None if it did not)."""

    termination: str | None = None
    winner: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        return {"termination": self.termination, "winner": self.winner}


@dataclass(frozen=True, slots=True)
class Perpetual:
    """A perpetual check: ``side`` checked on every move from ``first`` to the repetition ``ply``."""

    side: str
    first: int
    ply: int


# --------------------------------------------------------------------------------- claims
def claims(start: Position, plies: list[PlyRecord]) -> tuple[Claims, Perpetual | None]:
    """Claim plies of a mainline, and the first perpetual-check sequence if any."""
    # key -> the ply after which it first stood (most positions occur once), then -> the list
    # of those plies once it recurs
    seen: dict[int, int | list[int]] = {start.key(): 0}
    threefold = fivefold = fifty = seventyfive = None
    perpetual: Perpetual | None = None
    for record in plies:
        key = record.key
        occurrences = seen.get(key)
        if occurrences is None:
            seen[key] = record.ply
        else:
            ply = record.ply
            if isinstance(occurrences, int):
                seen[key] = [occurrences, ply]
            else:
                occurrences.append(ply)
                count = len(occurrences)
                if count == 3:
                    if threefold is None:
                        threefold = ply
                    if perpetual is None:
                        perpetual = _perpetual(plies, occurrences[0], ply)
                elif count == 5 and fivefold is None:
                    fivefold = ply
        clock = record.after.halfmove_clock
        if clock >= 100 and (fifty is None or (clock >= 150 and seventyfive is None)):
            ply = record.ply
            if record.after.has_legal_moves():
                if fifty is None:
                    fifty = ply
                if clock >= 150 and seventyfive is None:
                    seventyfive = ply
    return Claims(threefold, fifty, fivefold, seventyfive), perpetual


def _perpetual(plies: list[PlyRecord], first: int, ply: int) -> Perpetual | None:
    """One side gave check with every move between the first and third occurrence."""
    offset = plies[0].ply  # plies[i].ply == offset + i
    window = plies[first + 1 - offset : ply + 1 - offset]
    for side in (True, False):
        own = [r for r in window if r.before.turn is side]
        if len(own) >= 2 and all(r.check for r in own):
            start = own[0].ply
            index = start - offset - 2
            while index >= 0 and plies[index].check and plies[index].before.turn is side:
                start = plies[index].ply
                index -= 2
            return Perpetual("white" if side else "black", start, ply)
    return None


# --------------------------------------------------------------------------------- outcome
def outcome(final: Position | None, claim: Claims, plies: int, first_dead: int | None = None) -> Outcome:
    """The rule-based end of the mainline.

    Fivefold repetition, the 75-move rule and a dead position (``first_dead``, the ply of the
    first one, :mod:`notation.validation.dead`) end the game at the ply they happen (9.6,
    5.2.2), before any later mate; otherwise the final position decides (checkmate,
    stalemate, dead position). A checkmate on the very ply that completes 75 moves takes
    precedence (9.6.2).
    """
    automatic = [
        (p, name)
        for p, name in ((claim.fivefold, "fivefold_repetition"), (claim.seventyfive_moves, "seventyfive_moves"))
        if p is not None
    ]
    if first_dead is not None and first_dead < plies:
        automatic.append((first_dead, "dead_position"))
    if automatic:
        ply, name = min(automatic)
        if ply < plies or final is None or not final.is_checkmate():
            return Outcome(name, None)
    if final is None:
        return Outcome()
    if final.is_checkmate():
        return Outcome("checkmate", "black" if final.turn else "white")
    if final.is_stalemate():
        return Outcome("stalemate", None)
    if first_dead is not None or final.is_dead_position():
        return Outcome("dead_position", None)
    return Outcome()


# --------------------------------------------------------------------------------- events
class Mark(NamedTuple):
    """Where a mainline ply was written: what a located diagnostic about it needs."""

    ply: int
    line: int | None
    column: int | None
    san: str
    fullmove: int  # the move number of the ply
    white: bool  # White made the move


def mark(record: PlyRecord) -> Mark:
    """The :class:`Mark` of a replayed ply."""
    span = record.node.span
    return Mark(
        record.ply, span.line, span.column, record.node.san, record.before.fullmove_number, bool(record.before.turn)
    )


def claim_diagnostics(plies: list[PlyRecord], claim: Claims, perpetual: Perpetual | None) -> list[Diagnostic]:
    """Info diagnostics for the claim plies and warnings for moves played after automatic ends."""
    if not plies:
        return []
    offset = plies[0].ply
    return located_claim_diagnostics(lambda ply: mark(plies[ply - offset]), plies[-1].ply, claim, perpetual)


def located_claim_diagnostics(
    locate: Callable[[int], Mark], last: int, claim: Claims, perpetual: Perpetual | None
) -> list[Diagnostic]:
    """:func:`claim_diagnostics` with the plies found by ``locate`` (``last``: the last ply)."""
    out: list[Diagnostic] = []

    def at(ply: int, code: str, message: str) -> Diagnostic:
        where = locate(ply)
        return Diagnostic.make(code, message, line=where.line, column=where.column, ply=ply, san=where.san)

    if claim.threefold is not None:
        out.append(at(claim.threefold, "claim.threefold", "threefold repetition: a draw could be claimed (10.10)"))
    if claim.fifty_moves is not None:
        out.append(
            at(
                claim.fifty_moves,
                "claim.fifty-moves",
                "50 moves by each side without capture or pawn move: a draw could be claimed (10.12)",
            )
        )
    if claim.fivefold is not None:
        out.append(
            at(claim.fivefold, "claim.fivefold", "the position occurred for the fifth time: the game is drawn (9.6.1)")
        )
        if claim.fivefold < last:
            out.append(
                at(
                    claim.fivefold + 1,
                    "game.move-after-fivefold",
                    f"move played after the fivefold repetition at ply {claim.fivefold} ended the game",
                )
            )
    if claim.seventyfive_moves is not None:
        out.append(
            at(
                claim.seventyfive_moves,
                "claim.seventyfive-moves",
                "75 moves by each side without capture or pawn move: the game is drawn (9.6.2)",
            )
        )
        if claim.seventyfive_moves < last:
            out.append(
                at(
                    claim.seventyfive_moves + 1,
                    "game.move-after-75-moves",
                    f"move played after the 75-move rule ended the game at ply {claim.seventyfive_moves}",
                )
            )
    if perpetual is not None:
        first = locate(perpetual.first)
        label = f"{first.fullmove}{'.' if first.white else '...'} {first.san}"
        out.append(
            at(
                perpetual.ply,
                "pattern.perpetual-check",
                f"perpetual check: {perpetual.side} checked with every move from {label} until the position "
                "repeated three times",
            )
        )
    return out


def _mate_text(dead: Dead) -> str:
    return ", ".join(
        f"{name}: {reason}"
        for name, (can, reason) in (("white", dead.white), ("black", dead.black))
        if can is False and reason is not None
    )


def dead_diagnostics(
    locate: Callable[[int], Mark], last: int, dead: Dead, end: Outcome, line: int | None
) -> list[Diagnostic]:
    """An info at the first dead position (5.2.2) and a warning for the moves played after it.
    ``locate`` finds a ply's :class:`Mark`; ``last`` is the last ply; a dead start position
    is reported at the game's ``line``. A stalemate that ends the game (5.2.1) is dead too, and
    not reported twice."""
    first = dead.first
    if first is None or (first == last and end.termination == "stalemate"):
        return []
    why = _mate_text(dead)
    because = f" ({why})" if why else ""
    out: list[Diagnostic] = []
    message = "neither side can checkmate by any series of legal moves" + because + ": the game is drawn (5.2.2)"
    if first == 0:
        out.append(Diagnostic.make("game.dead-position", "the start position is dead: " + message, line=line, ply=0))
    else:
        where = locate(first)
        out.append(
            Diagnostic.make(
                "game.dead-position",
                f"the position after {_label(where)} is dead: {message}",
                line=where.line,
                column=where.column,
                ply=first,
                san=where.san,
            )
        )
    if first < last:
        where = locate(first + 1)
        since = "the start position" if first == 0 else _label(locate(first))
        out.append(
            Diagnostic.make(
                "game.move-after-dead-position",
                f"move played after the game ended in a dead position ({since}, ply {first})",
                line=where.line,
                column=where.column,
                ply=first + 1,
                san=where.san,
            )
        )
    return out


def _label(where: Mark) -> str:
    return f"{where.fullmove}{'.' if where.white else '...'} {where.san}"


# --------------------------------------------------------------------------------- result
def recorded_result(game: Game) -> str | None:
    """The result the game records: the Result tag when it is a result, else the marker."""
    tag = game.tags.get("Result")
    tag_value = tag.strip() if tag is not None else None
    return tag_value if tag_value in RESULTS else game.result


def recorded_winner(game: Game) -> bool | None:
    """True when the recorded result is a White win, False a Black win, None otherwise."""
    winner = DECISIVE.get(recorded_result(game) or "")
    return None if winner is None else winner == "white"


@lru_cache(maxsize=256)
def time_forfeit(termination: str | None) -> bool:
    """Whether a Termination tag says the game was won on time (the loser's flag fell)."""
    return bool(termination) and _TIME_FORFEIT.search(termination or "") is not None


def result_diagnostics(
    game: Game,
    dead: Dead | None,
    end: Outcome,
    replay_complete: bool,
    last: Mark | None = None,
    dead_at: Mark | None = None,
) -> list[Diagnostic]:
    """Result tag vs marker, vs the final position, and wins on time by a side that cannot mate.

    ``dead`` is the game's dead-position analysis (None when there is no final position).
    ``replay_complete`` is False when the mainline stopped early (then the final position is not
    the game's and only the tag/marker consistency is checked). Findings about the final
    position point at ``last``, the mainline's last ply, when there is one; a decisive result
    after a dead position points at ``dead_at``, the ply of the first one.
    """
    out: list[Diagnostic] = []
    tag = game.tags.get("Result")
    token = game.result
    line = game.line
    if tag is None and token is None:
        if all(d.code != "pgn.missing-result" for d in game.diagnostics):
            out.append(Diagnostic.make("result.missing", "no Result tag and no termination marker", line=line))
    elif tag is not None and token is not None and tag.strip() in RESULTS and tag.strip() != token:
        if all(d.code != "pgn.result-mismatch" for d in game.diagnostics):
            out.append(
                Diagnostic.make(
                    "pgn.result-mismatch",
                    f"termination marker {token!r} disagrees with [Result {tag!r}]",
                    line=line,
                )
            )
    result = recorded_result(game)  # a bad tag is reported by tag_diagnostics
    if result not in RESULTS or not replay_complete or dead is None:
        return out
    at: dict[str, object] = {"line": line}
    if last is not None:
        at = {"line": last.line, "column": last.column, "ply": last.ply, "san": last.san}
    if end.termination == "checkmate":
        expected = "1-0" if end.winner == "white" else "0-1"
        if result not in ("*", expected):
            out.append(
                Diagnostic.make(
                    "result.mismatch",
                    f"result {result} but {end.winner} checkmated: the result is {expected}",
                    **at,
                )
            )
    elif end.termination == "stalemate" and result in DECISIVE:
        out.append(
            Diagnostic.make(
                "result.mismatch", f"result {result} but the game ended in stalemate: the result is 1/2-1/2", **at
            )
        )
    elif result in DECISIVE and (dead.first is not None or end.termination == "dead_position"):
        first = dead.first
        where = at
        if first is None:
            what = "a dead position (no mate is possible)"
        elif first == 0:
            what, where = "a dead position from the start (no mate is possible)", {"line": line, "ply": 0}
        elif dead_at is not None:
            what = f"a dead position after {_label(dead_at)}, ply {first} (no mate is possible)"
            where = {"line": dead_at.line, "column": dead_at.column, "ply": dead_at.ply, "san": dead_at.san}
        else:
            what = f"a dead position at ply {first} (no mate is possible)"
        out.append(
            Diagnostic.make(
                "result.mismatch",
                f"result {result} but the game ended in {what}: the result is 1/2-1/2 (5.2.2)",
                **where,
            )
        )
    winner = DECISIVE.get(result)
    termination = game.tags.get("Termination", "")
    if winner is not None and time_forfeit(termination):
        can, reason = dead.side(winner == "white")
        if can is False:
            out.append(
                Diagnostic.make(
                    "result.time-unwinnable",
                    f"{winner} won on time ({termination!r}) but cannot checkmate by any series of legal "
                    f"moves ({reason}): the game is drawn (6.9)",
                    **at,
                )
            )
        elif can is None:
            out.append(
                Diagnostic.make(
                    "result.time-undecided",
                    f"{winner} won on time ({termination!r}); whether {winner} could still checkmate was "
                    "not decided within the search budget",
                    **at,
                )
            )
    return out


# --------------------------------------------------------------------------------- tags
_ROSTER = frozenset(SEVEN_TAG_ROSTER)
_MISSING_SEVERITY = CODES["tags.missing-roster"][0]


@lru_cache(maxsize=128)
def _missing_message(missing: tuple[str, ...]) -> str:
    """The message of ``tags.missing-roster`` for the ``missing`` tags (most files miss the same ones)."""
    return f"missing Seven Tag Roster tag{'s' if len(missing) > 1 else ''}: {', '.join(missing)}"


def tag_diagnostics(game: Game) -> list[Diagnostic]:
    """Missing Seven Tag Roster tags (one warning), a Result tag that is not a result, and
    malformed dates."""
    out: list[Diagnostic] = []
    tags = game.tags
    if not _ROSTER.issubset(tags):
        missing = tuple([name for name in SEVEN_TAG_ROSTER if name not in tags])
        out.append(Diagnostic("tags.missing-roster", _MISSING_SEVERITY, _missing_message(missing), line=game.line))
    result = tags.get("Result")
    if result is not None and result not in RESULTS and result.strip() not in RESULTS:
        out.append(
            Diagnostic.make(
                "tags.bad-result",
                f"[Result {result!r}] is not a result: use 1-0, 0-1, 1/2-1/2 or *",
                line=game.line,
            )
        )
    for name in DATE_TAGS:
        value = tags.get(name)
        if value is not None and not valid_date(value):
            out.append(
                Diagnostic.make(
                    "tags.bad-date",
                    f"[{name} {value!r}] is not a date YYYY.MM.DD ('??' for unknown parts)",
                    line=game.line,
                )
            )
    return out


@lru_cache(maxsize=4096)
def valid_date(text: str) -> bool:
    """A PGN date ``YYYY.MM.DD`` with ``????``/``??`` for unknown parts, and a real calendar date."""
    match = _DATE.match(text.strip())
    if match is None:
        return False
    year, month, day = match.groups()
    if month != "??" and not 1 <= int(month) <= 12:
        return False
    if day != "??" and not 1 <= int(day) <= 31:
        return False
    if "?" not in year + month + day:
        try:
            date(int(year), int(month), int(day))
        except ValueError:
            return False
    return True
