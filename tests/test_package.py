"""Packaging and layout checks."""

from __future__ import annotations

import importlib.resources
import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import OUTSIDE, ROOT


def test_grammars_are_package_data() -> None:
    files = {p.name for p in importlib.resources.files("notation.grammars").iterdir()}
    assert {"pgn.lark", "san.lark", "sheet.lark", "tokens.lark"} <= files


def _ci_steps() -> str:
    return (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_ci_runs_the_readme_test_command_then_the_build_and_code_checks() -> None:
    """The README's test command first, as written; then each check the test run leaves out."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = readme[readme.index("```sh\n") + 6 : readme.index("```", readme.index("```sh\n") + 6)]
    command = first_block.strip().splitlines()[1]
    assert command == "pip install '.[test]' && python -m pytest"
    script = _ci_steps()
    assert any(line.startswith(command) for line in script.splitlines())
    assert script.startswith("#!/usr/bin/env bash") and "set -euo pipefail" in script
    after = script[script.index(command) :]
    for check in (
        "pip wheel",
        "check_wheel.py",
        "cargo clippy",
        "-D warnings",
        "cargo test",
        "cargo fmt --check",
        "mypy --no-incremental -p notation",
        "ruff check",
        "ruff format --check",
        "mkdocs build --strict",
    ):
        assert check in after, check


def _wheel(path: Path, names: list[str], entry: str) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name in names:
            archive.writestr(name, "")
        archive.writestr("notation-0.1.0.dist-info/entry_points.txt", entry)
    return path


def test_the_wheel_check_names_what_a_wheel_lacks(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("check_wheel", ROOT / ".ci" / "check_wheel.py")
    assert spec is not None and spec.loader is not None
    check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check)
    complete = ["notation/__init__.py", *check.NEEDED, "notation/_core.cpython-311-x86_64-linux-gnu.so"]
    script = "[console_scripts]\nnotation = notation.cli.main:run\n"
    assert check.problems(str(_wheel(tmp_path / "good.whl", complete, script))) == []
    lacking = [n for n in complete if not n.startswith("notation/_core")] + ["cli/main.py"]
    found = check.problems(str(_wheel(tmp_path / "bad.whl", lacking, "")))
    assert any("compiled core" in f for f in found) and any("top-level" in f and "cli" in f for f in found)
    assert any("console script" in f for f in found)


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


# --- the checkout works like the install ---------------------------------------------------------


def _library_example() -> str:
    text = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    start = text.index("```python\nfrom notation import Position")
    return text[start + len("```python\n") : text.index("```", start + 10)]


def test_the_library_example_runs_from_the_repository_root() -> None:
    """``python`` started at the root imports the checkout's ``notation/`` (the root is first on
    ``sys.path``): its ``cli``/``grammars`` come from the top, its core from the last build."""
    code = (
        "import notation, notation.cli.main, notation.grammars\n"
        "from notation.compiled import core_module\n"
        "print(notation.__file__); print(notation.grammars.__file__); print(notation.cli.main.__file__)\n"
        "print(core_module() is not None)\n"
    )
    run = subprocess.run([sys.executable, "-"], input=code, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    package, grammars, main, core = run.stdout.splitlines()
    assert Path(package) == ROOT / "notation" / "__init__.py"
    assert Path(grammars) == ROOT / "grammars" / "__init__.py" and Path(main) == ROOT / "cli" / "main.py"
    installed = subprocess.run([sys.executable, "-c", "import notation._core"], cwd=OUTSIDE, capture_output=True)
    assert core == str(installed.returncode == 0)  # the checkout has the core whenever an install has
    example = subprocess.run(
        [sys.executable, "-"], input=_library_example(), capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert example.returncode == 0, example.stderr
    assert "Morphy" in example.stdout and "san.illegal" in example.stdout


def _checkout_copy(target: Path) -> Path:
    """The layout of a checkout (the package, ``cli/``, ``grammars/``, ``pyproject.toml``) under
    ``target``, with a stale copy of the grammars inside the package, as an editable build leaves."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "cli", "grammars")
    shutil.copytree(ROOT / "notation", target / "notation", ignore=ignore)
    for part in ("cli", "grammars"):
        shutil.copytree(ROOT / part, target / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "grammars", target / "notation" / "grammars", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", target / "pyproject.toml")
    return target


def test_an_edited_grammar_is_seen_without_a_rebuild(tmp_path: Path) -> None:
    """The mechanism an editable install relies on: ``grammars/`` at the top is read as it is
    now, over any copy inside the package; outside a checkout nothing is redirected."""
    top = _checkout_copy(tmp_path / "repo")
    san = top / "grammars" / "san.lark"
    san.write_text("// edited in the checkout\n" + san.read_text(encoding="utf-8"), encoding="utf-8")
    code = (
        "import notation.grammars as g, notation.cli.main as m; print(g.grammar_text('san').splitlines()[0]);"
        "print(m.__file__)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=top, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["// edited in the checkout", str(top / "cli" / "main.py")]
    (top / "pyproject.toml").unlink()  # no checkout: the package's own subpackages, as installed
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=top, timeout=120)
    assert run.returncode != 0 or not run.stdout.startswith("// edited"), run.stdout


@pytest.mark.slow
def test_an_editable_install_sees_grammar_edits(tmp_path: Path) -> None:
    """``pip install -e .`` of a copy of the repository (the Rust core built again, so slow):
    imported from anywhere, ``notation`` is the copy's, and a grammar edited there is seen."""
    top = tmp_path / "repo"
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        (top / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, top / name)
    env_dir = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(env_dir)], check=True)
    python = env_dir / "bin" / "python"
    env = {**os.environ, "CARGO_TARGET_DIR": os.environ.get("CARGO_TARGET_DIR", str(ROOT / "target"))}
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-build-isolation", "-e", str(top)],
        capture_output=True,
        text=True,
        timeout=1800,
        env=env,
    )
    assert install.returncode == 0, install.stdout[-2000:] + install.stderr[-2000:]
    san = top / "grammars" / "san.lark"
    san.write_text("// edited after the install\n" + san.read_text(encoding="utf-8"), encoding="utf-8")
    code = (
        "import notation, notation.grammars as g, notation.cli.main; from notation.compiled import core_module;"
        "print(notation.__file__); print(g.grammar_text('san').splitlines()[0]); print(core_module() is not None)"
    )
    run = subprocess.run([str(python), "-c", code], capture_output=True, text=True, cwd=OUTSIDE, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [str(top / "notation" / "__init__.py"), "// edited after the install", "True"]
