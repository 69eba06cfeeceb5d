"""Build the ECO table (``eco.tsv``) from the Lichess ``chess-openings`` TSV files.

    python -m notation.cli.build_eco ../shared/corpus/openings/ -o notation/openings/eco.tsv

Reads every ``*.tsv`` file of the folder whose header is ``eco name pgn`` (the Lichess files
``a.tsv`` … ``e.tsv``, here ``lichess-chess-openings-a.tsv`` …), in file-name order, plays each
line's moves with the project's own SAN parser from the initial position and writes one row per
position reached: ``key`` (the position's repetition key, 16 hex digits), ``eco``, ``name``,
``ply`` (the line's length) and ``pgn`` (the line as written in the source). When several lines
reach one position the last in file order is kept, as Lichess's ``OpeningDb`` does (a map built
from the rows in order). The output is deterministic: it names the source files without their
folder, never a path or a date.

Source: https://github.com/lichess-org/chess-openings, CC0 1.0 Universal (public domain).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from notation.formats.san import SanError
from notation.openings.eco import TableEntry
from notation.formats.position import Position

#: The header line of a Lichess ``chess-openings`` source file.
SOURCE_HEADER = ("eco", "name", "pgn")
#: Move numbers in a line's movetext (``1.``, ``12...``), skipped.
_MOVE_NUMBER = re.compile(r"^\d+\.*$")

HEADER = """\
# ECO table of notation: the position each line of the Lichess opening table reaches.
# Source: lichess-org/chess-openings, https://github.com/lichess-org/chess-openings, released
#   under CC0 1.0 Universal (public domain dedication); files: {sources}.
# Built by `python -m notation.openings.build` (do not edit by hand); {count} positions.
# Columns: key = repetition key of the position after the moves (16 hex digits: the Polyglot
#   hash, en passant counted only when a capture is legal; notation.rules.position.Position.key),
#   eco, name, ply = the line's length in plies, pgn = the line as written in the source.
# When several lines reach one position, the last in file order is kept (as Lichess does).
key\teco\tname\tply\tpgn
"""


def source_files(folder: Path) -> list[Path]:
    """The Lichess TSV files of ``folder`` (header ``eco name pgn``), sorted by name."""
    found = []
    for path in sorted(folder.glob("*.tsv")):
        with path.open(encoding="utf-8") as handle:
            if tuple(handle.readline().rstrip("\n").split("\t")) == SOURCE_HEADER:
                found.append(path)
    return found


def play_line(pgn: str) -> tuple[Position, int]:
    """The position after the movetext ``pgn`` (move numbers skipped) and its length in plies;
    raises :class:`notation.formats.san.SanError` on a move that cannot be played."""
    pos = Position.initial()
    ply = 0
    for token in pgn.split():
        if _MOVE_NUMBER.match(token):
            continue
        _, pos = pos.play_san(token)
        ply += 1
    return pos, ply


def read_lines(paths: Sequence[Path]) -> tuple[list[TableEntry], list[str]]:
    """Every source line played out (its table row), in file order, and the problems
    (``file:line: message``)."""
    lines: list[TableEntry] = []
    problems: list[str] = []
    for path in paths:
        with path.open(encoding="utf-8") as handle:
            for number, text in enumerate(handle, 1):
                fields = text.rstrip("\n").split("\t")
                if number == 1 or not text.strip():
                    continue
                if len(fields) != 3:
                    problems.append(f"{path.name}:{number}: {len(fields)} fields, 3 expected")
                    continue
                eco, name, pgn = fields
                try:
                    pos, ply = play_line(pgn)
                except SanError as exc:
                    problems.append(f"{path.name}:{number}: {exc}")
                    continue
                lines.append(TableEntry(pos.key(), eco, name, ply, pgn))
    return lines, problems


def table_rows(lines: Sequence[TableEntry]) -> list[TableEntry]:
    """One row per position: the last line reaching it wins; rows keep source order."""
    last = {line.key: index for index, line in enumerate(lines)}
    return [line for index, line in enumerate(lines) if last[line.key] == index]


def render(rows: Sequence[TableEntry], sources: Sequence[str]) -> str:
    """The table file's text."""
    head = HEADER.format(sources=", ".join(sources), count=len(rows))
    body = "".join(f"{row.key:016x}\t{row.eco}\t{row.name}\t{row.ply}\t{row.pgn}\n" for row in rows)
    return head + body


def build(folder: Path) -> tuple[str, list[str]]:
    """The table text built from ``folder`` and the problems met (an empty text if no source)."""
    paths = source_files(folder)
    if not paths:
        return "", [f"{folder}: no Lichess chess-openings TSV file (header 'eco name pgn')"]
    lines, problems = read_lines(paths)
    return render(table_rows(lines), [p.name for p in paths]), problems
