"""The opening explorer: counts, scores, ratings, tree order; PGN files and datasets agree."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from notation.tables.tree import COLUMNS, opening_tree, root_position
from notation.tables.dataset import WriteOptions, import_files

AFTER_NF3 = "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"


def _game(white: str, black: str, result: str, date: str, moves: str, **tags: str) -> str:
    extra = "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    return (
        f'[Event "Tree test"]\n[Site "?"]\n[Date "{date}"]\n[Round "?"]\n[White "{white}"]\n'
        f'[Black "{black}"]\n[Result "{result}"]\n{extra}\n{moves} {result}\n\n'
    )


GAMES = "".join(
    [
        _game("A", "B", "1-0", "2024.01.01", "1. e4 c5 2. Nf3 d6", WhiteElo="2000", BlackElo="1800"),
        _game("A", "C", "0-1", "2024.02.01", "1. e4 c5 2. Nc3 Nc6", WhiteElo="2000", BlackElo="2200"),
        _game("D", "A", "1/2-1/2", "2024.03.01", "1. e4 c5 2. Nf3 Nc6", WhiteElo="1900", BlackElo="2000"),
        # a transposition: the position after 1. e4 c5 2. Nf3, reached at ply 3
        _game("E", "F", "0-1", "2024.04.01", "1. Nf3 c5 2. e4 d6", WhiteElo="2100", BlackElo="2300"),
        _game("G", "H", "*", "2024.05.01", "1. e4 c5 2. Nf3 d6 3. d4"),
        # reaches the position twice: the first time counts (2... Nf6), not the second (4... d6)
        _game(
            "I", "J", "1-0", "2024.06.01", "1. e4 c5 2. Nf3 Nf6 3. Ng1 Ng8 4. Nf3 d6", WhiteElo="1500", BlackElo="1600"
        ),
        _game("K", "L", "1-0", "2024.07.01", "1. d4 d5"),
        # starts at the position
        _game("M", "N", "0-1", "2024.08.01", "2... d6", WhiteElo="2000", BlackElo="2400", SetUp="1", FEN=AFTER_NF3),
        _game("O", "P", "1-0", "2024.09.01", "1. e4", Variant="Crazyhouse"),
    ]
)


@pytest.fixture
def pgn(tmp_path: Path) -> Path:
    path = tmp_path / "tree.pgn"
    path.write_text(GAMES, encoding="utf-8")
    return path


def rows(frame: pl.DataFrame) -> dict[str, dict[str, object]]:
    return {row["line"]: row for row in frame.iter_rows(named=True)}


def test_counts_scores_ratings_and_the_most_recent_game(pgn: Path) -> None:
    tree = opening_tree(pgn, moves="1. e4 c5 2. Nf3")
    assert tree.diagnostics == [] and tree.fen == AFTER_NF3
    assert tree.frame.columns == list(COLUMNS)
    assert tree.frame.get_column("line").to_list() == ["", "2... d6", "2... Nc6", "2... Nf6"]
    by_line = rows(tree.frame)
    top = by_line[""]
    assert (top["depth"], top["move"], top["games"], top["white_wins"], top["draws"], top["black_wins"]) == (
        0,
        None,
        6,
        2,
        1,
        2,
    )
    assert top["score_pct"] == 50.0  # Black (to move) scored 2.5 of 5 finished games
    assert (top["eco"], top["opening"]) == ("B27", "Sicilian Defense")
    d6 = by_line["2... d6"]
    assert (d6["games"], d6["white_wins"], d6["draws"], d6["black_wins"]) == (4, 1, 0, 2)
    assert (d6["white_win_pct"], d6["draw_pct"], d6["black_win_pct"], d6["score_pct"]) == (33.3, 0.0, 66.7, 66.7)
    assert d6["avg_rating"] == 2167  # Black's ratings 1800, 2300, 2400 (one game unrated)
    # performance: opponents 2000, 2100, 2000; two wins, one loss: 2033.3 + 400 * 1 / 3
    assert d6["performance"] == 2167
    assert (d6["last_date"], d6["last_game"]) == (dt.date(2024, 8, 1), "M - N 0-1")
    assert d6["eco"] == "B50"
    nc6, nf6 = by_line["2... Nc6"], by_line["2... Nf6"]
    assert (nc6["games"], nc6["draws"], nc6["score_pct"], nc6["performance"]) == (1, 1, 50.0, 1900)
    assert (nf6["games"], nf6["white_wins"], nf6["score_pct"], nf6["avg_rating"], nf6["performance"]) == (
        1,
        1,
        0.0,
        1600,
        1100,
    )


def test_depth_gives_a_tree_in_order_and_min_games_prunes(pgn: Path) -> None:
    tree = opening_tree(pgn, moves="1. e4 c5 2. Nf3", depth=2)
    assert tree.frame.get_column("line").to_list() == [
        "",
        "2... d6",
        "2... d6 3. d4",
        "2... Nc6",
        "2... Nf6",
        "2... Nf6 3. Ng1",
    ]
    d4 = rows(tree.frame)["2... d6 3. d4"]
    assert (d4["depth"], d4["move"], d4["games"], d4["score_pct"], d4["performance"]) == (2, "d4", 1, None, None)
    pruned = opening_tree(pgn, moves="1. e4 c5 2. Nf3", depth=2, min_games=2)
    assert pruned.frame.get_column("line").to_list() == ["", "2... d6"]


def test_the_initial_position_counts_standard_games_from_the_start_only(pgn: Path) -> None:
    tree = opening_tree(pgn)
    by_line = rows(tree.frame)
    assert by_line[""]["games"] == 7  # not the game from a FEN, not the Crazyhouse game
    assert {line: row["games"] for line, row in by_line.items() if line} == {"1. e4": 5, "1. Nf3": 1, "1. d4": 1}
    assert by_line["1. e4"]["score_pct"] == 62.5  # White: 1 + 0 + ½ + 1 of 4 finished games (one unfinished)


def test_a_fen_and_the_moves_to_it_give_the_same_tree(pgn: Path) -> None:
    by_moves = opening_tree(pgn, moves="1. e4 c5 2. Nf3", depth=2)
    by_fen = opening_tree(pgn, fen=AFTER_NF3, depth=2)
    assert by_fen.frame.equals(by_moves.frame)
    after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    combined = opening_tree(pgn, fen=after_e4, moves="1... c5 2. Nf3")
    assert combined.fen == AFTER_NF3 and combined.frame.equals(opening_tree(pgn, fen=AFTER_NF3).frame)


@pytest.mark.parametrize(
    ("moves", "fen", "code"),
    [
        ("1. e4 e5 2. Ke3", None, "san.illegal"),
        ("1. e4 Zz9", None, "pgn.syntax"),
        ("1. e4 Sf6", None, "san.unknown-piece"),
        (None, "8/8/8/8 w - - 0 1", "fen.invalid"),
    ],
)
def test_moves_or_a_fen_that_cannot_be_played_are_reported(
    pgn: Path, moves: str | None, fen: str | None, code: str
) -> None:
    tree = opening_tree(pgn, moves=moves, fen=fen)
    assert tree.fen is None and tree.frame.height == 0 and tree.games == 0
    assert [d.code for d in tree.diagnostics][:1] == [code]
    assert root_position(moves, fen)[0] is None


def test_a_position_no_game_reaches_gives_no_rows(pgn: Path) -> None:
    tree = opening_tree(pgn, moves="1. h4 h5")
    assert tree.diagnostics == [] and tree.frame.height == 0 and tree.games == 0


def test_a_missing_input_is_reported(tmp_path: Path) -> None:
    tree = opening_tree(tmp_path / "absent.pgn")
    assert [d.code for d in tree.diagnostics] == ["pgn.io"] and tree.games == 0


def test_a_duplicate_game_counts_once(tmp_path: Path) -> None:
    path = tmp_path / "twice.pgn"
    path.write_text(GAMES + GAMES, encoding="utf-8")
    assert opening_tree(path, depth=2).frame.equals(opening_tree(_write(tmp_path / "once.pgn"), depth=2).frame)


def _write(path: Path) -> Path:
    path.write_text(GAMES, encoding="utf-8")
    return path


@pytest.mark.parametrize(("moves", "depth"), [(None, 3), ("1. e4 c5 2. Nf3", 2), ("1. d4", 1)])
def test_a_dataset_gives_the_same_tree_as_its_pgn(pgn: Path, tmp_path: Path, moves: str | None, depth: int) -> None:
    dataset = tmp_path / "dataset"
    import_files([pgn], dataset, chunk_games=3)  # several parts
    from_pgn = opening_tree(pgn, moves=moves, depth=depth)
    from_dataset = opening_tree(dataset, moves=moves, depth=depth)
    assert from_dataset.diagnostics == []
    assert from_dataset.frame.equals(from_pgn.frame), (from_dataset.frame, from_pgn.frame)


def test_a_dataset_without_position_keys_is_reported(pgn: Path, tmp_path: Path) -> None:
    dataset = tmp_path / "dataset"
    import_files([pgn], dataset, options=WriteOptions(position_key=False))
    tree = opening_tree(dataset)
    assert [d.code for d in tree.diagnostics] == ["tree.no-position-keys"] and tree.frame.height == 0
    no_moves = tmp_path / "no-moves"
    import_files([pgn], no_moves, options=WriteOptions(moves=False))
    assert [d.code for d in opening_tree(no_moves).diagnostics] == ["tree.no-position-keys"]
