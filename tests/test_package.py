"""Packaging and layout checks."""

from __future__ import annotations

import importlib.resources
import subprocess
import sys

from conftest import ROOT


def test_grammars_are_package_data() -> None:
    files = {p.name for p in importlib.resources.files("grammars").iterdir()}
    assert "pgn.lark" in files and "san.lark" in files


def test_library_never_imports_cli_frameworks_or_python_chess() -> None:
    bad = []
    for path in list((ROOT / "notation").rglob("*.py")) + list((ROOT / "cli").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith(("import chess", "from chess ", "from chess.")):
                bad.append(f"{path}:{number}")
            if path.parts[-2] == "notation" and stripped.startswith(("import typer", "from typer")):
                bad.append(f"{path}:{number}")
    assert not bad, bad


def test_import_notation_is_cheap() -> None:
    code = "import sys, notation; print('polars' in sys.modules, 'lark' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.split() == ["False", "False"]
