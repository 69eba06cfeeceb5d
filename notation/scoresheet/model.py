"""The outcome of reading a scoresheet, whatever the method: :class:`Reconstruction` (moves,
corrections, readings, diagnostics, PGN) and :class:`Correction`, and the tag and result helpers
both readings share (:mod:`notation.scoresheet.reconstruct`, the repair search, and
:mod:`notation.scoresheet.copies`, the channel reading)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from notation.diagnostics import Diagnostic
from notation.grammars import terminal_patterns
from notation.scoresheet.readings import Reading
from notation.scoresheet.search import CONFIDENCE_GAP

if TYPE_CHECKING:  # pragma: no cover
    from notation.formats.position import Position
    from notation.pgn.model import Game
    from notation.rules.move import Move


#: Readings listed at most (the cheapest found, then ranked): room for a many-way tie of an
#: omitted waiting move.
MAX_READINGS = 10


#: Corrections below this confidence make the sheet "needs a human".
CONFIDENCE_THRESHOLD = 0.6


def confidence_of(gap: float) -> float:
    """Confidence of a correction whose nearest rival reading costs ``gap`` more (0..1)."""
    return round(min(1.0, gap / CONFIDENCE_GAP), 3)


@dataclass(frozen=True, slots=True)
class Correction:
    """One place where the game differs from a literal reading of the sheet.

    ``kind``: ``correction`` (a written move read as a different legal move), ``ambiguous`` (a
    written move that fits several legal moves, resolved by the rest of the game),
    ``omitted`` (a move missing from the sheet, inserted), ``extra`` (a cell dropped),
    ``transposed`` (two cells played in swapped order), ``unreadable`` (a cell that is no move in
    any notation, read as the closest legal move). ``reasons`` name the edits (``wrong piece
    letter``, ``target square one rank off`` ...). ``alternatives`` are the other moves that
    were considered for the cell, best first.
    """

    kind: str
    ply: int | None
    written: str | None
    chosen: str | None
    alternatives: tuple[str, ...] = ()
    confidence: float = 1.0
    cost: float = 0.0
    reasons: tuple[str, ...] = ()
    line: int | None = None
    column: int | None = None

    @property
    def confident(self) -> bool:
        return self.confidence >= CONFIDENCE_THRESHOLD

    def message(self) -> str:
        """A one-line human description (lower case, written text quoted)."""
        written = f"'{self.written}'" if self.written is not None else "nothing"
        if self.kind == "omitted":
            text = f"move missing from the sheet: inserted {self.chosen}"
        elif self.kind == "extra":
            text = f"written {written} is no move of the game: dropped"
        elif self.kind == "ambiguous":
            text = f"written {written} fits several moves: {self.chosen} is the one the rest of the game needs"
        elif self.kind == "transposed":
            text = f"written {written} in the wrong order: played {self.chosen}"
        elif self.kind == "unreadable":
            text = f"written {written} is unreadable: read as {self.chosen}"
        else:
            text = f"written {written} read as {self.chosen}"
        if self.reasons:
            text += f" ({', '.join(self.reasons)})"
        if self.alternatives:
            text += f"; also considered {', '.join(self.alternatives)}"
        return f"{text}; confidence {self.confidence:.2f}"

    def to_diagnostic(self) -> Diagnostic:
        code = "sheet.unreadable" if self.kind == "unreadable" else "sheet.correction"
        severity = None if self.confident else "error"
        return Diagnostic.make(
            code, self.message(), severity=severity, line=self.line, column=self.column,
            ply=self.ply, san=self.written, candidates=(self.chosen,) + self.alternatives if self.chosen else self.alternatives,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "ply": self.ply, "written": self.written, "chosen": self.chosen,
            "alternatives": list(self.alternatives), "confidence": self.confidence,
            "cost": self.cost, "reasons": list(self.reasons), "line": self.line, "column": self.column,
        }


@dataclass(slots=True)
class Reconstruction:
    """The outcome of :func:`reconstruct`.

    ``status``: ``ok`` (read as written, no correction), ``corrected`` (only confident
    corrections), ``needs-human`` (no confident reading: see ``corrections`` and
    ``candidates``). ``sans`` is the game in canonical SAN; ``written`` the cell text behind
    each ply (None for an inserted move).
    """

    status: str
    sans: list[str] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    written: list[str | None] = field(default_factory=list)
    start_fen: str | None = None
    tags: dict[str, str] = field(default_factory=dict)
    result: str = "*"
    corrections: list[Correction] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    cost: float = 0.0
    language: str = "en"
    layout: str = "numbered"
    candidates: list[tuple[float, list[str]]] = field(default_factory=list)
    #: the complete readings found, likeliest first (see :mod:`notation.scoresheet.readings`)
    readings: list[Reading] = field(default_factory=list)
    start_ply: int = 0  # plies before the first move (fullmove number and turn of the start)
    chess960: bool = False  # castling by Chess960 rules (a PGN game with a Chess960 [Variant])
    #: the channel reading's extras (:mod:`notation.scoresheet.copies`): every box of every copy as
    #: read, each move's probability, the reading's probability, the copies read
    boxes: list[Any] = field(default_factory=list)
    per_move: list[Any] = field(default_factory=list)
    reading_confidence: float | None = None
    copies: int = 1

    @property
    def needs_human(self) -> bool:
        return self.status == "needs-human"

    @property
    def confidence(self) -> float:
        """The lowest confidence of any correction (1.0 when none)."""
        return min((c.confidence for c in self.corrections), default=1.0)

    def start_position(self) -> Position:
        from notation.formats.fen import STARTING_FEN
        from notation.formats.position import Position

        if self.chess960:
            return Position.from_fen(self.start_fen or STARTING_FEN, chess960=True)
        return Position.from_fen(self.start_fen) if self.start_fen else Position.initial()

    def position_after(self, ply: int) -> Position:
        """The position after ``ply`` plies of the reconstructed game (0: the start)."""
        pos = self.start_position()
        for move in self.moves[:ply]:
            pos = pos.play(move)
        return pos

    def corrected_plies(self) -> dict[int, Correction]:
        """Correction per ply (1-based) for plies that differ from the literal sheet."""
        return {c.ply: c for c in self.corrections if c.ply is not None}

    def game(self, *, annotate: bool = True) -> Game:
        """The reconstructed game as a :class:`notation.pgn.model.Game` (corrections as comments)."""
        from notation.pgn.model import Game, MoveNode

        per_ply = self.corrected_plies()
        nodes: list[MoveNode] = []
        for index, san in enumerate(self.sans, start=1):
            node = MoveNode(san)
            fix = per_ply.get(index)
            if annotate and fix is not None:
                node.comments.append(_comment(fix))
            nodes.append(node)
        return Game(tags=dict(self.tags), moves=nodes, result=self.result)

    def pgn(self, *, annotate: bool = True) -> str:
        """The game in PGN export format (via :func:`notation.pgn.writer.write_game`)."""
        from notation.pgn.writer import write_game

        return write_game(self.game(annotate=annotate))

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status, "language": self.language, "layout": self.layout,
            "cost": self.cost, "moves": list(self.sans), "result": self.result, "tags": dict(self.tags),
            "corrections": [c.to_dict() for c in self.corrections],
            "candidates": [{"cost": c, "moves": m} for c, m in self.candidates],
            "readings": [r.to_dict(rank) for rank, r in enumerate(self.readings, 1)],
            **({"confidence": self.reading_confidence, "copies": self.copies,
                "per_move": [m.to_dict() for m in self.per_move], "boxes": [b.to_dict() for b in self.boxes]}
               if self.reading_confidence is not None else {}),
        }


def _comment(fix: Correction) -> str:
    if fix.kind == "omitted":
        return "sheet: move missing, inserted"
    if fix.kind == "ambiguous":
        return f'sheet: "{fix.written}" ambiguous, resolved'
    if fix.kind == "transposed":
        return f'sheet: written "{fix.written}", order swapped'
    return f'sheet: written "{fix.written}", corrected'


def _san_list(start: Position, moves: Iterable[Move]) -> list[str]:
    out: list[str] = []
    pos = start
    for move in moves:
        out.append(pos.san(move))
        pos = pos.play(move)
    return out


@cache
def _tag_name() -> re.Pattern[str]:
    """PGN tag-name syntax, taken from ``grammars/tokens.lark`` (``TAG_NAME``)."""
    return re.compile(terminal_patterns("tokens")["TAG_NAME"])


def parse_tags(text: str) -> tuple[dict[str, str], list[str]]:
    """``"White=Anna,Black=Bernd"`` as tags, and the entries that are no ``Name=value`` pair
    with a valid PGN tag name (as written; empty entries between commas are skipped)."""
    out: dict[str, str] = {}
    bad: list[str] = []
    for part in text.split(","):
        if not part.strip():
            continue
        name, eq, value = part.partition("=")
        name = name.strip()
        if not eq or not _tag_name().fullmatch(name):
            bad.append(part.strip())
            continue
        out[name] = value.strip()
    return out, bad


def _parse_tags(tags: dict[str, str] | str | None) -> tuple[dict[str, str], list[str]]:
    if tags is None:
        return {}, []
    if isinstance(tags, dict):
        good = {k: v for k, v in tags.items() if _tag_name().fullmatch(k)}
        return good, [f"{k}={v}" for k, v in tags.items() if k not in good]
    return parse_tags(tags)


def _implied_result(pos: Position) -> str:
    """The result the final position decides (mate, stalemate, dead position), else ``*``."""
    if pos.is_checkmate():
        return "0-1" if pos.turn else "1-0"
    if pos.is_stalemate() or pos.is_dead_position():
        return "1/2-1/2"
    return "*"


_ROSTER_DEFAULTS = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?"}


def roster_tags(tags: dict[str, str], result: str, start_fen: str | None) -> dict[str, str]:
    """The game's tags in PGN order: the Seven Tag Roster (``?`` where unknown, ``Result`` as
    given), the other tags, then ``SetUp``/``FEN`` when the game starts from ``start_fen``."""
    full = {name: tags.get(name, default) for name, default in _ROSTER_DEFAULTS.items()}
    full["Result"] = result
    for name, value in tags.items():
        if name not in full:
            full[name] = value
    if start_fen:
        full["SetUp"] = "1"
        full["FEN"] = start_fen
    return full


def merge_tags(sheet_tags: list[dict[str, str]], tags: dict[str, str] | str | None, fen: str | None
               ) -> tuple[dict[str, str], list[Diagnostic], str | None]:
    """The tags of a game from its sheets' headers (the first copy that has one wins) and the
    user's ``tags`` over them, the diagnostics of bad ``tags`` entries, and the start FEN (the
    given one, else a ``FEN`` tag)."""
    merged: dict[str, str] = {}
    for found in sheet_tags:
        for name, value in found.items():
            merged.setdefault(name, value)
    extra_tags, bad_tags = _parse_tags(tags)
    merged.update(extra_tags)
    diagnostics: list[Diagnostic] = [
        Diagnostic.make("sheet.bad-tag", f"tag {entry!r} is no Name=value pair with a PGN tag name: ignored", san=entry)
        for entry in bad_tags]
    if fen is None and merged.get("FEN"):
        fen = merged["FEN"]
    return merged, diagnostics, fen
