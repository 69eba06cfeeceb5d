"""Perft against published node counts (shared corpus). Default runs are capped per position;
deep runs (depth >= 5 on the six standard positions, whole files) are marked slow."""

from __future__ import annotations


import pytest

from notation import Position, perft
from conftest import corpus_path, epd_cases, scalachess_cases

SMALL_CAP = 12_000  # nodes per position in the default run (many positions)
SUNFISH_CAP = 5_000  # 127 positions: depth 2 always, deeper while under this cap
SIX_CAP = 250_000  # nodes per position for the six standard positions in the default run


def _check(pos: Position, counts: dict[int, int], cap: int, label: str, min_depth: int = 1) -> int:
    checked = 0
    for depth in sorted(counts):
        if counts[depth] > cap and depth > min_depth:
            break
        assert perft(pos, depth) == counts[depth], f"{label}: perft({depth})"
        checked += 1
    return checked


@pytest.mark.parametrize("index", range(6))
def test_six_standard_positions(index: int) -> None:
    cases = epd_cases(corpus_path("perft", "standard-perft-positions.txt"))
    assert len(cases) == 6
    fen, counts = cases[index]
    assert _check(Position.from_fen(fen), counts, SIX_CAP, fen) >= 3


@pytest.mark.slow
@pytest.mark.parametrize("index", range(6))
def test_six_standard_positions_depth5(index: int) -> None:
    cases = epd_cases(corpus_path("perft", "standard-perft-positions.txt"))
    fen, counts = cases[index]
    assert perft(Position.from_fen(fen), 5) == counts[5]


def test_sunfish_suite() -> None:
    cases = epd_cases(corpus_path("perft", "sunfish-perft.epd"))
    assert len(cases) >= 126
    for fen, counts in cases:
        assert _check(Position.from_fen(fen), counts, SUNFISH_CAP, fen, min_depth=2) >= 2


def test_scalachess_tricky() -> None:
    cases = scalachess_cases(corpus_path("perft", "scalachess", "tricky.perft"))
    assert len(cases) >= 15
    for ident, epd, counts in cases:
        assert _check(Position.from_fen(epd), counts, SIX_CAP // 4, ident, min_depth=2) >= 1


def test_scalachess_chess960_first_120() -> None:
    cases = scalachess_cases(corpus_path("perft", "scalachess", "chess960.perft"))
    assert len(cases) >= 120
    for ident, epd, counts in cases[:120]:
        pos = Position.from_fen(epd, chess960=True)
        assert _check(pos, counts, SMALL_CAP, f"960 {ident} {epd}", min_depth=2) >= 2


@pytest.mark.slow
def test_scalachess_chess960_all_deeper() -> None:
    cases = scalachess_cases(corpus_path("perft", "scalachess", "chess960.perft"))
    for ident, epd, counts in cases:
        _check(Position.from_fen(epd, chess960=True), counts, 500_000, f"960 {ident}")


@pytest.mark.slow
def test_sunfish_suite_deeper() -> None:
    for fen, counts in epd_cases(corpus_path("perft", "sunfish-perft.epd")):
        _check(Position.from_fen(fen), counts, 1_000_000, fen)


def test_perft_depth_zero_and_initial() -> None:
    pos = Position.initial()
    assert perft(pos, 0) == 1
    assert perft(pos, 1) == 20
    assert perft(pos, 3) == 8902
