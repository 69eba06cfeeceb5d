"""Packaging and layout checks."""

from __future__ import annotations

import importlib.resources
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from conftest import OUTSIDE, ROOT


def test_grammars_are_package_data() -> None:
    files = {p.name for p in importlib.resources.files("notation.grammars").iterdir()}
    assert {"pgn.lark", "san.lark", "sheet.lark", "tokens.lark"} <= files


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    run = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        capture_output=True, text=True, timeout=600,
    )
    if run.returncode != 0:
        pytest.skip(f"cannot build a wheel here: {run.stderr.strip()[-300:]}")
    (found,) = out.glob("notation-*.whl")
    return found


def test_the_distribution_installs_only_the_notation_package(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert tops == {"notation"}
    assert "notation/cli/main.py" in names and "notation/grammars/tokens.lark" in names
    entry = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "notation=notation.cli.main:run" in entry.replace(" ", "")
    assert any(n.startswith("notation/_core.") and n.endswith((".so", ".pyd")) for n in names), "the compiled core"
    assert "notation/rules/polyglot.txt" in names
    assert "notation/openings/eco.tsv" in names, "the ECO table (package data)"


def test_a_fresh_environment_imports_the_package_and_its_cli(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, system_site_packages=True, with_pip=False)
    python = env_dir / "bin" / "python"
    # A venv is made from the base interpreter, whatever runs the tests: when that is itself a
    # virtual environment (the user's), its packages (typer, lark, ...) are not the base's. The
    # new environment sees them through a .pth file, as the README's test command needs.
    (site_dir,) = env_dir.glob("lib/python*/site-packages")
    seen = [p for p in sys.path if p.endswith(("site-packages", "dist-packages")) and os.path.isdir(p)]
    (site_dir / "outer-environment.pth").write_text("\n".join(seen) + "\n", encoding="utf-8")
    target = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    code = (
        "import notation, notation.cli, notation.cli.main, notation.grammars;"
        "print(notation.__file__); print(notation.grammars.grammar_text('tokens')[:2])"
    )
    run = subprocess.run(
        [str(python), "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env={**os.environ, "PYTHONPATH": str(target)},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0].startswith(str(target))
    # the test command's first step there: pytest finds the tests and imports what they need
    collect = subprocess.run(
        [str(python), "-P", "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         str(ROOT / "tests" / "cli" / "test_cli_surface.py")],
        capture_output=True, text=True, cwd=ROOT, timeout=300, env={**os.environ, "PYTHONPATH": str(target)},
    )
    assert collect.returncode == 0, collect.stdout[-2000:] + collect.stderr[-2000:]
    assert "test_version_and_short_help" in collect.stdout


def test_library_never_imports_cli_frameworks_or_python_chess() -> None:
    bad = []
    for path in list((ROOT / "notation").rglob("*.py")) + list((ROOT / "cli").rglob("*.py")):
        if path.relative_to(ROOT).parts[:2] in (("notation", "cli"), ("notation", "grammars")):
            continue  # an editable install's copies of cli/ and grammars/
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith(("import chess", "from chess ", "from chess.")):
                bad.append(f"{path}:{number}")
            if "notation" in path.relative_to(ROOT).parts[:1] and stripped.startswith(("import typer", "from typer")):
                bad.append(f"{path}:{number}")
    assert not bad, bad


def test_import_notation_is_cheap() -> None:
    code = "import sys, notation; print('polars' in sys.modules, 'lark' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=OUTSIDE, check=True)
    assert out.stdout.split() == ["False", "False"]
