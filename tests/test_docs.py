"""The documentation site (``docs/``, ``mkdocs.yml``) against the code it describes: every
command-line option on its command's page, the generated parts (``docs/hooks.py``) complete, every
page in the navigation and the README short. None of this needs MkDocs: the hook module is plain
Python, and ``mkdocs build --strict`` itself is a step of ``.ci/run``."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest
import typer

from conftest import ROOT

from notation.cli.main import app

DOCS = ROOT / "docs"

#: The page that documents each command (its options are looked for there).
COMMAND_PAGES: dict[str, str] = {
    "": "index.md",  # notation --version
    "validate": "validate.md",
    "import": "datasets.md",
    "stats": "datasets.md",
    "standings": "tournaments.md",
    "ledger": "tournaments.md",
    "players": "every-command.md",
    "scoresheet": "scoresheets.md",
    "filter": "filter.md",
    "convert": "convert.md",
    "tree": "openings.md",
    "chart": "pictures.md",
    "board": "pictures.md",
}


def _hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _options() -> dict[str, list[str]]:
    """Every long option name of every command, walked from the Typer application's command tree."""
    found: dict[str, list[str]] = {}

    def walk(command: object, path: str) -> None:
        names = found.setdefault(path, [])
        for param in getattr(command, "params", []):
            if param.param_type_name == "option":
                names += [name for name in (*param.opts, *param.secondary_opts) if name.startswith("--")]
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, f"{path} {name}".strip())

    walk(typer.main.get_command(app), "")
    return found


def _mentions(text: str, option: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


def test_every_cli_option_is_on_its_commands_page() -> None:
    options = _options()
    assert set(options) == set(COMMAND_PAGES), "a command without a page: add it to COMMAND_PAGES"
    missing = []
    for command, names in options.items():
        page = (DOCS / COMMAND_PAGES[command]).read_text(encoding="utf-8")
        missing += [
            f"{command or 'notation'} {name} ({COMMAND_PAGES[command]})" for name in names if not _mentions(page, name)
        ]
    assert not missing, missing
    assert sum(len(names) for names in options.values()) > 100


def test_the_option_walk_sees_secondary_names() -> None:
    assert "--no-coordinates" in _options()["board"] and "--coordinates" in _options()["board"]
    assert not _mentions("`--no-coordinates`", "--coordinates")


def test_the_codes_table_is_written_from_the_registry() -> None:
    from notation.diagnostics import CODES

    table = _hooks().codes_table()
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == list(CODES)
    for code, (severity, _) in CODES.items():
        assert f"| `{code}` | {severity} |" in table
    page = (DOCS / "diagnostics.md").read_text(encoding="utf-8")
    assert "<!-- codes -->" in page and "| code |" not in page  # generated, never written by hand
    assert "| `san.illegal` | error |" in _hooks().expand(page)


def test_the_schema_tables_are_written_from_the_schema() -> None:
    from notation.tables.schema import GAMES_SCHEMA, MOVES_SCHEMA

    hooks = _hooks()
    for table, schema in (("games", GAMES_SCHEMA), ("moves", MOVES_SCHEMA)):
        text = hooks.schema_table(table)
        assert [line.split("`")[1] for line in text.splitlines() if line.startswith("| `")] == list(schema)
    assert "Enum: `1-0`, `0-1`, `1/2-1/2`, `*`" in hooks.schema_table("games")
    page = (DOCS / "schema.md").read_text(encoding="utf-8")
    assert "<!-- schema: games -->" in page and "<!-- schema: moves -->" in page


def test_the_api_reference_lists_every_public_name() -> None:
    import notation

    text = _hooks().api_reference()
    documented = {line.rsplit(".", 1)[1] for line in text.splitlines() if line.startswith("::: ")}
    assert documented == {name for name in notation.__all__ if not name.startswith("__")}
    assert "<!-- api -->" in (DOCS / "api.md").read_text(encoding="utf-8")


def test_every_page_is_in_the_navigation_and_every_link_resolves() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = sorted(p.name for p in DOCS.glob("*.md"))
    assert [p for p in pages if f": {p}" not in config] == []
    broken = []
    for page in DOCS.glob("*.md"):
        for target in re.findall(r"\]\(([^)#:]+\.(?:md|svg))(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if not (DOCS / target).is_file():
                broken.append(f"{page.name}: {target}")
    assert not broken, broken


def test_the_readme_is_a_front_door() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.split()) <= 1500
    first = readme.index("```sh\n") + len("```sh\n")
    assert readme[first : readme.index("```", first)].splitlines() == [
        "pip install . && notation validate sample_games/",
        "pip install '.[test]' && python -m pytest",
    ]
    for target in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / target).is_file(), target


def _readme_output(command: str) -> list[str]:
    """The lines the README shows under ``$ command`` (its ``...`` elisions left out)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = readme.split(f"$ {command}\n", 1)[1].split("```", 1)[0].split("\n$ ", 1)[0]
    return [line for line in shown.splitlines() if line.strip() and line != "..."]


def _timing(line: str) -> bool:
    return "games/s" in line  # the elapsed time differs from run to run


def test_the_readme_tour_shows_real_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tables_support import run_cli

    monkeypatch.chdir(ROOT)
    for args, code in (
        (("validate", "sample_games/broken.pgn"), 1),
        (("scoresheet", "sample_games/sheets/immortal-damaged.csv"), 1),
    ):
        result = run_cli(*args)
        assert result.exit_code == code, result.output
        real = result.output.splitlines()
        shown = _readme_output("notation " + " ".join(args))
        assert len(shown) > 5
        assert [line for line in shown if line not in real and not _timing(line)] == []

    monkeypatch.chdir(tmp_path)
    imported = run_cli("import", ROOT / "sample_games" / "round_robin.pgn", "--out", "dataset/")
    assert imported.exit_code == 0, imported.output
    shown = _readme_output("notation import sample_games/round_robin.pgn --out dataset/")
    assert [line for line in shown if line not in imported.output.splitlines() and not _timing(line)] == []
    stats = run_cli("stats", "dataset/", "--by", "player", "--limit", "3")
    assert stats.exit_code == 0
    real = [line for line in stats.stdout.splitlines() if line.strip()]
    assert real == _readme_output("notation stats dataset/ --by player --limit 3")


def test_sphinx_roles_in_docstrings_show_as_code() -> None:
    assert _hooks().on_page_content("see :func:<code>separator</code> and a:b") == "see <code>separator</code> and a:b"
