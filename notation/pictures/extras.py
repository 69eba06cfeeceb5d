"""The optional chart libraries (the ``notation[charts]`` extra: ``altair``, ``vl-convert-python``),
imported only when a picture needs them; without them :class:`ChartsUnavailable` says what to
install."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Final

INSTALL_HINT: Final = "charts need the optional extra: install notation[charts] (pip install 'notation[charts]')"


class ChartsUnavailable(RuntimeError):
    """The chart libraries (the ``notation[charts]`` extra) are not installed."""


def require(module: str) -> ModuleType:
    """Import ``module`` (``altair``, ``vl_convert``) or raise :class:`ChartsUnavailable`."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ChartsUnavailable(f"{INSTALL_HINT} ({module} is missing)") from exc


def available() -> bool:
    """True when charts (and PNG pictures) can be made here."""
    try:
        require("altair")
        require("vl_convert")
    except ChartsUnavailable:
        return False
    return True
