"""``notation validate`` through the compiled core equals the pure-Python reference, report for
report (the jsonl lines byte for byte), and the core takes most real games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import SAMPLE_GAMES, corpus_game_files, corpus_path
from notation.pgn.chunks import RawGame
from notation.pgn.reader import parse_raw_game, split_games
from notation import compiled
from notation.validation import core
from notation.validation.reports import check_game


def _both(path: Path) -> tuple[list[str], list[str], int]:
    """(jsonl through the core, jsonl through the reference, games the core took)."""
    fast, slow = [], []
    taken = 0
    module = core.core_module()
    assert module is not None, "the compiled core is not built (pip install builds it)"
    for raw in split_games(path):
        if (
            core._through_core(module, raw, None) is not None
            if isinstance(raw, RawGame) and not raw.oversized
            else False
        ):
            taken += 1
        fast.append(json.dumps(core.check_raw(raw, None).to_dict()))
        slow.append(json.dumps(check_game(parse_raw_game(raw)).to_dict()))
    return fast, slow, taken


@pytest.mark.parametrize(
    "parts",
    [
        ("lichess", "lichess_DannyTheDonkey_2019-01-29.pgn.gz"),
        ("lichess", "chesscom_MagnusCarlsen_games.pgn.gz"),
        ("classic", "London1851.pgn"),
        ("classic", "tatamast22.pgn"),
    ],
)
def test_core_and_reference_agree_on_corpus_files(parts: tuple[str, str]) -> None:
    fast, slow, taken = _both(corpus_path("games", *parts))
    assert fast == slow
    assert taken >= 0.5 * len(fast), (taken, len(fast))


def test_core_and_reference_agree_on_own_sample_games() -> None:
    for path in sorted(SAMPLE_GAMES.glob("*.pgn")):
        fast, slow, _ = _both(path)
        assert fast == slow, path.name


@pytest.mark.slow
def test_core_and_reference_agree_on_the_whole_corpus() -> None:
    for path in corpus_game_files():
        fast, slow, taken = _both(path)
        assert fast == slow, path.name


def test_the_core_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(compiled.CORE_VARIABLE, "python")
    compiled.core_module.cache_clear()
    try:
        assert not core.core_available()
    finally:
        monkeypatch.delenv(compiled.CORE_VARIABLE)
        compiled.core_module.cache_clear()
    assert core.core_available()


@pytest.mark.parametrize("counters", ["0 2147483648", "0 99999999999999999999", "4294967296 1", "99 1"])
def test_huge_fen_counters_never_crash_and_agree(tmp_path: Path, counters: str) -> None:
    path = tmp_path / "counters.pgn"
    path.write_text(
        f'[Event "T"]\n[Result "*"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/R3K3 w Q - {counters}"]\n\n1. Ra8+ Kd7 *\n'
    )
    fast, slow, _ = _both(path)
    assert fast == slow


@pytest.mark.parametrize(
    "moves",
    [
        "1. e4 e5 2. Nf3+ Nc6 3. Bc4 Nf6 5. Ng5 Be7 4. Bxf7 Kf8 *",  # '+' too many, missing, numbers
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7+ 1-0",  # mate written '+'
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7 (4. Bxf7+# Ke7) 1-0",  # mate unmarked; '+#' in a variation
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# (4. Bxf7# Ke7) 1-0",  # '#' for a check, in a variation
        "1. f3 e5 2. g4 Qh4+ 3. a3 0-1",  # a move after mate: the reference explains
    ],
)
def test_suffix_and_move_number_warnings_go_through_the_core(tmp_path: Path, moves: str) -> None:
    path = tmp_path / "remarks.pgn"
    path.write_text(f'[Event "T"]\n[Result "{moves.rsplit(" ", 1)[1]}"]\n\n{moves}\n')
    fast, slow, taken = _both(path)
    assert fast == slow
    assert taken == (0 if "a3" in moves or "+#" in moves else 1)
    assert any(code in fast[0] for code in ("san.check-suffix", "game.move-after-end", "san."))


_VARIANT_GAMES = [
    # (the game's text, whether the core's outline reports it: else the parser does)
    ('[Event "T"]\n[Variant "Three-check"]\n[Result "1-0"]\n\n1. e4 e5 2. Bc4 { [%clk 0:03:00] } Nc6 1-0\n', True),
    ('[Variant "Atomic"]\n[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n[Result "*"]\n\n1. Kb1 $300 Kg1 *\n', True),
    ('[Variant "King of the Hill"]\n[Result "0-1"]\n\n1. e4 e5 1-0\n', True),  # marker and tag disagree
    ('[Variant "Horde"]\n[Result "1/2-1/2"]\n\n1/2-1/2\n', True),  # no moves
    ('[Variant "Racing Kings"]\n[Result "*"]\n\n1. Kh3 Ka3\n', True),  # no marker
    ('[Variant "Antichess"]\n[Result "1-0"]\n[Result "0-1"]\n\n1. e4 1-0\n', False),  # a duplicate tag
    ('[Variant "Crazyhouse"]\n[Result "*"]\n\n1. e4 d5 2. exd5 Qxd5 3. N@f3 *\n', False),  # a drop
    ('[Variant "Three-check"]\n[Result "*"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n', False),
    ('[Variant "Three-check"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {unclosed *\n', False),
]


@pytest.mark.parametrize("text, by_outline", _VARIANT_GAMES, ids=range(len(_VARIANT_GAMES)))
def test_an_unsupported_variant_is_reported_from_the_core_s_outline(
    tmp_path: Path, text: str, by_outline: bool
) -> None:
    path = tmp_path / "variant.pgn"
    path.write_text(text)
    fast, slow, _ = _both(path)
    assert fast == slow
    raw = next(raw for raw in split_games(path) if isinstance(raw, RawGame))
    assert (core._unsupported_variant(raw, None) is not None) == by_outline


def test_an_unsupported_variant_does_not_load_the_parser(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "variant.pgn"
    path.write_text(_VARIANT_GAMES[0][0] + "\n" + _VARIANT_GAMES[3][0])
    program = (
        "import sys\n"
        "from notation.validation.run import validate\n"
        f"reports = list(validate({str(path)!r}))\n"
        "print([r.status for r in reports], 'lark' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["['unsupported',", "'unsupported']", "False"]
