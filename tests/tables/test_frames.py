"""to_frames: the games and moves rows of small games written for these tests."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import polars as pl
import pytest

from notation.tables.frames import to_frames
from notation.tables.schema import GAMES_SCHEMA, MOVES_SCHEMA

SCHOLAR = """[Event "Test Open"]
[Site "Here"]
[Date "2021.??.??"]
[Round "1"]
[White "Alpha"]
[Black "Beta"]
[Result "1-0"]
[WhiteElo "2100"]
[BlackElo "?"]
[WhiteTitle "FM"]
[TimeControl "180+2"]
[UTCDate "2021.03.04"]
[UTCTime "12:34:56"]
[ECO "C20"]
[Annotator "Tester"]

1. e4 { [%clk 0:03:00] a fine start } e5 { [%clk 0:02:59.5] [%eval 0.25] }
2. Qh5 Nc6 3. Bc4 Nf6?? { [%eval #1] } 4. Qxf7# 1-0
"""

PAWNS = """[Event "Pawn tricks"]
[Site "?"]
[Date "2020.01.02"]
[Round "-"]
[White "Gamma"]
[Black "Delta"]
[Result "*"]
[TimeControl "600"]

1. e4 Nf6 2. e5 d5 3. exd6 $1 cxd6 4. Nf3 g6 5. Bc4 Bg7 6. O-O O-O *
"""

PROMOTION = """[Event "Promotion"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1/2"]
[SetUp "1"]
[FEN "8/P7/8/8/8/8/8/k6K w - - 0 1"]
[TimeControl "-"]

1. a8=Q+ Kb2 2. Qb7+ Kc1 *
"""

BROKEN = """[Event "Broken"]
[Site "?"]
[Date "2020.01.02"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Ke3 Nc6 1-0
"""

TEXT = "\n".join([SCHOLAR, PAWNS, PROMOTION, BROKEN])


@pytest.fixture(scope="module")
def frames(tmp_path_factory: pytest.TempPathFactory) -> tuple[pl.DataFrame, pl.DataFrame]:
    path = tmp_path_factory.mktemp("frames") / "tests.pgn"
    path.write_text(TEXT, encoding="utf-8")
    return to_frames(path)


def test_schemas_exact(frames: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    games, moves = frames
    assert games.schema == GAMES_SCHEMA
    assert moves.schema == MOVES_SCHEMA


def test_one_row_per_game_and_per_legal_ply(frames: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    games, moves = frames
    assert games.height == 4
    assert games["game_number"].to_list() == [1, 2, 3, 4]
    assert games["plies"].to_list() == [7, 12, 4, 2]  # the broken game stops at 2. Ke3
    counts = moves.group_by("game_id", maintain_order=True).len()
    assert counts["len"].to_list() == [7, 12, 4, 2]
    assert set(games["source_file"].cast(pl.String)) == {"tests.pgn"}
    assert games["game_id"].n_unique() == 4


def test_tags_to_columns(frames: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    games, _ = frames
    g = games.row(0, named=True)
    assert g["event"] == "Test Open"
    assert g["date"] is None and g["date_text"] == "2021.??.??"
    assert g["white_elo"] == 2100 and g["black_elo"] is None
    assert g["white_title"] == "FM" and g["black_title"] is None
    assert (g["base_seconds"], g["increment_seconds"]) == (180, 2)
    assert g["utc_datetime"] == dt.datetime(2021, 3, 4, 12, 34, 56, tzinfo=dt.UTC)
    assert g["result"] == "1-0" and g["eco"] == "C20"
    assert g["start_fen"] is None
    assert g["extra_tags"] == [{"name": "Annotator", "value": "Tester"}]
    assert g["status"] in ("ok", "warning")
    assert g["outcome"] == "checkmate"
    assert g["final_fen"].startswith("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq")

    p = games.row(1, named=True)
    assert p["date"] == dt.date(2020, 1, 2)
    assert p["site"] is None and p["round"] is None
    assert (p["base_seconds"], p["increment_seconds"]) == (600, 0)
    assert p["result"] == "*"

    q = games.row(2, named=True)
    assert q["start_fen"] == "8/P7/8/8/8/8/8/k6K w - - 0 1"
    assert (q["base_seconds"], q["increment_seconds"]) == (None, None)
    assert q["time_control"] == "-"
    assert q["white"] is None
    assert q["result"] is None
    assert {"name": "Result", "value": "1/2"} in q["extra_tags"]
    assert {"name": "SetUp", "value": "1"} in q["extra_tags"]

    b = games.row(3, named=True)
    assert b["status"] == "error"
    assert b["first_error"] == "san.illegal"
    assert b["error_count"] >= 1


def test_move_columns(frames: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    games, moves = frames
    ids = games["game_id"].to_list()
    scholar = moves.filter(pl.col("game_id") == ids[0])
    assert scholar["san"].to_list() == ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
    assert scholar["uci"].to_list()[-1] == "h5f7"
    last = scholar.row(6, named=True)
    assert last["piece"] == "Q" and last["captured"] == "P"
    assert last["is_check"] and last["is_mate"]
    assert (last["material_white"], last["material_black"]) == (39, 38)
    assert (last["ply"], last["move_number"], last["color"]) == (7, 4, "white")
    first = scholar.row(0, named=True)
    assert first["clock_seconds"] == 180.0 and first["comment"] == "a fine start"
    assert first["captured"] is None and first["promotion"] is None
    second = scholar.row(1, named=True)
    assert second["clock_seconds"] == 179.5 and second["eval_cp"] == 25
    assert second["comment"] is None and second["color"] == "black"
    sixth = scholar.row(5, named=True)
    assert sixth["nags"] == [4] and sixth["eval_mate"] == 1

    pawns = moves.filter(pl.col("game_id") == ids[1])
    ep = pawns.row(4, named=True)
    assert ep["san"] == "exd6" and ep["is_en_passant"] and ep["captured"] == "P"
    assert ep["nags"] == [1]
    assert (ep["material_white"], ep["material_black"]) == (39, 38)
    castles = pawns.filter(pl.col("is_castle"))
    assert castles["san"].to_list() == ["O-O", "O-O"]
    assert castles["uci"].to_list() == ["e1g1", "e8g8"]
    assert castles["piece"].to_list() == ["K", "K"]

    promo = moves.filter(pl.col("game_id") == ids[2])
    first = promo.row(0, named=True)
    assert first["san"] == "a8=Q+" and first["promotion"] == "Q" and first["uci"] == "a7a8q"
    assert (first["material_white"], first["material_black"]) == (9, 0)
    assert promo["position_key"].null_count() == 0
    assert promo["position_key"].n_unique() == 4


def test_no_moves(tmp_path: Path) -> None:
    path = tmp_path / "t.pgn"
    path.write_text(TEXT, encoding="utf-8")
    games, moves = to_frames(path, moves=False)
    assert games.height == 4 and moves.height == 0
    assert moves.schema == MOVES_SCHEMA


def test_game_id_ignores_layout() -> None:
    from notation.tables.rows import game_id

    assert game_id("1. e4 e5\r\n2. Nf3 *") == game_id("1. e4  e5\n2. Nf3 *\n")
    assert game_id("1. e4 e5 *") != game_id("1. e4 e6 *")
    assert 0 <= game_id(SCHOLAR) < 2**64


def test_handle_source() -> None:
    games, moves = to_frames(io.BytesIO(TEXT.encode()))
    assert games.height == 4 and moves.height == 25


def test_empty_source(tmp_path: Path) -> None:
    path = tmp_path / "empty.pgn"
    path.write_text("", encoding="utf-8")
    games, moves = to_frames(path)
    assert games.height == 0 and games.schema == GAMES_SCHEMA
    assert moves.height == 0 and moves.schema == MOVES_SCHEMA


COMMENTS = [
    "[%clk 0:03:00]",
    "[%clk 1:02]",
    "[%eval #-3,20] [%clk 1:02:03.5] text after",
    "[%eval -.5]",
    "before [%eval +1.25,18] between [%csl Ge4] after",
    "{nothing special}",
    "[%clk 10:00:00] [%clk 0:00:01]",
    "  spaces\n and\tlines  ",
    "[%emt 0:00:05]",
]


def test_vectorised_comment_commands_agree_with_notation_commands(tmp_path: Path) -> None:
    """The moves builder extracts %clk/%eval and cleans comments in Polars; the reference is
    notation.pgn.comment_commands (the model's accessors) and rows.clean_comment, ply by ply."""
    from notation.pgn.comment_commands import clock_seconds, evaluation, move_time_ms, search_depth
    from notation.tables.rows import clean_comment

    sans = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"]
    movetext = " ".join(
        (f"{i // 2 + 1}. " if i % 2 == 0 else "") + f"{san} {{{c.replace('{', '(').replace('}', ')')}}}"
        for i, (san, c) in enumerate(zip(sans, COMMENTS))
    )
    path = tmp_path / "c.pgn"
    path.write_text(f'[Event "c"]\n[Result "*"]\n\n{movetext} *\n', encoding="utf-8")
    _, moves = to_frames(path)
    assert moves.height == len(COMMENTS)
    for comment, row in zip(COMMENTS, moves.iter_rows(named=True)):
        written = [comment.replace("{", "(").replace("}", ")")]
        ev = evaluation(written)
        assert row["clock_seconds"] == clock_seconds(written), comment
        assert row["eval_cp"] == (ev.cp if ev else None), comment
        assert row["eval_mate"] == (ev.mate if ev else None), comment
        assert row["comment"] == clean_comment(written), comment
        assert row["move_time_ms"] == move_time_ms(written), comment
        assert row["depth"] == search_depth(written), comment
