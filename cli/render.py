"""Small shared helpers for the commands: exit codes, JSON output, compiler-style lines, progress.

Library code returns data; commands render it here and pick the exit code:
0 clean, 1 problems found, 2 usage or I/O failure.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from notation.diagnostics import Diagnostic, ply_label

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2


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
    """``file:line:col: severity[code] context, 12... Nxe5: message`` (one line)."""
    where = diag.file or "<input>"
    if diag.line:  # (None or 0: no line known)
        where += f":{diag.line}"
        if diag.column is not None:
            where += f":{diag.column}"
    head = f"{where}: {diag.severity}[{diag.code}]"
    parts = [p for p in (context, ply_label(diag.ply, diag.san, start_ply)) if p]
    if parts:
        head += " " + ", ".join(parts)
    return printable(f"{head}: {diag.message}")


class _Advance(Protocol):
    def __call__(self, games: int = 1) -> None: ...


@contextmanager
def progress(description: str, *, enabled: bool | None = None) -> Iterator[_Advance]:
    """A rich progress display on stderr, only when stderr is a terminal.

    Yields ``advance(n)``. Standard output is redirected above the bar only when it is the
    terminal too, so piped or redirected output is never mixed with the display.
    """
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield lambda games=1: None
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    columns = (SpinnerColumn(), TextColumn("{task.description}"), TextColumn("{task.completed} games"),
               TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True,
                  redirect_stdout=sys.stdout.isatty(), redirect_stderr=False) as bar:
        task = bar.add_task(description, total=None)

        def advance(games: int = 1) -> None:
            bar.advance(task, games)

        yield advance
