"""The checkout works like the install: ``notation.cli`` and ``notation.grammars`` from the top
of the repository, and the compiled core from the last build, when ``notation`` is imported
from a checkout (its root on ``sys.path``: ``python`` run there, or an editable install).

The wheel installs ``cli/`` and ``grammars/`` inside the package (``build.rs`` stages them), so an
installed ``notation`` finds them as any subpackage. A checkout keeps them at the top of the
repository, beside ``notation/``: :func:`find_parts_beside` then puts a finder first on
``sys.meta_path`` that loads those two names from there, so an edit to a grammar or a command is
seen at once (also over the copies an editable build may leave inside ``notation/``). When the
checkout has no compiled core of its own (``pip install .`` builds it into site-packages only),
the finder loads the one installed for this interpreter. Nothing else is redirected, and
nothing at all outside a checkout (one is recognised by ``pyproject.toml`` and
``grammars/pgn.lark`` beside the package).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from collections.abc import MutableSequence, Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: The subpackages the repository keeps at its top, beside ``notation/``.
PARTS = ("cli", "grammars")


class _Beside:
    """A ``sys.meta_path`` finder for ``notation.cli``, ``notation.grammars`` (and, when the
    checkout has none, ``notation._core``) in a checkout whose top is ``top``."""

    def __init__(self, top: Path, package: Path) -> None:
        self.top = top
        self.package = package

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        head, _, name = fullname.partition(".")
        if head != "notation":
            return None
        if name in PARTS:
            init = self.top / name / "__init__.py"
            return importlib.util.spec_from_file_location(fullname, init, submodule_search_locations=[str(init.parent)])
        if name == "_core" and not _has_core(self.package):
            elsewhere = [str(Path(entry) / "notation") for entry in sys.path if _other(entry, self.top)]
            return importlib.machinery.PathFinder.find_spec(fullname, elsewhere)
        return None


def _has_core(package: Path) -> bool:
    """Whether the checkout's package holds a built core (an editable install puts it there)."""
    return any((package / f"_core{suffix}").is_file() for suffix in importlib.machinery.EXTENSION_SUFFIXES) or any(
        path.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) for path in package.glob("_core.*")
    )


def _other(entry: str, top: Path) -> bool:
    try:
        return Path(entry or ".").resolve() != top and (Path(entry) / "notation").is_dir()
    except OSError:
        return False


def find_parts_beside(package_path: MutableSequence[str]) -> None:
    """Install the finder when the package at ``package_path`` (``notation.__path__``) is a
    checkout's; once per process."""
    package = Path(package_path[0]).resolve()
    top = package.parent
    if not ((top / "pyproject.toml").is_file() and (top / "grammars" / "pgn.lark").is_file()):
        return
    if (top / "cli" / "__init__.py").is_file() and (top / "grammars" / "__init__.py").is_file():
        if not any(isinstance(finder, _Beside) for finder in sys.meta_path):
            sys.meta_path.insert(0, _Beside(top, package))
