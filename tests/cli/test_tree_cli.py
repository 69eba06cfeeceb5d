"""`notation tree`: golden output, every format, PGN and dataset alike, exit codes."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from tables_support import ROUND_ROBIN, check_golden, run_cli

from notation.tables.tree import COLUMNS
from notation.tables.dataset import WriteOptions, import_files


def test_golden_table() -> None:
    result = run_cli("tree", ROUND_ROBIN, "--depth", "2")
    assert result.exit_code == 0, result.stderr
    check_golden("tree/round_robin.txt", result.stdout)


def test_json_and_csv_carry_every_column() -> None:
    data = json.loads(run_cli("tree", ROUND_ROBIN, "--moves", "1. e4", "--format", "json").stdout)
    assert data["fen"] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert [row["line"] for row in data["rows"]] == ["", "1... e5", "1... c5", "1... c6"]
    assert list(data["rows"][0]) == list(COLUMNS) and data["rows"][0]["games"] == 10
    assert data["rows"][1]["last_date"] == "2024-03-04"
    table = list(
        csv.DictReader(io.StringIO(run_cli("tree", ROUND_ROBIN, "--moves", "1. e4", "--format", "csv").stdout))
    )
    assert [row["line"] for row in table] == ["", "1... e5", "1... c5", "1... c6"]
    assert table[1]["games"] == "8" and table[1]["eco"] == "C20" and table[0]["move"] == ""


def test_fen_and_min_games() -> None:
    fen = "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
    data = json.loads(run_cli("tree", ROUND_ROBIN, "--fen", fen, "--min-games", "2", "--format", "json").stdout)
    assert [(row["line"], row["games"]) for row in data["rows"]] == [("", 3), ("1... d5", 2)]


@pytest.mark.parametrize("fmt", ["table", "json", "csv"])
def test_a_dataset_gives_the_same_output_as_its_pgn(tmp_path: Path, fmt: str) -> None:
    dataset = tmp_path / "dataset"
    import_files([ROUND_ROBIN], dataset)
    options = ["--depth", "3", "--format", fmt]
    from_pgn = run_cli("tree", ROUND_ROBIN, *options)
    from_dataset = run_cli("tree", dataset, *options)
    assert from_pgn.exit_code == from_dataset.exit_code == 0
    assert from_dataset.stdout == from_pgn.stdout


def test_exit_codes(tmp_path: Path) -> None:
    nobody = run_cli("tree", ROUND_ROBIN, "--moves", "1. h4 h5")
    assert nobody.exit_code == 1 and "no game reaches the position" in nobody.stderr
    illegal = run_cli("tree", ROUND_ROBIN, "--moves", "1. e4 e5 2. Ke3")
    assert illegal.exit_code == 2 and "error[san.illegal]" in illegal.stderr and illegal.stdout == ""
    assert run_cli("tree", ROUND_ROBIN, "--fen", "8/8 w - - 0 1").exit_code == 2
    assert run_cli("tree", tmp_path / "absent.pgn").exit_code == 2
    assert run_cli("tree", ROUND_ROBIN, "--depth", "0").exit_code == 2
    dataset = tmp_path / "keyless"
    import_files([ROUND_ROBIN], dataset, options=WriteOptions(position_key=False))
    keyless = run_cli("tree", dataset)
    assert keyless.exit_code == 2 and "tree.no-position-keys" in keyless.stderr


def test_help_speaks_of_the_explorer() -> None:
    result = run_cli("tree", "--help")
    assert result.exit_code == 0 and "opening explorer" in result.stdout


def test_the_docs_example_is_the_real_output() -> None:
    from conftest import ROOT

    command = '$ notation tree sample_games/round_robin.pgn --moves "1. e4" --depth 2\n'
    page = (ROOT / "docs" / "openings.md").read_text(encoding="utf-8")
    shown = page.split(command, 1)[1].split("```", 1)[0]
    result = run_cli("tree", ROUND_ROBIN, "--moves", "1. e4", "--depth", "2")
    assert result.exit_code == 0 and result.stdout.rstrip("\n") == shown.rstrip("\n")
