"""Rendering of tables for ``stats``, ``standings`` and ``ledger``: rich text, CSV, JSON.

Text tables go through rich. On a terminal they fit its width; when standard output is not a
terminal (pipes, files, tests) the width is unlimited, so the output never wraps and is the
same on every machine. Cells: null -> empty, floats by Python's shortest repr (no binary
noise), dates ISO. JSON is an array of row objects, one object per line; values that are
exact decimals (`decimal.Decimal`) are written as JSON numbers with all their digits.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import math
import shutil
import sys
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - polars is imported by the commands that build frames
    import polars as pl

UNLIMITED_WIDTH = 10_000


def cell_text(value: Any) -> str:
    """The text of one cell in text and CSV output."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Decimal):
        from notation.tables.ledger import format_points

        return format_points(value)
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return str(value)


def _console_width() -> int:
    if sys.stdout.isatty():
        return shutil.get_terminal_size((120, 24)).columns
    return UNLIMITED_WIDTH


def rich_table(
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    title: str | None = None,
    right: Iterable[str] = (),
    caption: str | None = None,
) -> str:
    """A rich text table as a string (no colour, no trailing spaces)."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    right_set = set(right)
    table = Table(title=title, caption=caption, box=box.SIMPLE_HEAD, title_justify="left", caption_justify="left")
    for name in columns:
        table.add_column(name, justify="right" if name in right_set else "left", no_wrap=True, overflow="fold")
    for row in rows:
        table.add_row(*(cell_text(v) for v in row))
    buffer = io.StringIO()
    console = Console(file=buffer, width=_console_width(), color_system=None, force_terminal=False, legacy_windows=False)
    console.print(table)
    return "\n".join(line.rstrip() for line in buffer.getvalue().splitlines()) + "\n"


def frame_table(df: pl.DataFrame, *, title: str | None = None, caption: str | None = None) -> str:
    """A DataFrame as a rich text table; numeric columns right-aligned."""
    right = [name for name, dtype in df.schema.items() if dtype.is_numeric()]
    return rich_table(df.columns, df.iter_rows(), title=title, right=right, caption=caption)


def csv_text(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """CSV with a header row (``\\n`` line ends)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([cell_text(v) for v in row])
    return buffer.getvalue()


def frame_csv(df: pl.DataFrame) -> str:
    """A DataFrame as CSV (same cell rules as the text table)."""
    return csv_text(df.columns, df.iter_rows())


def _json_value(value: Any) -> str:
    if isinstance(value, Decimal):
        return cell_text(value)
    if isinstance(value, float) and math.isnan(value):
        return "null"
    if isinstance(value, (dt.date, dt.datetime)):
        return json.dumps(value.isoformat())
    return json.dumps(value, ensure_ascii=False)


def _json_default(value: Any) -> Any:
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    raise TypeError(f"not JSON serialisable: {value!r}")


def json_object(row: Mapping[str, Any]) -> str:
    """One JSON object on one line."""
    if not any(isinstance(v, Decimal) or (isinstance(v, float) and math.isnan(v)) for v in row.values()):
        return json.dumps(row, ensure_ascii=False, default=_json_default)  # fast path, same text
    return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {_json_value(v)}" for k, v in row.items()) + "}"


def json_rows(rows: Iterable[Mapping[str, Any]], indent: str = "") -> str:
    """A JSON array of objects, one object per line."""
    items = [indent + "  " + json_object(row) for row in rows]
    if not items:
        return "[]"
    return "[\n" + ",\n".join(items) + "\n" + indent + "]"


def frame_json(df: pl.DataFrame, indent: str = "") -> str:
    """A DataFrame as a JSON array of row objects."""
    return json_rows(df.iter_rows(named=True), indent)


def diagnostic_text(diag: Any) -> str:
    """A diagnostic line for stderr; findings about the whole input have no ``<input>:`` prefix."""
    from notation.cli.render import diagnostic_line

    if diag.file is None and diag.line is None:
        return f"{diag.severity}[{diag.code}]: {diag.message}"
    context = f"game {diag.game}" if diag.game is not None else None
    return str(diagnostic_line(diag, context))
