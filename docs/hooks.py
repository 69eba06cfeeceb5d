"""The documentation's generated parts, written at build time by an MkDocs hook (``mkdocs.yml``:
``hooks``): the diagnostic codes table from :data:`notation.diagnostics.CODES`, the Parquet
column tables from :mod:`notation.tables.schema` and the API reference's list of public names
from :data:`notation.__all__`. A page asks for a part with a marker line (``<!-- codes -->``);
the pages can therefore never disagree with the code. The docstrings' Sphinx roles
(``:func:`x` ``) are shown as plain code. Importable without MkDocs (the tests call
:func:`expand` directly)."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _checkout_first() -> None:
    """Document the checkout beside this file, not another installed copy. (Called when a part is
    written: MkDocs puts the hook's folder first on ``sys.path`` while loading it, then pops the
    first entry, so a change made at import time would not last.)"""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


def codes_table() -> str:
    """Every registered diagnostic code with its default severity and meaning, in registry order."""
    _checkout_first()
    from notation.diagnostics import CODES

    rows = ["| code | severity | meaning |", "|---|---|---|"]
    for code, (severity, meaning) in CODES.items():
        rows.append(f"| `{code}` | {severity} | {_cell(meaning)} |")
    return "\n".join(rows)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _dtype_text(dtype: Any) -> str:
    """A column type as a reader wants it: an enum with its values, a list with its items."""
    import polars as pl

    if isinstance(dtype, pl.Enum):
        return "Enum: " + ", ".join(f"`{value}`" for value in dtype.categories.to_list())
    if isinstance(dtype, pl.List):
        return f"List({_dtype_text(dtype.inner)})"
    if isinstance(dtype, pl.Struct):
        return "Struct(" + ", ".join(f"{f.name}: {_dtype_text(f.dtype)}" for f in dtype.fields) + ")"
    return str(dtype)


def schema_table(table: str) -> str:
    """The columns of the ``games`` or ``moves`` table, in order, with their Polars types."""
    _checkout_first()
    from notation.tables.schema import GAMES_SCHEMA, MOVES_SCHEMA

    schema = {"games": GAMES_SCHEMA, "moves": MOVES_SCHEMA}[table]
    rows = ["| column | type |", "|---|---|"]
    for name, dtype in schema.items():
        rows.append(f"| `{name}` | {_cell(_dtype_text(dtype))} |")
    return "\n".join(rows)


def api_reference() -> str:
    """One mkdocstrings block per public name of ``notation``, grouped by its defining module."""
    _checkout_first()
    import notation

    by_module: dict[str, list[str]] = {}
    for name in notation.__all__:
        if name.startswith("__"):
            continue
        # through the lazy loader: an attribute may be a submodule of the same name (notation.convert)
        module = notation.__getattr__(name).__module__
        by_module.setdefault(module, []).append(name)
    parts = []
    for module in sorted(by_module):
        parts.append(f"## `{module}`\n")
        for name in sorted(by_module[module]):
            parts.append(f"::: {module}.{name}\n")
    return "\n".join(parts)


MARKERS: dict[str, Callable[[], str]] = {
    "<!-- codes -->": codes_table,
    "<!-- schema: games -->": lambda: schema_table("games"),
    "<!-- schema: moves -->": lambda: schema_table("moves"),
    "<!-- api -->": api_reference,
}


def expand(markdown: str) -> str:
    """``markdown`` with every marker line replaced by the part it names."""
    for marker, make in MARKERS.items():
        if marker in markdown:
            markdown = markdown.replace(marker, make())
    return markdown


def on_page_markdown(markdown: str, **_: Any) -> str:
    """The MkDocs hook: runs on each page's Markdown before it is rendered."""
    return expand(markdown)


#: A Sphinx role before a code span (``:func:`x` `` in a docstring, rendered as ``:func:<code>x``).
SPHINX_ROLE = re.compile(r":(?:func|class|meth|mod|data|attr|exc|obj):(?=<code>)")


def on_page_content(html: str, **_: Any) -> str:
    """The MkDocs hook after rendering: the docstrings' Sphinx roles shown as plain code."""
    return SPHINX_ROLE.sub("", html)
