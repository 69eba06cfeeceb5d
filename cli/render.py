"""Small shared helpers for the commands: exit codes, JSON output, compiler-style lines.

Library code returns data; commands render it here and pick the exit code:
0 clean, 1 problems found, 2 usage or I/O failure.
"""

from __future__ import annotations

import json
import re
import sys
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - the game reader is imported when a game is read, not at start-up
    from notation.diagnostics import Diagnostic
    from notation.pgn.chunks import RawGame, ReadFailure

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2


class TableFormat(str, Enum):
    """``--format`` of the commands that print one table (``ledger``, ``players``, ``standings``)."""

    table = "table"
    csv = "csv"
    json = "json"


#: the help of the PATHS argument of the commands that read games tables (:mod:`notation.cli.inputs`)
TABLE_INPUTS_HELP = "PGN files, folders of PGN files, or datasets written by `notation import`."
#: the help of ``--jobs`` in every command that reads games (:mod:`notation.parallel`)
JOBS_HELP = "Worker processes (0 = one per CPU; at most the CPUs available); the output is identical."
#: the help of ``--aliases`` (:mod:`notation.tables.players`)
ALIASES_HELP = (
    "A CSV of 'name,canonical name' rows: each name counts as its canonical name (players "
    "with the same FIDE id are one player anyway; `notation players` lists look-alikes)."
)
#: the help of ``--exact`` (names and events match a part, any case, accents ignored, without it)
EXACT_HELP = "Names and events match as a whole (case, accents and spacing still ignored), not a part."


#: Characters a terminal may act on instead of showing: C0 controls (tab and line ends too: a
#: diagnostic or a cell is one line), DEL, C1 controls (8-bit CSI/OSC), and the Unicode line,
#: paragraph and bidirectional-override controls that can make text read differently than it is.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every control character written as a visible escape (``ESC`` -> ``\\x1b``),
    so that input text (tag values, moves as written, file names) printed to a terminal can
    neither move the cursor, retitle the window, hide itself nor break a line."""
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


#: Cell starts that make spreadsheets read a CSV cell as a formula (the OWASP CSV-injection rule).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def spreadsheet_safe(text: str) -> str:
    """A CSV text cell that no spreadsheet runs as a formula: one that starts with ``= + - @``,
    a tab or a carriage return gets a leading apostrophe. A plain number (``-3``, ``+0.5``) and a
    lone sign (the crosstable's forfeit marks ``+`` and ``-``) compute nothing and stay as they are."""
    if not text.startswith(_FORMULA_START) or len(text) == 1 or _PLAIN_NUMBER.fullmatch(text):
        return text
    return "'" + text


def error(message: str) -> None:
    """Print one message line to standard error, control characters escaped."""
    sys.stderr.write(printable(message) + "\n")
    sys.stderr.flush()


def dumps(value: Any, *, pretty: bool = False) -> str:
    """JSON text of ``value`` (UTF-8 kept as is, keys in insertion order)."""
    if pretty:
        return json.dumps(value, ensure_ascii=False, indent=2)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def game_context(number: int, white: str | None, black: str | None) -> str:
    """``game 4 (Carlsen–Anand)``; only the names that are known and not ``?``."""
    names = [n for n in (white, black) if n and n.strip() not in ("", "?")]
    if len(names) == 2:
        return f"game {number} ({names[0]}\u2013{names[1]})"
    if names:
        return f"game {number} ({names[0]})"
    return f"game {number}"


def diagnostic_line(diag: Diagnostic, context: str | None = None, start_ply: int = 0) -> str:
    """``file:line:col: severity[code] context, 12... Nxe5: message`` (one line):
    :meth:`notation.diagnostics.Diagnostic.render`, control characters escaped."""
    return printable(diag.render(context, start_ply))


def unread_line(raw: RawGame | ReadFailure, name: str | None) -> str:
    """What a command that copies games says of a read failure (its located ``pgn.io`` or
    ``pgn.not-pgn`` line), or of a whole game after which reading stopped (``io_error``, from a
    byte range of a file)."""
    from notation.pgn.chunks import ReadFailure

    if isinstance(raw, ReadFailure):
        diag = raw.diagnostic.located(file=name or raw.file)
        return diagnostic_line(diag, game_context(raw.number, None, None) if raw.line else None)
    return printable(f"{name or raw.file or '<input>'}: cannot read: {raw.io_error}")
