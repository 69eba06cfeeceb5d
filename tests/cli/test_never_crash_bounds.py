"""The never-crash harness, third part: time and memory within linear bounds. Every reading and
writing command is run on a mutated input and on one four times larger (PGN: the mutated text
four and sixteen times over; a scoresheet of 10 and of 40 moves with the same damage), all in
one fresh process after a first run on three short clean games (or a sheet of two moves) that
loads what the command needs:

- exit 0, 1 or 2 and no escaped exception on every run;
- CPU: the larger input costs at most 8 times the smaller (a linear cost grows 4 times, a
  quadratic one 16 times), above a floor of 0.05 s for fixed costs and timer noise;
- memory: the peak grows, over the peak after the first run, at most 8 times as much for the
  larger input as for the smaller, above a floor of 16 MiB (every command also keeps its memory
  flat in the number of games: tests/cli/test_memory_bounded.py);
- for a sheet both at most 12 times: a move of the middlegame costs the reader about twice one
  of the opening, having more legal moves to weigh (four times the moves measured 6.7 times the
  CPU and 8.2 times the memory; a quadratic reader would pass 16 times on the moves alone).

A small sample runs by default; ``-m slow`` runs the long run whose figures are in
BENCHMARKS.md ("Hostile input")."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SAMPLE_GAMES
from faults_support import make_games
from harness_support import Run, mutated, run_in_child
from hypothesis import HealthCheck, given, settings

from notation.pgn.reader import read_games

ROUND_ROBIN = (SAMPLE_GAMES / "round_robin.pgn").read_text(encoding="utf-8")
PGN_SEED = ROUND_ROBIN[:3000]
SHORT_SEED = make_games(3)
GROWTH = 4
RATIO, SHEET_RATIO = 8.0, 12.0
CPU_FLOOR, MEMORY_FLOOR = 0.05, 16 << 20
SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.function_scoped_fixture]}


def _sheet_lines() -> list[str]:
    """A real game's moves as a numbered sheet, a line a move (the longest sample game)."""
    game = max(read_games(SAMPLE_GAMES / "round_robin.pgn"), key=lambda g: len(g.moves))
    sans = [move.san for move in game.moves]
    return [f"{i // 2 + 1}. {' '.join(sans[i : i + 2])}" for i in range(0, len(sans), 2)]


SHEET_LINES = _sheet_lines()
SMALL_SHEET = "\n".join(SHEET_LINES[:10]) + "\n"
SHEET = "1. e4 e5\n2. Nf3 Nc6\n"

#: command lines: ``{in}`` the input, ``{out}`` a fresh path for the run's output
PGN_COMMANDS: dict[str, list[str]] = {
    "validate": ["validate", "{in}"],
    "stats": ["stats", "{in}"],
    "standings": ["standings", "{in}"],
    "ledger": ["ledger", "{in}"],
    "players": ["players", "{in}"],
    "convert": ["convert", "{in}", "--to", "jsonl"],
    "filter": ["filter", "{in}", "--min-plies", "2"],
    "tree": ["tree", "{in}", "--depth", "4"],
    "import": ["import", "{in}", "--out", "{out}.dataset", "--jobs", "1", "--quiet"],
    "chart": ["chart", "{in}", "--kind", "rating", "--out", "{out}.svg"],
    "board": ["board", "{in}", "--game", "2", "--ply", "12w", "--out", "{out}.svg"],
}
SCORESHEET_PGN = ["scoresheet", "{in}", "-q", "-o", "{out}.pgn", "-o", "{out}.json"]
SCORESHEET_TEXT = ["scoresheet", "{in}", "-q", "-o", "{out}.html"]


def _lines(command: list[str], source: Path, out: Path) -> list[str]:
    return [a.replace("{in}", str(source)).replace("{out}", str(out)) for a in command]


