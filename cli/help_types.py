"""Readable types in ``--help``: ``N``, ``TEXT``, ``PATH``, ``text|json|jsonl`` and nothing for a
flag, instead of the annotations Typer prints by default (``<bool>``, ``<int range>``,
``<list[str]>``).

Typer renders a parameter's type through ``display_type_rich``; :func:`install` replaces it on
Typer's parameter classes for this process (the command line only; the library never imports
this module). A parameter with an explicit ``metavar`` keeps it.
"""

from __future__ import annotations

import re
from typing import Any

_NAMES = {
    "int": "N", "int range": "N", "float": "NUMBER", "float range": "NUMBER", "str": "TEXT",
    "path": "PATH", "file": "FILE", "directory": "DIR", "bool": "",
}


def readable(label: str | None) -> str | None:
    """``<int range>`` -> ``N``, ``<list[str]>`` -> ``TEXT...``, ``<a|b>`` -> ``a|b``."""
    if not label:
        return label
    inner = label[1:-1] if label.startswith("<") and label.endswith(">") else label
    repeated = ""
    match = re.fullmatch(r"list\[(.*)\](\.\.\.)?", inner)
    if match:
        inner, repeated = match.group(1), "..."
    if inner.endswith("..."):
        inner, repeated = inner[:-3], "..."
    name = _NAMES.get(inner.lower(), inner)
    return (name + repeated) if name else None


def install() -> None:
    """Make Typer's help show readable types (idempotent; a no-op on Typer versions without the
    hook)."""
    try:
        from typer.core import TyperArgument, TyperOption
    except ImportError:  # pragma: no cover - an older Typer
        return
    if getattr(TyperOption, "_notation_readable", False) or not hasattr(TyperOption, "display_type_rich"):
        return
    option_type = TyperOption.display_type_rich

    def option_display(self: Any, ctx: Any) -> str | None:
        if self.metavar is not None:
            return str(self.metavar)
        if getattr(self, "is_flag", False) or getattr(self, "is_bool_flag", False):
            return None
        return readable(option_type(self, ctx))

    def argument_display(self: Any, ctx: Any) -> str | None:
        return None  # the name column already shows the argument (``PATH...``)

    TyperOption.display_type_rich = option_display  # type: ignore[method-assign]
    TyperArgument.display_type_rich = argument_display  # type: ignore[method-assign]
    TyperOption._notation_readable = True  # type: ignore[attr-defined]
