"""Engine comments of TCEC and cutechess (``{d=34, ..., tl=1738239, ..., wv=0.65, ...}``) fill the
moves table's evaluation and clock like ``[%eval]`` and ``[%clk]`` (which win when both are there),
on the compiled core's path and on the Python reference alike."""

from __future__ import annotations

import io

import polars as pl
import pytest
from conftest import corpus_path

from notation import compiled
from notation.pgn.comment_commands import engine_evaluation
from notation.tables.frames import to_frames

GAME = """[Event "E"]
[Result "*"]

1. e4 {d=20, mt=1000, tl=60000, wv=0.62,} e5 {d=22, tl=59000, wv=-M15,} 2. Nf3 {[%eval 0.3] wv=1.00,}
Nc6 {book} *
"""


@pytest.mark.parametrize("core", [True, False], ids=["core", "python"])
def test_engine_comments_fill_eval_and_clock(core: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not core:
        monkeypatch.setenv("NOTATION_CORE", "python")
    compiled.core_module.cache_clear()
    try:
        _, moves = to_frames(io.StringIO(GAME))
    finally:
        compiled.core_module.cache_clear()
    rows = moves.select("eval_cp", "eval_mate", "clock_seconds").rows()
    assert rows == [(62, None, 60.0), (None, -15, 59.0), (30, None, None), (None, None, None)]


def test_engine_evaluation_in_python_agrees() -> None:
    assert engine_evaluation(["d=20, wv=0.62,"]).cp == 62  # type: ignore[union-attr]
    assert engine_evaluation(["wv=-M15,"]).mate == -15  # type: ignore[union-attr]


def test_most_tcec_moves_with_wv_get_an_evaluation() -> None:
    path = corpus_path("games", "engine", "tcec-other.pgn.gz")
    _, moves = to_frames(path)
    engine = moves.filter(pl.col("comment").str.contains("wv="))
    got = engine.select((pl.col("eval_cp").is_not_null() | pl.col("eval_mate").is_not_null()).mean()).item()
    print(f"{got:.1%} of {engine.height} moves with wv= get an evaluation")
    assert engine.height > 1000 and got >= 0.95
