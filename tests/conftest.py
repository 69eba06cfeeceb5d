"""Shared fixtures: where the shared corpus is, and skipping cleanly when it is absent."""

from __future__ import annotations

from pathlib import Path

import os
import tempfile

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
SAMPLE_GAMES = ROOT / "sample_games"
GOLDEN = Path(__file__).resolve().parent / "golden"
#: A working directory outside the checkout for subprocesses, so that ``python -c`` imports the
#: installed package (from the checkout's root it would import the checkout, which works too:
#: ``notation/_checkout.py``).
OUTSIDE = Path(tempfile.gettempdir())
#: The sample game files the validation tests read (all but the tournament, round_robin.pgn).
OWN_SAMPLES = ("broken.pgn", "chess960.pgn", "classics.pgn", "draws.pgn", "special_moves.pgn", "variant_crazyhouse.pgn")
#: The keys of a validation report's JSON object, in order: the output contract.
CONTRACT_KEYS = [
    "file",
    "game",
    "line",
    "white",
    "black",
    "result",
    "status",
    "plies",
    "final_fen",
    "outcome",
    "claims",
    "diagnostics",
]
#: Set to 1 to write the golden files from the current output (review the diff: it is an API change).
UPDATE_GOLDEN = os.environ.get("NOTATION_UPDATE_GOLDEN") == "1"


def corpus_path(*parts: str) -> Path:
    """A path under ../shared/corpus, skipping the calling test when it is not there."""
    path = CORPUS.joinpath(*parts)
    if not path.exists():
        # one reason for every test when the whole corpus is absent: the summary counts them on one line
        missing = CORPUS if not CORPUS.exists() else path
        pytest.skip(f"shared corpus not available: {missing} is missing")
    return path


def corpus_game_files(*parts: str) -> list[Path]:
    """The PGN files (plain or compressed) under ../shared/corpus/games[/parts...], sorted;
    skips when the corpus is absent and fails when the folder holds none, so a sweep over them
    can never pass having checked nothing."""
    root = corpus_path("games", *parts)
    files = sorted(p for p in root.rglob("*") if p.is_file() and ".pgn" in p.name)
    assert files, f"no PGN files under {root}"
    return files


@pytest.fixture
def corpus() -> Path:
    """The root of ../shared/corpus (the test is skipped if absent)."""
    return corpus_path()


def check_golden(relative: str, actual: str) -> None:
    """Compare ``actual`` with ``tests/golden/<relative>``. A missing golden file fails the
    test; ``NOTATION_UPDATE_GOLDEN=1`` writes it (and every other) from the current output."""
    path = GOLDEN / relative
    if UPDATE_GOLDEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    if not path.exists():
        pytest.fail(f"missing golden file {path} (run with NOTATION_UPDATE_GOLDEN=1 and review it)")
    assert actual == path.read_text(encoding="utf-8"), f"output differs from {path}"


def epd_cases(path: Path) -> list[tuple[str, dict[int, int]]]:
    """Perft cases of ``FEN ;D1 n ;D2 n`` lines (sunfish / standard-perft-positions format)."""
    cases = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fen, *depths = line.split(";")
        counts = {}
        for d in depths:
            name, value = d.split()
            counts[int(name[1:])] = int(value)
        cases.append((fen.strip(), counts))
    return cases


def scalachess_cases(path: Path) -> list[tuple[str, str, dict[int, int]]]:
    """Perft cases of ``id`` / ``epd`` / ``perft d n`` blocks (scalachess format)."""
    cases: list[tuple[str, str, dict[int, int]]] = []
    ident = ""
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("id "):
            ident = line[3:]
        elif line.startswith("epd "):
            cases.append((ident, line[4:], {}))
        elif line.startswith("perft ") and cases:
            _, d, n = line.split()
            cases[-1][2][int(d)] = int(n)
    return cases