def _measure(command: list[str], small: str, large: str, tmp_path: Path) -> tuple[Run, Run, Run]:
    """The first run on a clean input, then the small and the large input measured."""
    first = SHEET if command is SCORESHEET_TEXT else SHORT_SEED
    paths = []
    for name, text in (("first", first), ("small", small), ("large", large)):
        path = tmp_path / f"{name}.{'txt' if command is SCORESHEET_TEXT else 'pgn'}"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        paths.append(path)
    lines = [_lines(command, path, tmp_path / path.stem) for path in paths]
    first_run, small_run, large_run = run_in_child(lines)
    for run, line in zip((first_run, small_run, large_run), lines, strict=True):
        assert run.code in (0, 1, 2), (line, run)
        assert run.escaped is None, (line, run.escaped)
    return first_run, small_run, large_run


def _within_bounds(command: list[str], small: str, large: str, tmp_path: Path) -> None:
    first_run, small_run, large_run = _measure(command, small, large, tmp_path)
    ratio = SHEET_RATIO if command is SCORESHEET_TEXT else RATIO
    assert large_run.cpu <= ratio * max(small_run.cpu, CPU_FLOOR), (command, small_run.cpu, large_run.cpu)
    small_growth, large_growth = small_run.peak - first_run.peak, large_run.peak - first_run.peak
    assert large_growth <= ratio * max(small_growth, MEMORY_FLOOR), (command, small_growth, large_growth)


def _pgn_case(verb: str, text: str, tmp_path: Path) -> None:
    _within_bounds(PGN_COMMANDS[verb], text * 4, text * 4 * GROWTH, tmp_path)


def _sheet_case(damage: str, tmp_path: Path) -> None:
    """The same damage (a slice of the first ten moves' text replaced) on a sheet of ten and of
    forty moves."""
    _within_bounds(SCORESHEET_TEXT, damage, damage + "\n".join(SHEET_LINES[10:40]) + "\n", tmp_path)


@pytest.mark.parametrize("verb", sorted(PGN_COMMANDS))
@settings(max_examples=1, **SETTINGS)  # type: ignore[arg-type]
@given(text=mutated(PGN_SEED))
def test_every_command_on_mutated_pgn_is_linear_in_time_and_memory(verb: str, text: str, tmp_path: Path) -> None:
    _pgn_case(verb, text, tmp_path)


@settings(max_examples=2, **SETTINGS)  # type: ignore[arg-type]
@given(damage=mutated(SMALL_SHEET))
def test_scoresheet_on_a_mutated_sheet_is_linear_in_time_and_memory(damage: str, tmp_path: Path) -> None:
    _sheet_case(damage, tmp_path)


@settings(max_examples=1, **SETTINGS)  # type: ignore[arg-type]
@given(text=mutated(SHORT_SEED))
def test_scoresheet_on_mutated_pgn_is_linear_in_time_and_memory(text: str, tmp_path: Path) -> None:
    _within_bounds(SCORESHEET_PGN, text, text * GROWTH, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("verb", sorted(PGN_COMMANDS))
@settings(max_examples=25, **SETTINGS)  # type: ignore[arg-type]
@given(text=mutated(PGN_SEED))
def test_every_command_on_mutated_pgn_is_linear_in_time_and_memory_long(verb: str, text: str, tmp_path: Path) -> None:
    _pgn_case(verb, text, tmp_path)


@pytest.mark.slow
@settings(max_examples=60, **SETTINGS)  # type: ignore[arg-type]
@given(damage=mutated(SMALL_SHEET))
def test_scoresheet_on_a_mutated_sheet_is_linear_in_time_and_memory_long(damage: str, tmp_path: Path) -> None:
    _sheet_case(damage, tmp_path)


@pytest.mark.slow
@settings(max_examples=25, **SETTINGS)  # type: ignore[arg-type]
@given(text=mutated(SHORT_SEED))
def test_scoresheet_on_mutated_pgn_is_linear_in_time_and_memory_long(text: str, tmp_path: Path) -> None:
    _within_bounds(SCORESHEET_PGN, text, text * GROWTH, tmp_path)
