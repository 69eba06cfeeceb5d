"""Loading the Lark grammars shipped in the ``grammars`` package (its installed location).

Every parser is built once per process and cached. When the optional ``lark-cython`` plugin is
installed (``notation[fast]``) it is used for LALR parsers, unless ``NOTATION_PURE_LARK=1`` is
set (tests use that to check both give identical results).
"""

from __future__ import annotations

import importlib.resources
import os
from functools import lru_cache
from typing import Any

from lark import Lark


@lru_cache(maxsize=None)
def grammar_text(name: str) -> str:
    """The text of ``grammars/<name>.lark`` from the installed package data."""
    return importlib.resources.files("grammars").joinpath(f"{name}.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def lark_cython_available() -> bool:
    """True when the lark-cython plugin can be used (installed and not disabled with
    ``NOTATION_PURE_LARK=1``); decided once per process."""
    if os.environ.get("NOTATION_PURE_LARK") == "1":
        return False
    try:
        import lark_cython  # noqa: F401
    except ImportError:
        return False
    return True


def build_parser(
    name: str, *, text: str | None = None, use_cython: bool | None = None, **options: Any
) -> Lark:
    """A new LALR parser for ``grammars/<name>.lark`` (``options`` go to :class:`lark.Lark`).

    ``text`` replaces the file's text (for grammars filled in per use, like the scoresheet's
    piece letters). Callers cache the result (module-level ``lru_cache``) since building costs
    milliseconds.
    """
    options.setdefault("parser", "lalr")
    if use_cython is None:
        use_cython = lark_cython_available()
    if use_cython and options["parser"] == "lalr":
        import lark_cython

        options["_plugins"] = lark_cython.plugins
    return Lark(grammar_text(name) if text is None else text, **options)
