"""Engine comments of TCEC and cutechess (``{d=34, ..., mt=12345, tl=1738239, ..., wv=0.65, ...}``)
fill the moves table's evaluation, clock, move time and depth like ``[%eval]``, ``[%clk]`` and
``[%emt]`` (which win when both are there), on the compiled core's path and on the Python
reference alike."""

from __future__ import annotations

import io

import polars as pl
import pytest
from conftest import corpus_path

from notation.diagnostics import Diagnostic

from notation import compiled
from notation.pgn.comment_commands import engine_evaluation, move_time_ms, search_depth
from notation.tables.rows import raw_games, tabulate_raw
from notation.tables.frames import to_frames

GAME = """[Event "E"]
[Result "*"]

1. e4 {d=20, mt=1000, tl=60000, wv=0.62,} e5 {d=22, tl=59000, wv=-M15,} 2. Nf3 {[%eval 0.3] wv=1.00,}
Nc6 {book} 3. Bb5 {ev=0.31, d=22, mt=00:02:04, tl=00:19:12} *
"""


def _moves(text: str, core: bool, monkeypatch: pytest.MonkeyPatch) -> pl.DataFrame:
    """The moves table of ``text``, on the compiled core's path or the Python reference."""
    if not core:
        monkeypatch.setenv("NOTATION_CORE", "python")
    compiled.core_module.cache_clear()
    try:
        return to_frames(io.StringIO(text))[1]
    finally:
        compiled.core_module.cache_clear()


@pytest.mark.parametrize("core", [True, False], ids=["core", "python"])
def test_engine_comments_fill_eval_and_clock(core: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    moves = _moves(GAME, core, monkeypatch)
    rows = moves.select("eval_cp", "eval_mate", "clock_seconds").rows()
    assert rows == [
        (62, None, 60.0),
        (None, -15, 59.0),
        (30, None, None),
        (None, None, None),
        (None, None, 1152.0),
    ]  # older TCEC files write tl= as h:mm:ss


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


#: (comment, move_time_ms, depth) per ply of MOVE_TIMES
MOVE_TIME_CASES = [
    ("d=17, sd=17, mt=3076, tl=57924, wv=0.62,", 3076, 17),
    ("ev=0.31, d=22, mt=00:02:04, tl=00:19:12", 124_000, 22),  # older TCEC: h:mm:ss
    ("[%eval 0.2,18] d=9, mt=12, [%emt 0:00:01.5]", 1500, 18),  # the commands win
    ("[%emt 0:01]", 60_000, None),
    ("mt=-5, d=-3, Rd=-11, sd=4", None, None),  # negative or another key: no value
    ("mt=soon, d=deep,", None, None),
    ("book", None, None),
    ("mt=99999999999999999999999, d=32768,", None, None),  # out of range: null and a warning
    ("[%emt 99999999999999:00:00] d=32767,", None, 32767),
]
SANS = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"]
MOVE_TIMES = (
    '[Event "T"]\n[Result "*"]\n\n'
    + " ".join(
        (f"{i // 2 + 1}. " if i % 2 == 0 else "") + f"{san} {{{comment}}}"
        for i, (san, (comment, _, _)) in enumerate(zip(SANS, MOVE_TIME_CASES))
    )
    + " *\n"
)


@pytest.mark.parametrize("core", [True, False], ids=["core", "python"])
def test_move_time_and_depth_columns(core: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not core:
        monkeypatch.setenv("NOTATION_CORE", "python")
    compiled.core_module.cache_clear()
    problems: list[Diagnostic] = []
    try:
        _, moves, _ = tabulate_raw(raw_games(io.StringIO(MOVE_TIMES)), diagnostics=problems)
    finally:
        compiled.core_module.cache_clear()
    assert moves.schema["move_time_ms"] == pl.Int64 and moves.schema["depth"] == pl.Int16
    assert moves.select("move_time_ms", "depth").rows() == [(ms, depth) for _, ms, depth in MOVE_TIME_CASES]
    found = [(d.code, d.ply, d.message.split(" is not")[0]) for d in problems]
    assert found == [
        ("table.value-out-of-range", 8, "move time 'mt=99999999999999999999999'"),
        ("table.value-out-of-range", 8, "search depth 'd=32768'"),
        ("table.value-out-of-range", 9, "move time '[%emt 99999999999999:00:00]'"),
    ]


def test_move_time_and_depth_agree_with_the_python_readers() -> None:
    _, moves = to_frames(io.StringIO(MOVE_TIMES))
    for (comment, _, _), row in zip(MOVE_TIME_CASES, moves.iter_rows(named=True)):
        ms, depth = move_time_ms([comment]), search_depth([comment])
        if row["move_time_ms"] is not None or ms is None:
            assert row["move_time_ms"] == ms, comment
        if row["depth"] is not None or depth is None:
            assert row["depth"] == depth, comment


def test_most_tcec_moves_with_mt_and_d_get_a_move_time_and_depth() -> None:
    """Of the TCEC file's moves with ``mt=`` (milliseconds or ``h:mm:ss``) and ``d=``, at least
    95% get ``move_time_ms`` and ``depth``; milliseconds: ``tl`` falls by ``mt`` less the increment."""
    path = corpus_path("games", "engine", "tcec-other.pgn.gz")
    _, moves = to_frames(path)
    comment = pl.col("comment")
    timed = moves.filter(comment.str.contains(r"(?:^|[\s,{])mt=\S"))
    deep = moves.filter(comment.str.contains(r"(?:^|[\s,{])d=\S"))
    got_time = timed.select(pl.col("move_time_ms").is_not_null().mean()).item()
    got_depth = deep.select(pl.col("depth").is_not_null().mean()).item()
    print(
        f"{got_time:.1%} of {timed.height} moves with mt= get a move time, {got_depth:.1%} of {deep.height} with d= a depth"
    )
    assert timed.height > 10_000 and got_time >= 0.95
    assert deep.height > 10_000 and got_depth >= 0.95
    # the units: cutechess's first move of a 60+1 game, 60000 - 3076 + 1000 = 57924 ms left
    first = moves.filter(comment.str.contains("mt=3076, tl=57924,")).row(0, named=True)
    assert first["move_time_ms"] == 3076 and first["clock_seconds"] == 57.924
    left = moves.filter(comment.str.contains(r"(?:^|[\s,{])tl=\S"))
    got_clock = left.select(pl.col("clock_seconds").is_not_null().mean()).item()
    print(f"{got_clock:.1%} of {left.height} moves with tl= get a clock")
    assert got_clock >= 0.95


ARENA = """[Event "E"]
[Result "*"]

1. e4 {+0.18/23 239} e5 {+0.25/20 1.2s} 2. Nf3 {-M5/30 3} Nc6 {book} 3. Bb5 {1/2 a note} a6 {+M3/12} *
"""


@pytest.mark.parametrize("core", [True, False], ids=["core", "python"])
def test_score_depth_comments_fill_eval_and_depth_from_whites_view(core: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    moves = _moves(ARENA, core, monkeypatch)
    assert moves.select("eval_cp", "eval_mate", "depth").rows() == [
        (18, None, 23),
        (-25, None, 20),
        (None, -5, 30),
        (None, None, None),
        (None, None, None),
        (None, -3, 12),
    ]
