"""The three import engines write identical datasets: in-process, --jobs 2, dask LocalCluster.

Input: three files of the shared corpus's classic games (119 games) cut into chunks of 20 games,
so Tata Steel 2022 (91 games) is split at game boundaries into several tasks, as large files are.
Kept small: the dask test starts a real LocalCluster with two worker processes.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from notation.cli.main import app
from notation.tables.dataset import committed_parts
from conftest import corpus_path

runner = CliRunner()


FILES = ("tatamast22.pgn", "WorldChamp1886.pgn", "Carlsen8games.pgn")
GAMES = 91 + 20 + 8


def _sources() -> list[str]:
    return [str(corpus_path("games", "classic", name)) for name in FILES]


def _import(out: Path, *extra: str) -> None:
    args = ["import", *_sources(), "--out", str(out), "--chunk-games", "20", "-q", *extra]
    result = runner.invoke(app, args)
    assert result.exit_code in (0, 1), result.output
    assert f"imported {GAMES} games" in result.output


def _contents(out: Path) -> tuple[list[str], list[str], pl.DataFrame, pl.DataFrame]:
    games_parts, moves_parts = committed_parts(out)
    games = pl.concat([pl.read_parquet(p) for p in games_parts])
    moves = pl.concat([pl.read_parquet(p) for p in moves_parts])
    return [p.name for p in games_parts], [p.name for p in moves_parts], games, moves


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], list[str], pl.DataFrame, pl.DataFrame]:
    out = tmp_path_factory.mktemp("engines") / "local"
    _import(out)
    return _contents(out)


def test_local_dataset_shape(local: tuple[list[str], list[str], pl.DataFrame, pl.DataFrame]) -> None:
    games_names, moves_names, games, moves = local
    # small files share chunks: 119 games in chunks of 20, across the three files
    assert games_names == moves_names and len(games_names) == -(-GAMES // 20)
    assert games.height == GAMES and games["game_id"].n_unique() == GAMES
    assert moves.height == games["plies"].sum()


def test_jobs_2_identical(local: tuple[list[str], list[str], pl.DataFrame, pl.DataFrame], tmp_path: Path) -> None:
    _import(tmp_path / "jobs", "--jobs", "2")
    _assert_same(local, _contents(tmp_path / "jobs"))


def test_dask_local_cluster_identical(
    local: tuple[list[str], list[str], pl.DataFrame, pl.DataFrame], tmp_path: Path
) -> None:
    pytest.importorskip("distributed")
    # no --scheduler: a LocalCluster(n_workers=2, processes=True, threads_per_worker=1)
    _import(tmp_path / "dask", "--engine", "dask", "--jobs", "2")
    _assert_same(local, _contents(tmp_path / "dask"))


def _assert_same(
    a: tuple[list[str], list[str], pl.DataFrame, pl.DataFrame],
    b: tuple[list[str], list[str], pl.DataFrame, pl.DataFrame],
) -> None:
    assert a[0] == b[0] and a[1] == b[1]
    assert a[2].equals(b[2])
    assert a[3].equals(b[3])
