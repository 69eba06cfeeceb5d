"""Standings: the sample round robin's known tie-breaks, forfeits, unfinished games, events."""

from __future__ import annotations

import polars as pl
import pytest
from tables_support import pgn_frame

from notation.tables.standings import standings


def _games(*rows: tuple[str, str, str], **extra: list[object]) -> pl.DataFrame:
    data: dict[str, list[object]] = {
        "white": [r[0] for r in rows],
        "black": [r[1] for r in rows],
        "result": [r[2] for r in rows],
    }
    data.update(extra)
    return pl.DataFrame(data)


def _table(result: object) -> list[tuple[object, ...]]:
    return [
        (r.place, r.player, r.score, r.sonneborn_berger, r.buchholz, r.wins)  # type: ignore[attr-defined]
        for r in result.rows  # type: ignore[attr-defined]
    ]


def test_round_robin_final_table() -> None:
    result = standings(pgn_frame())
    assert result.event == "Riverside Club Championship 2024"
    assert result.games == 15 and result.unfinished == 0 and result.diagnostics == []
    assert _table(result) == [
        ("1", "Cedar, Chen", 3.5, 8.25, 11.5, 3),
        # Brook and Fern: 3 points each, Sonneborn-Berger decides (6.75 > 5.75)
        ("2", "Brook, Ben", 3.0, 6.75, 12.0, 2),
        ("3", "Fern, Farid", 3.0, 5.75, 12.0, 2),
        # Alder and Dale: 2.5 points, equal SB and Buchholz: number of wins decides (2 > 1)
        ("4", "Alder, Anna", 2.5, 4.75, 12.5, 2),
        ("5", "Dale, Dmitri", 2.5, 4.75, 12.5, 1),
        ("6", "Elm, Eva", 0.5, 1.75, 14.5, 0),
    ]
    # complete round robin: Buchholz = 15 - own score for everyone
    assert all(r.buchholz == 15 - r.score for r in result.rows)
    assert result.crosstable["Cedar, Chen"]["Brook, Ben"] == ["0"]
    assert result.crosstable["Brook, Ben"]["Cedar, Chen"] == ["1"]
    assert result.crosstable["Elm, Eva"]["Cedar, Chen"] == ["½"]


def test_round_robin_crosstable_frame() -> None:
    frame = standings(pgn_frame()).table()
    assert frame.columns == [
        "rank",
        "place",
        "player",
        "games",
        "score",
        "sonneborn_berger",
        "buchholz",
        "wins",
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
    ]
    assert frame.row(0)[-6:] == ("x", "0", "1", "1", "1", "½")
    assert frame.get_column("1").to_list() == ["x", "1", "0", "0", "0", "½"]


def test_tiebreak_order_is_configurable() -> None:
    result = standings(pgn_frame(), tiebreaks=["wins"])
    # with wins alone, Alder and Dale are still separated, Brook and Fern share places 2-3
    assert [(r.place, r.player) for r in result.rows][1:5] == [
        ("2-3", "Brook, Ben"),
        ("2-3", "Fern, Farid"),
        ("4", "Alder, Anna"),
        ("5", "Dale, Dmitri"),
    ]
    assert result.table().columns[5:6] == ["wins"]


def test_equal_on_everything_share_a_place() -> None:
    result = standings(_games(("A", "B", "1/2-1/2"), ("C", "D", "1-0")))
    assert [(r.place, r.player) for r in result.rows] == [("1", "C"), ("2-3", "A"), ("2-3", "B"), ("4", "D")]


def test_unfinished_games_are_shown_but_not_scored() -> None:
    games = _games(("A", "B", "1-0"), ("B", "C", "*"), ("C", "A", "1/2-1/2"))
    result = standings(games)
    assert result.unfinished == 1
    by_player = {r.player: r for r in result.rows}
    assert (by_player["B"].games, by_player["B"].unfinished, by_player["B"].score) == (1, 1, 0.0)
    assert by_player["C"].buchholz == 1.5  # only A counts (1.5 points)
    assert result.crosstable["B"]["C"] == ["*"]
    games_with_null = games.with_columns(pl.Series("result", ["1-0", None, "1/2-1/2"]))
    assert _table(standings(games_with_null)) == _table(result)


def test_forfeits_score_but_stay_out_of_tiebreaks() -> None:
    games = _games(
        ("A", "B", "1-0"),
        ("C", "A", "0-1"),
        ("B", "C", "1-0"),
        plies=[30, 0, 41],
        error_count=[0, 0, 0],
    )
    result = standings(games)
    by_player = {r.player: r for r in result.rows}
    assert by_player["A"].score == 2.0 and by_player["A"].forfeits == 1
    # A's tie-breaks count only the game played against B (1 point): SB 1, Buchholz 1, wins 1
    assert (by_player["A"].sonneborn_berger, by_player["A"].buchholz, by_player["A"].wins) == (1.0, 1.0, 1)
    assert result.crosstable["A"]["C"] == ["+"] and result.crosstable["C"]["A"] == ["-"]


