"""`-` reads PGN from standard input in every command that takes PGN paths."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SAMPLE_GAMES
from typer.testing import CliRunner

from notation.cli.main import app

ROUND_ROBIN_PATH = SAMPLE_GAMES / "round_robin.pgn"
ROUND_ROBIN = ROUND_ROBIN_PATH.read_text(encoding="utf-8")
FORMAT_OPTION = {"standings": [], "ledger": ["--format", "json"], "stats": ["--format", "json"]}


@pytest.mark.parametrize("command", sorted(FORMAT_OPTION))
def test_dash_reads_stdin_like_the_file(command: str) -> None:
    runner = CliRunner()
    from_file = runner.invoke(app, [command, str(ROUND_ROBIN_PATH), *FORMAT_OPTION[command]])
    from_stdin = runner.invoke(app, [command, "-", *FORMAT_OPTION[command]], input=ROUND_ROBIN)
    assert from_file.exit_code == 0, from_file.output
    assert from_stdin.exit_code == 0, from_stdin.output
    assert from_stdin.output == from_file.output


def test_validate_reads_stdin() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["validate", "-", "--format", "jsonl"], input=ROUND_ROBIN)
    assert result.exit_code == 0, result.output
    assert len(result.output.strip().splitlines()) == 15


def test_import_reads_stdin(tmp_path: Path) -> None:
    import polars as pl

    runner = CliRunner()
    out = tmp_path / "dataset"
    result = runner.invoke(app, ["import", "-", "--out", str(out)], input=ROUND_ROBIN)
    assert result.exit_code == 0, result.output
    games = pl.read_parquet(out / "games" / "*.parquet")
    assert games.height == 15
    assert set(games["source_file"].cast(pl.String)) == {"<stdin>"}
    again = runner.invoke(app, ["import", "-", "--out", str(out)], input=ROUND_ROBIN)
    assert again.exit_code == 0
    assert pl.read_parquet(out / "games" / "*.parquet").height == 15  # no duplicates
