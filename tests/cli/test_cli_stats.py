"""`notation stats`: golden outputs, every option and exit code."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from tables_support import ROUND_ROBIN, check_golden, pgn_frame, run_cli, write_dataset

from notation.tables.stats import SECTIONS


@pytest.mark.parametrize(
    ("options", "golden"),
    [
        ([], "round_robin.txt"),
        (["--format", "json"], "round_robin.json"),
        (["--by", "player", "--format", "csv"], "player.csv"),
    ],
)
def test_golden(options: list[str], golden: str) -> None:
    result = run_cli("stats", ROUND_ROBIN, *options)
    assert result.exit_code == 0, result.stderr
    check_golden(f"stats/{golden}", result.stdout)


def test_json_has_every_section() -> None:
    data = json.loads(run_cli("stats", ROUND_ROBIN, "--format", "json").stdout)
    assert list(data) == list(SECTIONS)
    assert data["result"][0]["games"] == 15 and data["result"][0]["white_score_pct"] == 70.0


def test_by_selects_sections_in_order() -> None:
    data = json.loads(run_cli("stats", ROUND_ROBIN, "--format", "json", "--by", "eco", "--by", "result").stdout)
    assert list(data) == ["eco", "result"]


def test_limit() -> None:
    data = json.loads(run_cli("stats", ROUND_ROBIN, "--format", "json", "--by", "eco", "--limit", "3").stdout)
    assert len(data["eco"]) == 3
    table = run_cli("stats", ROUND_ROBIN, "--by", "eco").stdout  # table default: 20 rows; 14 ECOs
    assert all(code in table for code in ("A05", "B90", "C67", "D59"))
    assert run_cli("stats", ROUND_ROBIN, "--limit", "-1").exit_code == 2


def test_dataset_gives_the_same_statistics(tmp_path: Path) -> None:
    dataset = write_dataset(pgn_frame(), tmp_path / "ds")
    assert (
        run_cli("stats", dataset, "--format", "json").stdout == run_cli("stats", ROUND_ROBIN, "--format", "json").stdout
    )


def test_csv_and_parquet_to_directory(tmp_path: Path) -> None:
    out = tmp_path / "csv"
    result = run_cli("stats", ROUND_ROBIN, "--by", "elo-band", "--by", "length", "--format", "csv", "--out", out)
    assert result.exit_code == 0 and result.stdout == ""
    assert sorted(p.name for p in out.iterdir()) == ["elo-band.csv", "length.csv"]
    assert (out / "length.csv").read_text(encoding="utf-8").splitlines()[1].startswith("0-9,11,73.3,")
    pq = tmp_path / "pq"
    assert run_cli("stats", ROUND_ROBIN, "--format", "parquet", "--out", pq).exit_code == 0
    assert sorted(p.stem for p in pq.iterdir()) == sorted(SECTIONS)
    players = pl.read_parquet(pq / "player.parquet")
    assert players.height == 6 and players.row(0, named=True)["player"] == "Cedar, Chen"


def test_single_section_parquet_and_table_to_file(tmp_path: Path) -> None:
    target = tmp_path / "result.parquet"
    assert run_cli("stats", ROUND_ROBIN, "--by", "result", "--format", "parquet", "--out", target).exit_code == 0
    assert pl.read_parquet(target).row(0, named=True)["games"] == 15
    text = tmp_path / "stats.txt"
    result = run_cli("stats", ROUND_ROBIN, "--out", text)
    assert result.exit_code == 0 and result.stdout == ""
    assert text.read_text(encoding="utf-8") == run_cli("stats", ROUND_ROBIN).stdout


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run_cli("stats", ROUND_ROBIN, "--format", "parquet").exit_code == 2
    csv_all = run_cli("stats", ROUND_ROBIN, "--format", "csv")
    assert csv_all.exit_code == 2 and "--by" in csv_all.stderr
    assert run_cli("stats", ROUND_ROBIN, "--by", "colour").exit_code == 2
    assert run_cli("stats", ROUND_ROBIN, "--format", "xlsx").exit_code == 2
    assert run_cli("stats").exit_code == 2
    assert run_cli("stats", tmp_path / "missing.pgn").exit_code == 2
    empty_dir = tmp_path / "empty"
    empty_dir.mkdir()
    assert run_cli("stats", empty_dir).exit_code == 2
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    unwritable = run_cli("stats", ROUND_ROBIN, "--by", "result", "--out", blocker / "sub.txt")
    assert unwritable.exit_code == 2 and "cannot write" in unwritable.stderr


def test_no_games_exit_1(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pgn"
    empty.write_text("", encoding="utf-8")
    result = run_cli("stats", empty, "--by", "result", "--format", "csv")
    assert result.exit_code == 1 and "no games" in result.stderr
    assert result.stdout.startswith("games,white_wins")


def test_help() -> None:
    result = run_cli("stats", "--help")
    assert result.exit_code == 0
    for word in ("--by", "--format", "--out", "--limit", "performance", "parquet"):
        assert word in result.stdout
