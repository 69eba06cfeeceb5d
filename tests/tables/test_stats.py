"""Statistics sections on small hand-built games tables."""

from __future__ import annotations

import polars as pl
import pytest
from tables_support import pgn_frame, write_dataset

from notation.tables.stats import SECTIONS, stats


def _games() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "white": ["A", "A", "B", "C", "B", "A"],
            "black": ["B", "C", "C", "A", "A", "?"],
            "result": ["1-0", "1/2-1/2", "0-1", "1-0", "*", "1-0"],
            "white_elo": [2000, 2000, 1900, 2400, 1900, 2000],
            "black_elo": [1900, None, 2400, 2000, 2000, 1500],
            "eco": ["C20", "C20", None, "B01", "C20", "A00"],
            "opening": ["King's Pawn", "King's Pawn", None, "Scandinavian", "King's Pawn", "Polish"],
            "termination": ["normal", "normal", "time forfeit", "normal", None, "normal"],
            "plies": [9, 19, 20, 200, None, 0],
            "event": ["E", "E", "E", "F", "F", None],
        }
    )


def test_all_sections_by_default() -> None:
    assert list(stats(_games())) == list(SECTIONS)


def test_result_summary() -> None:
    row = stats(_games(), by=["result"])["result"].row(0, named=True)
    assert row["games"] == 6 and row["unfinished"] == 1
    assert (row["white_wins"], row["draws"], row["black_wins"]) == (3, 1, 1)
    # percentages over the 5 finished games
    assert (row["white_win_pct"], row["draw_pct"], row["black_win_pct"]) == (60.0, 20.0, 20.0)
    assert row["white_score_pct"] == 70.0
    assert row["max_moves"] == 100 and row["median_moves"] == 10.0


def test_elo_bands_edges_and_unrated() -> None:
    games = pl.DataFrame(
        {
            "result": ["1-0"] * 8,
            "white_elo": [2000, 2000, 2000, 2100, 2099, 2400, 2500, None],
            "black_elo": [2401, 2400, 2000, 2000, 2000, 2000, 2000, 2000],
        }
    )
    table = stats(games, by=["elo-band"])["elo-band"]
    assert table.select("elo_band", "games").rows() == [
        ("< -400", 1),
        ("[-400,-300)", 1),
        ("[0,100)", 2),
        ("[100,200)", 1),
        (">= 400", 2),
        ("unrated", 1),
    ]
    expected = dict(table.select("elo_band", "expected_white_pct").rows())
    assert expected["[0,100)"] == pytest.approx(100 * (0.5 + 1 / (1 + 10 ** (-99 / 400))) / 2, abs=0.06)
    assert expected["unrated"] is None


def test_frequencies_with_missing_values() -> None:
    result = stats(_games(), by=["eco", "opening", "termination", "event"])
    eco = result["eco"].select("eco", "games", "share_pct").rows()
    assert eco == [("C20", 3, 50.0), ("?", 1, 16.7), ("A00", 1, 16.7), ("B01", 1, 16.7)]
    c20 = result["eco"].row(0, named=True)
    assert (c20["white_wins"], c20["draws"], c20["unfinished"], c20["white_score_pct"]) == (1, 1, 1, 75.0)
    assert result["opening"].get_column("opening").to_list()[0] == "King's Pawn"
    assert result["termination"].select("termination", "games").rows()[0] == ("normal", 4)
    events = {r["event"]: r for r in result["event"].iter_rows(named=True)}
    assert events["E"]["players"] == 3 and events["F"]["players"] == 3 and events["?"]["players"] == 1


def test_length_bands() -> None:
    table = stats(_games(), by=["length"])["length"]
    # plies 9 -> 5 moves, 19 -> 10, 20 -> 10, 200 -> 100, 0 -> 0, null -> ?
    assert table.select("length", "games").rows() == [("0-9", 2), ("10-19", 2), ("100+", 1), ("?", 1)]
    assert table.get_column("share_pct").sum() == pytest.approx(100.0, abs=0.2)


def test_player_records_and_linear_performance() -> None:
    table = stats(_games(), by=["player"])["player"]
    rows = {r["player"]: r for r in table.iter_rows(named=True)}
    assert "?" not in rows  # unnamed players are not players
    a = rows["A"]
    # A: beat B (1900), drew C (unrated there), lost to C (2400), beat an unnamed player (1500),
    # one unfinished game against B
    assert (a["games"], a["wins"], a["draws"], a["losses"], a["score"], a["unfinished"]) == (4, 2, 1, 1, 2.5, 1)
    # rated opponents of A's finished games: B 1900 (win), C 2400 (loss), ? 1500 (win)
    assert a["rated_games"] == 3
    assert a["avg_opp_rating"] == round((1900 + 2400 + 1500) / 3)
    assert a["performance"] == round((1900 + 2400 + 1500) / 3 + 400 * (2 - 1) / 3)
    c = rows["C"]
    assert (c["games"], c["wins"], c["draws"], c["losses"], c["score"], c["score_pct"]) == (3, 2, 1, 0, 2.5, 83.3)
    # C's opponents: A in the draw had 2000 as White, B 1900, A 2000 -> all rated
    assert c["performance"] == round((2000 + 1900 + 2000) / 3 + 400 * 2 / 3)


def test_player_without_rated_opponents_has_no_performance() -> None:
    games = pl.DataFrame({"white": ["A"], "black": ["B"], "result": ["0-1"]})
    rows = stats(games, by=["player"])["player"].rows(named=True)
    assert all(r["performance"] is None and r["avg_opp_rating"] is None for r in rows)
    assert {r["player"]: r["score"] for r in rows} == {"B": 1.0, "A": 0.0}


def test_unknown_section_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="nope"):
        stats(_games(), by=["nope"])


def test_lazy_dataset_input_matches_eager(tmp_path: object) -> None:
    from pathlib import Path

    from notation.tables.frames import scan

    frame = pgn_frame()
    root = write_dataset(frame, Path(str(tmp_path)) / "ds")
    lazy_games, _ = scan(root)
    eager = stats(frame)
    lazy = stats(lazy_games)
    for name in SECTIONS:
        assert eager[name].rows() == lazy[name].rows(), name


def test_empty_table() -> None:
    games = pl.DataFrame(schema={"white": pl.String, "black": pl.String, "result": pl.String})
    result = stats(games)
    assert result["result"].row(0, named=True)["games"] == 0
    assert result["player"].height == 0
