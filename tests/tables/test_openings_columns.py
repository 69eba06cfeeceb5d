"""The games table's ``eco_computed``/``opening_computed``: equal to ``classify`` game for game,
with or without the moves table, through the compiled core or the Python reference."""

from __future__ import annotations

import gzip
from pathlib import Path

import polars as pl
import pytest
from conftest import SAMPLE_GAMES, corpus_path

from notation import compiled
from notation.tables.openings import COMPUTED
from notation.openings.eco import classify
from notation.pgn.reader import read_games
from notation.tables.rows import tabulate_source
from notation.tables.schema import GAMES_SCHEMA


def _first_games(tmp_path: Path, count: int) -> Path:
    """The first ``count`` games of the Lichess file (standard, Chess960, From Position and other
    variants among them) as a plain PGN file."""
    text = gzip.open(corpus_path("games", "lichess", "lichess-jishanshaikh4.pgn.gz"), "rt", encoding="utf-8").read(
        4_000_000
    )
    games = text.split("\n\n[Event ")[:count]
    path = tmp_path / "first.pgn"
    path.write_text("\n\n[Event ".join(games) + "\n", encoding="utf-8")
    return path


def _expected(path: Path) -> list[tuple[str | None, str | None]]:
    out = []
    for game in read_games(path):
        opening = classify(game)
        out.append((opening.eco, opening.name) if opening else (None, None))
    return out


def _computed(games: pl.DataFrame) -> list[tuple[str | None, str | None]]:
    return list(games.select(pl.col(name).cast(pl.String) for name in COMPUTED).iter_rows())


def _reference(path: Path, moves: bool, monkeypatch: pytest.MonkeyPatch) -> pl.DataFrame:
    monkeypatch.setenv(compiled.CORE_VARIABLE, "python")
    compiled.core_module.cache_clear()
    try:
        return tabulate_source(path, moves=moves)[0]
    finally:
        monkeypatch.delenv(compiled.CORE_VARIABLE)
        compiled.core_module.cache_clear()


def _files(tmp_path: Path) -> list[Path]:
    return [_first_games(tmp_path, 1500), *sorted(SAMPLE_GAMES.glob("*.pgn"))]


@pytest.mark.parametrize("moves", [True, False])
def test_the_columns_are_classify_on_both_paths(tmp_path: Path, moves: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    for path in _files(tmp_path):
        games = tabulate_source(path, moves=moves)[0]
        assert games.schema == GAMES_SCHEMA
        expected = _expected(path)
        assert _computed(games) == expected, path.name
        assert _computed(_reference(path, moves, monkeypatch)) == expected, path.name
    lichess = tabulate_source(tmp_path / "first.pgn", moves=moves)[0]
    classified = lichess.filter(pl.col("eco_computed").is_not_null()).height
    assert classified > 1300  # most of them: the others are Chess960, variants, from a position
    assert lichess.filter(pl.col("variant") == "Chess960").get_column("eco_computed").null_count() > 0


def test_the_tag_columns_stay_as_written(tmp_path: Path) -> None:
    path = tmp_path / "g.pgn"
    path.write_text('[ECO "Z99"]\n[Opening "My Own"]\n[Result "*"]\n\n1. e4 c5 *\n\n[Result "*"]\n\n1. e4 c5 *\n')
    games = tabulate_source(path, moves=False)[0]
    assert games.select("eco", "opening").cast(pl.String).rows() == [("Z99", "My Own"), (None, None)]
    assert _computed(games) == [("B20", "Sicilian Defense")] * 2


def test_import_writes_the_columns_and_stats_falls_back_to_them(tmp_path: Path) -> None:
    from notation.tables.dataset import import_files
    from notation.tables.frames import scan
    from notation.tables.stats import stats

    path = tmp_path / "g.pgn"
    path.write_text(
        '[ECO "Z99"]\n[Opening "My Own"]\n[Result "1-0"]\n\n1. e4 c5 1-0\n\n'
        '[Result "0-1"]\n\n1. e4 c5 2. Nf3 0-1\n\n[Result "1/2-1/2"]\n\n1. h3 1/2-1/2\n'
    )
    import_files([path], tmp_path / "ds")
    games = scan(tmp_path / "ds")[0].collect()
    assert games.schema == GAMES_SCHEMA
    assert sorted(_computed(games), key=str) == sorted(
        [("B20", "Sicilian Defense"), ("B27", "Sicilian Defense"), ("A00", "Clemenz Opening")], key=str
    )
    for source in (path, tmp_path / "ds"):
        from notation.cli.inputs import load_games

        frame, problems = load_games([source])
        assert problems == [] and frame is not None
        sections = stats(frame, by=["eco", "opening"])
        assert sorted(sections["eco"].get_column("eco").to_list()) == ["A00", "B27", "Z99"]
        assert sorted(sections["opening"].get_column("opening").to_list()) == [
            "Clemenz Opening",
            "My Own",
            "Sicilian Defense",
        ]
