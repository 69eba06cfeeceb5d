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
    "int": "N",
    "int range": "N",
    "float": "NUMBER",
    "float range": "NUMBER",
    "str": "TEXT",
    "path": "PATH",
    "file": "FILE",
    "directory": "DIR",
    "bool": "",
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
    """Make Typer's help show readable types (idempotent). Typer 0.29 and later render a type
    through ``display_type_rich``; earlier ones through an option's ``make_metavar`` and an
    argument's ``type.get_metavar`` (``<path>`` when that is None): each is wrapped here."""
    try:
        from typer.core import TyperArgument, TyperOption
    except ImportError:  # pragma: no cover - an older Typer
        return
    if getattr(TyperOption, "_notation_readable", False):
        return
    option_cls: Any = TyperOption
    if hasattr(option_cls, "display_type_rich"):
        _install_display_type(option_cls, TyperArgument)
    else:
        _install_metavars(option_cls, TyperArgument)
    option_cls._notation_readable = True


def _is_flag(param: Any) -> bool:
    return bool(getattr(param, "is_flag", False) or getattr(param, "is_bool_flag", False))


def _install_display_type(option_cls: Any, argument_cls: Any) -> None:
    option_type = option_cls.display_type_rich

    def option_display(self: Any, ctx: Any) -> str | None:
        if self.metavar is not None:
            return str(self.metavar)
        if _is_flag(self):
            return None
        return readable(option_type(self, ctx))

    def argument_display(self: Any, ctx: Any) -> str | None:
        return None  # the name column already shows the argument (``PATH...``)

    option_cls.display_type_rich = option_display
    argument_cls.display_type_rich = argument_display


def _install_metavars(option_cls: Any, argument_cls: Any) -> None:
    import importlib

    param_type: Any = importlib.import_module("typer._click.types").ParamType
    option_metavar = option_cls.make_metavar

    def make_metavar(self: Any, ctx: Any) -> str:
        shown = option_metavar(self, ctx=ctx)
        if self.metavar is not None or _is_flag(self):
            return str(shown)
        return readable(shown) or ""

    base_metavar = param_type.get_metavar

    def get_metavar(self: Any, param: Any, ctx: Any) -> str | None:
        found = base_metavar(self, param=param, ctx=ctx)
        # an argument's name column already shows it: no type beside it ("" is none, None <type>)
        return "" if found is None and isinstance(param, argument_cls) else found

    option_cls.make_metavar = make_metavar
    param_type.get_metavar = get_metavar
