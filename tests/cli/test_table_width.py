"""Tables never cut a value: every table command, rendered through a pseudo-terminal 60, 80 and
120 columns wide, shows every value of its unlimited-width rendering whole, in lines that fit."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import OUTSIDE, SAMPLE_GAMES
from terminal_support import CODE, through_terminal

COMMANDS = {
    "stats": ["stats", str(SAMPLE_GAMES)],
    "standings": ["standings", str(SAMPLE_GAMES / "round_robin.pgn")],
    "ledger": ["ledger", str(SAMPLE_GAMES)],
    "ledger-history": ["ledger", "--history", str(SAMPLE_GAMES / "round_robin.pgn")],
}


def _through_terminal(args: list[str], columns: int) -> str:
    return through_terminal(args, columns)[0]


def _cells(text: str) -> set[str]:
    """The values of the table rows of a rendering (cells are separated by two or more spaces)."""
    cells: set[str] = set()
    for line in text.splitlines():
        if not line.startswith("  ") or set(line.strip()) <= {"─", " "}:
            continue
        cells.update(cell for cell in re.split(r" {2,}", line.strip()) if cell)
    return cells


@pytest.fixture(scope="module")
def unlimited() -> dict[str, str]:
    out = {}
    for name, args in COMMANDS.items():
        run = subprocess.run(
            [sys.executable, "-c", CODE, *args], cwd=OUTSIDE, capture_output=True, text=True, timeout=120
        )
        assert run.returncode in (0, 1), run.stderr
        out[name] = run.stdout
    return out


@pytest.mark.parametrize("columns", [60, 80, 120])
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_value_whole_at_every_width(name: str, columns: int, unlimited: dict[str, str]) -> None:
    shown = _through_terminal(COMMANDS[name], columns)
    assert all(len(line) <= columns for line in shown.splitlines()), shown
    expected = _cells(unlimited[name])
    assert expected, unlimited[name]
    tokens = _cells(shown)
    words = set(shown.split())
    # a value too wide for the columns left beside the row names is folded onto several lines
    # of its cell (rich breaks it between words): then each of its words is there, whole
    folded = {value for value in expected - tokens if len(value) > columns // 3 and set(value.split()) <= words}
    missing = sorted(expected - tokens - folded)
    assert not missing, (missing[:10], shown[:3000])
