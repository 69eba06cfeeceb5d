"""`notation import`: options, summary, exit codes (Typer's CliRunner)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from notation.cli.main import app
from notation.tables.frames import scan

runner = CliRunner()

CLEAN = """[Event "CLI test"]
[Site "?"]
[Date "2024.01.01"]
[Round "{n}"]
[White "A{n}"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
"""

BROKEN = """[Event "CLI test"]
[Site "?"]
[Date "2024.01.01"]
[Round "9"]
[White "X"]
[Black "Y"]
[Result "1-0"]

1. e4 e5 2. Ke3 1-0
"""


@pytest.fixture
def clean_pgn(tmp_path: Path) -> Path:
    path = tmp_path / "clean.pgn"
    path.write_text("\n".join(CLEAN.format(n=n) for n in range(3)), encoding="utf-8")
    return path


def test_help() -> None:
    result = runner.invoke(app, ["import", "--help"])
    assert result.exit_code == 0
    for option in ("--out", "--jobs", "--no-moves", "--engine", "--scheduler", "--no-position-key"):
        assert option in result.output


def test_import_clean_exit_0_and_summary(clean_pgn: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    result = runner.invoke(app, ["import", str(clean_pgn), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "imported 3 games (21 plies) from 1 file(s)" in result.output
    assert "duplicates skipped 0" in result.output
    games, moves = scan(out)
    assert games.collect().height == 3 and moves.collect().height == 21


def test_reimport_skips_duplicates(clean_pgn: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    runner.invoke(app, ["import", str(clean_pgn), "--out", str(out)])
    result = runner.invoke(app, ["import", str(clean_pgn), "--out", str(out), "--json"])
    assert result.exit_code == 0
    summary = json.loads(result.output)
    assert summary["games_read"] == 3 and summary["duplicates_skipped"] == 3
    assert summary["games_imported"] == 0
    assert scan(out)[0].collect().height == 3


def test_games_with_errors_exit_1(tmp_path: Path) -> None:
    path = tmp_path / "broken.pgn"
    path.write_text(BROKEN, encoding="utf-8")
    result = runner.invoke(app, ["import", str(path), "--out", str(tmp_path / "ds")])
    assert result.exit_code == 1
    assert "error 1" in result.output
    games = scan(tmp_path / "ds")[0].collect()
    assert games["status"].to_list() == ["error"] and games["plies"].to_list() == [2]


def test_no_moves(clean_pgn: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    result = runner.invoke(app, ["import", str(clean_pgn), "--out", str(out), "--no-moves"])
    assert result.exit_code == 0
    assert not (out / "moves").exists()
    assert scan(out)[1].collect().height == 0


def test_missing_input_exit_2(clean_pgn: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["import", str(clean_pgn), str(tmp_path / "nope.pgn"), "--out", str(tmp_path / "ds")])
    assert result.exit_code == 2
    assert "pgn.io" in result.output


def test_no_pgn_files_exit_2(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(app, ["import", str(empty), "--out", str(tmp_path / "ds")])
    assert result.exit_code == 2
    assert "no PGN files" in result.output


def test_unknown_engine_exit_2(clean_pgn: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["import", str(clean_pgn), "--out", str(tmp_path / "ds"), "--engine", "spark"])
    assert result.exit_code == 2
    assert "Invalid value for '--engine'" in result.output and "'spark'" in result.output


def test_scheduler_without_dask_exit_2(clean_pgn: Path, tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["import", str(clean_pgn), "--out", str(tmp_path / "ds"), "--scheduler", "tcp://127.0.0.1:1"]
    )
    assert result.exit_code == 2
    assert "--scheduler needs --engine dask" in result.output


def test_dask_missing_exit_2(clean_pgn: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    result = runner.invoke(app, ["import", str(clean_pgn), "--out", str(tmp_path / "ds"), "--engine", "dask"])
    assert result.exit_code == 2
    assert "notation[distributed]" in result.output


def test_unreachable_scheduler_exit_2(clean_pgn: Path, tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    result = runner.invoke(
        app,
        [
            "import",
            str(clean_pgn),
            "--out",
            str(tmp_path / "ds"),
            "--engine",
            "dask",
            "--scheduler",
            "tcp://127.0.0.1:9",
            "--scheduler-timeout",
            "1",
        ],
    )
    assert result.exit_code == 2
    assert "scheduler" in result.output
    assert not (tmp_path / "ds" / "games").exists() or not list((tmp_path / "ds" / "games").iterdir())


def test_a_path_given_twice_is_imported_once_and_the_note_says_so(clean_pgn: Path, tmp_path: Path) -> None:
    import polars as pl

    result = runner.invoke(app, ["import", str(clean_pgn), str(clean_pgn), "--out", str(tmp_path / "ds"), "-q"])
    assert result.exit_code == 0, result.output
    assert f"{clean_pgn}: note: given more than once, read once" in result.stderr
    once = runner.invoke(app, ["import", str(clean_pgn), "--out", str(tmp_path / "one"), "-q"])
    assert once.exit_code == 0
    assert pl.read_parquet(tmp_path / "ds" / "games").height == pl.read_parquet(tmp_path / "one" / "games").height
