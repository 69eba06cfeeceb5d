"""The compiled core (``notation._core``, Rust in ``src/``), when it is built and turned on.

``NOTATION_CORE=python`` (or ``0``, ``off``, ``no``) turns it off for a process: then the reader,
validation and tables use the pure-Python reference alone. Decided once per process.
"""

from __future__ import annotations

import os
from functools import lru_cache
from types import ModuleType

#: Environment variable choosing the implementation: ``python`` (or ``0``) for the reference.
CORE_VARIABLE = "NOTATION_CORE"


@lru_cache(maxsize=1)
def core_module() -> ModuleType | None:
    """The compiled core, or None when it is not built or turned off (``NOTATION_CORE``)."""
    if os.environ.get(CORE_VARIABLE, "").strip().lower() in ("0", "python", "off", "no"):
        return None
    try:
        from notation import _core
    except ImportError:
        return None
    return _core


@lru_cache(maxsize=1)
def solver_module() -> ModuleType | None:
    """The compiled core for its unwinnability search (:mod:`notation.validation.dead`), even
    with ``NOTATION_CORE`` off: the search lives in the core only, and both validation paths
    call it so that their reports agree. None when the core is not built."""
    try:
        from notation import _core
    except ImportError:
        return None
    return _core
