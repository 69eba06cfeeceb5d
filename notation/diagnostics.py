"""Diagnostics: the one value type for everything the toolkit finds wrong (or notable) in input.

Errors are data. Every reader, replayer and checker returns :class:`Diagnostic` values instead
of raising; the CLI renders them like a compiler (``path:line:col: error[code] game N, ...``).

Codes are stable, dotted identifiers (``san.illegal``, ``pgn.unclosed-comment``). Every code
used anywhere in the library is registered in :data:`CODES` with its default severity and a
one-line meaning; a test checks that. Add new codes here, never rename old ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from json.encoder import encode_basestring
from typing import Any, Literal

Severity = Literal["error", "warning", "info"]

ERROR: Severity = "error"
WARNING: Severity = "warning"
INFO: Severity = "info"

SEVERITY_RANK: dict[str, int] = {"info": 0, "warning": 1, "error": 2}

#: A game's status, from the worst severity among its diagnostics (``unsupported``: a variant
#: that is not checked).
STATUSES: tuple[str, ...] = ("ok", "warning", "error", "unsupported")

# code -> (default severity, meaning)
CODES: dict[str, tuple[Severity, str]] = {
    # --- reading / syntax ---
    "pgn.syntax": (ERROR, "text that the PGN grammar does not accept"),
    "pgn.unexpected-token": (ERROR, "a token that cannot stand where it was found"),
    "pgn.unclosed-comment": (ERROR, "a '{' comment with no closing '}' before the next game"),
    "pgn.unclosed-variation": (ERROR, "a '(' variation with no closing ')'"),
    "pgn.unmatched-paren": (ERROR, "a ')' with no opening '('"),
    "pgn.bad-tag": (ERROR, "a malformed tag pair"),
    "pgn.duplicate-tag": (WARNING, "the same tag name given twice in one game"),
    "pgn.oversized-game": (ERROR, "a game larger than the configured size cap; skipped"),
    "pgn.too-deep": (WARNING, "a variation nested deeper than the reader keeps (64 levels); not read"),
    "pgn.encoding": (WARNING, "not valid UTF-8; decoded as Latin-1/CP1252"),
    "pgn.missing-result": (ERROR, "movetext that ends without a game termination marker"),
    "pgn.result-mismatch": (ERROR, "the termination marker disagrees with the Result tag"),
    "pgn.lenient-token": (WARNING, "a non-standard token accepted in its canonical form"),
    "pgn.empty-game": (WARNING, "a game with no moves"),
    "pgn.comment-after-result": (INFO, "a comment after the game termination marker, outside the game"),
    "pgn.io": (ERROR, "the file could not be read"),
    "pgn.not-pgn": (
        ERROR,
        "a file (or a long start of one) with no PGN structure: no tag pair, move number, move or result",
    ),
    # --- SAN ---
    "san.invalid": (ERROR, "text that is not a move in standard algebraic notation"),
    "san.unknown-piece": (ERROR, "a piece letter that is not K, Q, R, B or N"),
    "san.illegal": (ERROR, "no legal move matches the SAN"),
    "san.ambiguous": (ERROR, "several legal moves match the SAN"),
    "san.lenient": (WARNING, "non-standard but unambiguous notation (0-0, e8Q, superfluous disambiguation, ...)"),
    "san.check-suffix": (WARNING, "a missing or wrong '+' / '#' suffix"),
    "san.null-move": (WARNING, "a null move '--'"),
    "movenumber.mismatch": (WARNING, "a move number that disagrees with the ply"),
    # --- positions ---
    "fen.invalid": (ERROR, "a FEN (or SetUp position) that is not a legal chess position"),
    "pgn.utf16-inside": (ERROR, "UTF-16 text after other text in one source (files joined): located, not read"),
    "fen.chess960-castling": (
        WARNING,
        "KQkq castling rights in a FEN that fit only Chess960, without a Variant tag: dropped",
    ),
    "variant.unsupported": (INFO, "a variant other than standard chess or Chess960"),
    # --- game end and result ---
    "game.move-after-end": (ERROR, "a move played after checkmate or stalemate"),
    "game.move-after-fivefold": (WARNING, "moves played after a fivefold repetition ended the game"),
    "game.move-after-75-moves": (WARNING, "moves played after the 75-move rule ended the game"),
    "game.dead-position": (
        INFO,
        "the first dead position: neither side can checkmate by any series of legal moves (5.2.2: the game is drawn)",
    ),
    "game.move-after-dead-position": (WARNING, "moves played after a dead position ended the game"),
    "game.too-long": (
        ERROR,
        "a line of play longer than any game can last (17,697 plies, 9.6.2); the rest is not read",
    ),
    "result.mismatch": (ERROR, "the Result tag contradicts the final position"),
    "result.time-bare-king": (
        ERROR,
        "a win on time for a side that has only its king (retired: now result.time-unwinnable, reason bare king)",
    ),
    "result.time-unwinnable": (
        ERROR,
        "a win on time for a side that cannot checkmate by any series of legal moves (6.9: draw); the reason: bare king, material, blocked position or forced line",
    ),
    "result.time-undecided": (
        INFO,
        "a win on time where the search budget ran out before deciding whether the winner could still checkmate",
    ),
    "result.missing": (ERROR, "no Result tag and no termination marker"),
    "tags.missing-roster": (INFO, "a Seven Tag Roster tag is missing (a warning with --pedantic)"),
    "tags.bad-result": (ERROR, "a Result tag that is not 1-0, 0-1, 1/2-1/2 or *"),
    "tags.bad-date": (WARNING, "a date that is not YYYY.MM.DD (with ?? for unknown parts)"),
    # --- information ---
    "claim.threefold": (INFO, "first ply at which a threefold-repetition claim was valid (10.10)"),
    "claim.fifty-moves": (INFO, "first ply at which a fifty-move claim was valid (10.12)"),
    "claim.fivefold": (INFO, "first ply at which the position occurred five times"),
    "claim.seventyfive-moves": (INFO, "first ply at which 75 moves passed without capture or pawn move"),
    "pattern.perpetual-check": (INFO, "a sequence of consecutive checks ending in a repetition"),
    "internal.error": (ERROR, "an internal failure while checking a game (a bug: please report it)"),
    # --- tables: stats, standings, ledger ---
    "table.value-out-of-range": (
        WARNING,
        "a value its table column cannot hold (an Elo, a clock, an evaluation, a move number, ...); stored as null",
    ),
    "dataset.bad-part": (
        ERROR,
        "a Parquet part of a dataset that cannot be read (corrupt, truncated or of another table)",
    ),
    "ledger.unnamed-player": (WARNING, "a decisive or drawn game without both player names; not applied to the ledger"),
    "ledger.self-game": (WARNING, "a player paired with himself; the game is not applied to the ledger"),
    "ledger.bad-initial": (ERROR, "a row of the --initial CSV that is not 'player,points'"),
    "standings.mixed-events": (WARNING, "games of several events combined into one table (no --event given)"),
    "standings.unnamed-player": (WARNING, "a game without both player names; left out of the table"),
    "standings.self-game": (WARNING, "a player paired with himself; the game is left out of the table"),
    "standings.unfinished": (INFO, "an unfinished game ('*') left out of scores and tie-breaks"),
    "standings.forfeit": (INFO, "a decisive game without moves scored as a forfeit"),
    "standings.invalid-game": (WARNING, "a game scored in the table fails validation (as `notation validate` says)"),
    "players.bad-alias": (ERROR, "a row of the --aliases CSV that is not 'name,canonical name'"),
    "tree.no-position-keys": (
        ERROR,
        "a dataset without moves or position keys: the opening explorer cannot find positions in it",
    ),
    # --- pictures: board diagrams and charts ---
    "picture.no-such-game": (ERROR, "a game number beyond the games of the input"),
    "picture.no-such-ply": (ERROR, "a ply beyond the legal moves of the game's mainline"),
    "picture.no-data": (
        ERROR,
        "nothing to draw: the games lack what the chart needs (ratings, dates, clocks, evaluations)",
    ),
    # --- scoresheets ---
    "sheet.correction": (WARNING, "a written move replaced by the closest legal move"),
    "sheet.unreadable": (ERROR, "a written token that is not a move in any supported notation"),
    "sheet.needs-human": (ERROR, "no confident reconstruction; a human must decide"),
    "sheet.too-long": (ERROR, "a scoresheet with more boxes than any game has: the rest is not read"),
    "sheet.blank": (WARNING, "a blank box read as the move the rest of the game needs"),
    "sheet.after-end": (WARNING, "boxes written after the game ended (mate or stalemate), read as no move"),
    "sheet.bad-tag": (WARNING, "a tag given for a scoresheet that is no Name=value pair with a PGN tag name; ignored"),
    "sheet.pin": (ERROR, "a move a reviewer pinned that no reading of the sheet can play at its ply"),
}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding, located as precisely as the input allows.

    ``line`` and ``column`` are 1-based and count in the whole *file*, not the game. ``ply``
    counts half-moves from 1 (White's first move of a game from the initial position is ply 1).
    ``san`` is the move text as written; ``fen`` the position before that move.
    """

    code: str
    severity: Severity
    message: str
    file: str | None = None
    game: int | None = None
    line: int | None = None
    column: int | None = None
    ply: int | None = None
    san: str | None = None
    fen: str | None = None
    candidates: tuple[str, ...] = field(default=())

    @classmethod
    def make(cls, code: str, message: str, **where: Any) -> Diagnostic:
        """A diagnostic with the registered default severity of ``code``."""
        severity = where.pop("severity", None) or CODES[code][0]
        return cls(code=code, severity=severity, message=message, **where)

    @classmethod
    def missing_file(cls, path: str, also: str = "") -> Diagnostic:
        """The one finding for a path that does not exist (``pgn.io``, "no such file or
        directory", the path as given; ``also``: what else the text was not, as ``and not a FEN``)."""
        return cls.make("pgn.io", "no such file or directory" + (f", {also}" if also else ""), file=path)

    def located(self, **where: Any) -> Diagnostic:
        """A copy with location fields filled in (only those given)."""
        return replace(self, **where)

    def in_game(self, file: str | None, game: int | None, line: int | None) -> Diagnostic:
        """``located(file=file, game=game, line=line)``, built directly (once per diagnostic of
        every report: :func:`dataclasses.replace` costs several times more)."""
        return Diagnostic(
            self.code,
            self.severity,
            self.message,
            file,
            game,
            line,
            self.column,
            self.ply,
            self.san,
            self.fen,
            self.candidates,
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (the ``diagnostics`` items of the validate jsonl contract)."""
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "line": self.line,
            "column": self.column,
            "ply": self.ply,
            "san": self.san,
        }
        if self.fen is not None:
            out["fen"] = self.fen
        if self.candidates:
            out["candidates"] = list(self.candidates)
        return out

    def to_json(self) -> str:
        """``to_dict()`` as compact JSON text (UTF-8 kept), written out directly: the same text
        as ``json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))``."""
        line, column, ply, san = self.line, self.column, self.ply, self.san
        text = (
            f'{{"code":{encode_basestring(self.code)},"severity":{encode_basestring(self.severity)},'
            f'"message":{encode_basestring(self.message)},'
            f'"line":{"null" if line is None else int.__repr__(line)},"column":{"null" if column is None else int.__repr__(column)},'
            f'"ply":{"null" if ply is None else int.__repr__(ply)},"san":{"null" if san is None else encode_basestring(san)}'
        )  # (json_int and json_string written out: this runs for every diagnostic of every report)
        if self.fen is not None:
            text += f',"fen":{json_string(self.fen)}'
        if self.candidates:
            text += ',"candidates":[' + ",".join(json_string(c) for c in self.candidates) + "]"
        return text + "}"

    def place(self) -> str:
        """``file:line:col`` as far as it is known (no line, or line 0: the file alone)."""
        where = self.file or "<input>"
        if self.line:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where

    def render(self, context: str | None = None, start_ply: int = 0) -> str:
        """Compiler-style one-liner: ``file:line:col: severity[code] context, 12... Nxe5: message``
        (the one rendering of a diagnostic as text; line None or 0: no line known, so none is
        written). ``start_ply``: plies before the game's start position (a FEN game's labels)."""
        head = f"{self.place()}: {self.severity}[{self.code}]"
        parts = [p for p in (context, ply_label(self.ply, self.san, start_ply)) if p]
        if parts:
            head += " " + ", ".join(parts)
        return f"{head}: {self.message}"


def ply_label(ply: int | None, san: str | None, start_ply: int = 0) -> str | None:
    """``12... Nxe5`` style label for a ply (1-based, counted from the initial position)."""
    if ply is None:
        return None
    number, colour = ply_to_move_number(ply + start_ply)
    dots = "." if colour == "white" else "..."
    return f"{number}{dots} {san}" if san else f"{number}{dots}"


def ply_to_move_number(ply: int) -> tuple[int, Literal["white", "black"]]:
    """(move number, colour) of a 1-based ply counted from move 1 with White to move."""
    return (ply + 1) // 2, ("white" if ply % 2 == 1 else "black")


#: Codes that are information by default, because sound games of common exports carry them
#: (a Lichess API export has no ``[Round]``), and warnings in a pedantic check of the PGN standard.
PEDANTIC_CODES: frozenset[str] = frozenset({"tags.missing-roster"})


def worst_severity(diagnostics: list[Diagnostic] | tuple[Diagnostic, ...]) -> Severity | None:
    """The most severe severity among ``diagnostics`` (None when empty)."""
    worst: Severity | None = None
    for d in diagnostics:
        if worst is None or SEVERITY_RANK[d.severity] > SEVERITY_RANK[worst]:
            worst = d.severity
    return worst


def json_string(value: str | None) -> str:
    """A JSON string (or null) as ``json.dumps(value, ensure_ascii=False)`` writes it."""
    return "null" if value is None else encode_basestring(value)


def json_int(value: int | None) -> str:
    """A JSON integer (or null) as ``json.dumps`` writes it."""
    return "null" if value is None else int.__repr__(value)