def test_zero_plies_with_errors_is_not_a_forfeit_but_termination_forfeit_is() -> None:
    games = _games(
        ("A", "B", "1-0"),
        ("C", "D", "1-0"),
        plies=[0, 25],
        error_count=[1, 0],
        termination=["normal", "Forfeit"],
    )
    result = standings(games)
    assert result.crosstable["A"]["B"] == ["1"]
    assert result.crosstable["C"]["D"] == ["+"]


def test_double_round_robin_cells_and_scores() -> None:
    games = _games(("A", "B", "1-0"), ("B", "A", "1/2-1/2"), ("A", "B", "0-1"))
    result = standings(games)
    assert result.crosstable["A"]["B"] == ["1", "½", "0"]
    assert [(r.player, r.score, r.games, r.sonneborn_berger) for r in result.rows] == [
        ("A", 1.5, 3, 2.25),
        ("B", 1.5, 3, 2.25),
    ]
    assert result.table().row(0)[-2:] == ("x", "1 ½ 0")


def test_event_filter_and_mixed_event_warning() -> None:
    games = _games(("A", "B", "1-0"), ("C", "D", "1-0"), event=["Open", "Blitz"])
    mixed = standings(games)
    assert [d.code for d in mixed.diagnostics] == ["standings.mixed-events"]
    assert mixed.event is None and mixed.events == ["Blitz", "Open"]
    only = standings(games, event="Open")
    assert [r.player for r in only.rows] == ["A", "B"] and only.event == "Open" and only.diagnostics == []
    none = standings(games, event="Nope")
    assert none.rows == [] and none.events == ["Blitz", "Open"]


def test_unnamed_players_are_left_out() -> None:
    result = standings(_games(("A", "?", "1-0"), ("A", "B", "1-0"), ("", "B", "0-1")))
    assert [r.player for r in result.rows] == ["A", "B"]
    assert result.games == 1


@pytest.mark.parametrize("lazy", [False, True])
def test_categorical_columns_and_lazy_input(lazy: bool) -> None:
    frame = pgn_frame().with_columns(
        pl.col("event").cast(pl.Categorical),
        pl.col("result").cast(pl.Enum(["1-0", "0-1", "1/2-1/2", "*"])),
    )
    result = standings(frame.lazy() if lazy else frame)
    assert [r.player for r in result.rows][:2] == ["Cedar, Chen", "Brook, Ben"]


def test_empty_input() -> None:
    result = standings(
        pl.DataFrame(
            {"white": [], "black": [], "result": []},
            schema={"white": pl.String, "black": pl.String, "result": pl.String},
        )
    )
    assert result.rows == [] and result.games == 0


def test_public_export() -> None:
    import notation

    assert notation.standings(_games(("A", "B", "1-0"))).rows[0].player == "A"


def test_sample_round_robin_is_legal_and_complete() -> None:
    """sample_games/round_robin.pgn: 6 players, 15 legal games, every pair once, 5 dated rounds."""
    import itertools

    import chess
    import chess.pgn
    from tables_support import ROUND_ROBIN

    pairs = []
    dates = set()
    with open(ROUND_ROBIN, encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            assert not game.errors, game.errors
            board = game.board()
            for move in game.mainline_moves():
                assert board.is_legal(move)
                board.push(move)
            result = game.headers["Result"]
            if board.is_checkmate():
                assert result == ("0-1" if board.turn == chess.WHITE else "1-0")
            assert not board.is_stalemate()
            pairs.append(frozenset((game.headers["White"], game.headers["Black"])))
            dates.add(game.headers["Date"])
    players = set().union(*pairs)
    assert len(players) == 6 and len(pairs) == 15
    assert set(pairs) == {frozenset(p) for p in itertools.combinations(players, 2)}
    assert len(dates) == 5


def test_crosstable_columns_are_dropped_for_large_fields() -> None:
    from notation.tables.standings import CROSSTABLE_MAX_PLAYERS

    n = CROSSTABLE_MAX_PLAYERS + 2  # a "Swiss" of n players: one round, n/2 games
    games = _games(*[(f"P{i:03}", f"P{i + 1:03}", "1-0") for i in range(0, n, 2)])
    result = standings(games)
    assert not result.has_crosstable_columns
    assert result.table().columns == [
        "rank",
        "place",
        "player",
        "games",
        "score",
        "sonneborn_berger",
        "buchholz",
        "wins",
    ]
    assert result.table(crosstable=True).width == 8 + n
    assert result.crosstable["P000"] == {"P001": ["1"]}


def test_games_left_out_of_the_table_are_each_reported() -> None:
    games = _games(("A", "B", "1-0"), ("?", "B", "1-0"), ("A", "", "0-1"), ("C", "C", "1-0"), ("B", "A", "1/2-1/2"))
    games = games.with_columns(
        pl.lit("t.pgn").alias("source_file"), pl.Series("game_number", [1, 2, 3, 4, 5], dtype=pl.Int32)
    )
    result = standings(games)
    left = [(d.code, d.file, d.game) for d in result.diagnostics]
    assert left == [
        ("standings.unnamed-player", "t.pgn", 2),
        ("standings.unnamed-player", "t.pgn", 3),
        ("standings.self-game", "t.pgn", 4),
    ]
    assert [(r.player, r.score) for r in result.rows] == [("A", 1.5), ("B", 0.5)]
