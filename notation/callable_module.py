"""Modules that are also callable, for public functions named like their module.

``notation.validate``, ``notation.replay``, ``notation.ledger`` and ``notation.standings`` are
exported as *functions* (lazy exports in ``notation/__init__.py``), but once the submodule of the
same name is imported, Python's import system binds the package attribute to the *module*.
Making that module forward calls to its function keeps ``notation.validate(path)`` and
``import notation.validate as module`` both working, whichever happened first.
"""

from __future__ import annotations

import sys
import types
from typing import Any


def make_module_callable(module_name: str, function_name: str) -> None:
    """Let calling the module ``module_name`` call its function ``function_name``."""
    module = sys.modules[module_name]

    class _CallableModule(types.ModuleType):
        def __call__(self, *args: Any, **kwargs: Any) -> Any:
            return getattr(self, function_name)(*args, **kwargs)

    module.__class__ = _CallableModule
