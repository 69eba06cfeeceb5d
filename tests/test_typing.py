"""``mypy --strict`` over the package as it installs (``cli/`` and ``grammars/`` inside it).

mypy cannot follow setuptools' ``package-dir`` mapping, so the test lays the tree out the way
``pip install`` does, in a temporary folder, and type-checks that copy. Run it alone with
``pytest tests/test_typing.py``; it is skipped when mypy is not installed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT


def stage(target: Path) -> Path:
    """Copy the library as installed: ``notation/`` with ``cli/`` and ``grammars/`` inside."""
    package = target / "notation"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so")
    # notation/cli and notation/grammars may hold an editable install's copies: the sources win
    shutil.copytree(ROOT / "notation", package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "cli", "grammars"))
    shutil.copytree(ROOT / "cli", package / "cli", ignore=ignore)
    shutil.copytree(ROOT / "grammars", package / "grammars", ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", target / "pyproject.toml")
    return target


def test_mypy_strict(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    where = stage(tmp_path)
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "-p", "notation"],
        cwd=where, capture_output=True, text=True, timeout=900,
    )
    assert run.returncode == 0, run.stdout + run.stderr
