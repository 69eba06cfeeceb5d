"""Rendering of tables for ``stats``, ``standings`` and ``ledger``: rich text, CSV, JSON.

Text tables go through rich. On a terminal they fit its width; when standard output is not a
terminal (pipes, files, tests) the width is unlimited, so the output never wraps and is the
same on every machine. Cells: null -> empty, floats by Python's shortest repr (no binary
noise), dates ISO. Text from the input is shown, never acted on: control characters are escaped
(:func:`notation.cli.render.printable`), rich markup in a value is printed as written, and a CSV
text cell that a spreadsheet would run as a formula is neutralised. JSON is an array of row objects, one object per line; values that are
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


def _csv_cell(value: Any) -> str:
    from notation.cli.render import printable, spreadsheet_safe

    text = printable(cell_text(value))
    if isinstance(value, (str, Decimal)) or value is None:
        return spreadsheet_safe(text) if isinstance(value, str) else text
    return text


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
    keys: int = 1,
) -> str:
    """A rich text table as a string (no colour, no trailing spaces) that never cuts a value.

    A table wider than the terminal is shown as several tables, each with the first ``keys``
    columns (the row's name: a player, an ECO code) and as many further columns as fit; a
    value wider than the terminal by itself is folded onto several lines, never truncated.
    """
    from rich.cells import cell_len
    from rich.text import Text

    from notation.cli.render import printable

    def text(value: Any) -> Text:  # a Text is never read as rich markup
        return Text(printable(cell_text(value)))

    width = _console_width()
    header = [text(name) for name in columns]
    body = [[text(value) for value in row] for row in rows]
    widths = [cell_len(h.plain) for h in header]
    for row in body:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], cell_len(cell.plain))
    keys = max(0, min(keys, len(columns) - 1))
    groups = _column_groups(widths, keys, width)
    right_set = set(right)
    justify = [name in right_set for name in columns]
    if len(groups) == 1:
        plain = _plain(
            header,
            body,
            widths,
            justify,
            None if title is None else text(title).plain,
            None if caption is None else text(caption).plain,
            width,
        )
        if plain is not None:
            return plain
    parts: list[str] = []
    for number, group in enumerate(groups):
        chosen = list(range(keys)) + group
        heading = title if number == 0 or title is None else f"{title} (continued)"
        parts.append(
            _render(
                [header[i] for i in chosen],
                [[row[i] for i in chosen] for row in body],
                [columns[i] in right_set for i in chosen],
                None if heading is None else text(heading),
                None if caption is None or number < len(groups) - 1 else text(caption),
                width,
            )
        )
    return "\n".join(parts)


def _column_groups(widths: Sequence[int], keys: int, width: int) -> list[list[int]]:
    """The non-key columns in runs that fit ``width`` beside the key columns (a rich table with
    n columns of widths w takes sum(w) + 3n + 1 cells); at least one column a run."""
    fixed = 1 + sum(w + 3 for w in widths[:keys])
    if fixed > 2 * width:
        # key columns over two widths (a value of megabytes): one table, folded; repeated in
        # each group they were the output times the number of columns
        return [list(range(keys, len(widths)))]
    groups: list[list[int]] = []
    used = fixed
    for index in range(keys, len(widths)):
        need = widths[index] + 3
        if groups and groups[-1] and used + need <= width:
            groups[-1].append(index)
            used += need
        else:
            groups.append([index])
            used = fixed + need
    return groups or [[]]


def _plain(
    header: list[Any],
    body: list[list[Any]],
    widths: Sequence[int],
    right: list[bool],
    title: str | None,
    caption: str | None,
    width: int,
) -> str | None:
    """The text :func:`_render` gives for a table that fits ``width`` as it is (no value folded,
    no line break in a value, title and caption no wider than the table), written directly:
    rich lays out each row in Python objects, which for a tree of 80,000 lines took a minute
    and gigabytes; this costs a string join per row. None when rich is needed."""
    from rich.cells import cell_len

    table_width = sum(w + 3 for w in widths) + 1
    if table_width > width:
        return None
    for extra in (title, caption):
        if extra is not None and ("\n" in extra or cell_len(extra) > table_width):
            return None

    def line(cells: list[Any]) -> str | None:
        out = [" "]
        for cell, w, is_right in zip(cells, widths, right):
            text = cell.plain
            if "\n" in text:
                return None
            fill = " " * (w - cell_len(text))
            out.append(f" {fill}{text} " if is_right else f" {text}{fill} ")
            out.append(" ")
        return "".join(out).rstrip()

    lines = [] if title is None else [title.rstrip()]
    lines.append("")
    head = line(header)
    if head is None:
        return None
    lines.append(head)
    lines.append(" " + "─" * (table_width - 2))
    for row in body:
        text = line(row)
        if text is None:
            return None
        lines.append(text)
    lines.append("")
    if caption is not None:
        lines.append(caption.rstrip())
    return "\n".join(lines) + "\n"


def _render(header: list[Any], body: list[list[Any]], right: list[bool], title: Any, caption: Any, width: int) -> str:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, caption=caption, box=box.SIMPLE_HEAD, title_justify="left", caption_justify="left")
    for name, is_right in zip(header, right):
        table.add_column(name, justify="right" if is_right else "left", overflow="fold")
    for row in body:
        table.add_row(*row)
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False, legacy_windows=False)
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
    writer.writerow([_csv_cell(name) for name in columns])
    for row in rows:
        writer.writerow([_csv_cell(v) for v in row])
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
    from notation.cli.render import diagnostic_line, printable

    if diag.file is None and diag.line is None:
        return printable(f"{diag.severity}[{diag.code}]: {diag.message}")
    context = f"game {diag.game}" if diag.game is not None else None
    return str(diagnostic_line(diag, context))
