"""`notation standings`: golden final table of the sample round robin, options, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tables_support import ROUND_ROBIN, check_golden, pgn_frame, run_cli, write_dataset

EVENT = "Riverside Club Championship 2024"


@pytest.mark.parametrize(
    ("options", "golden"),
    [
        ([], "round_robin.txt"),
        (["--format", "csv"], "round_robin.csv"),
        (["--format", "json"], "round_robin.json"),
        (["--event", EVENT, "--tiebreak", "wins", "--tiebreak", "sonneborn-berger"], "wins-first.txt"),
    ],
)
def test_golden(options: list[str], golden: str) -> None:
    result = run_cli("standings", ROUND_ROBIN, *options)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    check_golden(f"standings/{golden}", result.stdout)


def test_json_holds_the_known_tiebreaks() -> None:
    data = json.loads(run_cli("standings", ROUND_ROBIN, "--format", "json").stdout)
    assert data["event"] == EVENT and data["games"] == 15
    assert data["tiebreaks"] == ["sonneborn-berger", "buchholz", "wins"]
    rows = [(r["place"], r["player"], r["score"], r["sonneborn_berger"], r["wins"]) for r in data["standings"]]
    assert rows[1:5] == [
        ("2", "Brook, Ben", 3.0, 6.75, 2),
        ("3", "Fern, Farid", 3.0, 5.75, 2),
        ("4", "Alder, Anna", 2.5, 4.75, 2),
        ("5", "Dale, Dmitri", 2.5, 4.75, 1),
    ]


def test_dataset_gives_the_same_table(tmp_path: Path) -> None:
    dataset = write_dataset(pgn_frame(), tmp_path / "ds")
    assert run_cli("standings", dataset).stdout == run_cli("standings", ROUND_ROBIN).stdout


def test_mixed_events_warn_and_event_selects(tmp_path: Path) -> None:
    other = tmp_path / "other.pgn"
    other.write_text('[Event "Blitz"]\n[White "X"]\n[Black "Y"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n', encoding="utf-8")
    mixed = run_cli("standings", ROUND_ROBIN, other, "--format", "csv")
    assert mixed.exit_code == 0 and "warning[standings.mixed-events]" in mixed.stderr
    assert mixed.stdout.count("\n") == 1 + 8
    only = run_cli("standings", ROUND_ROBIN, other, "--event", "Blitz", "--format", "csv")
    assert only.exit_code == 0 and only.stderr == ""
    assert [line.split(",")[2] for line in only.stdout.splitlines()[1:]] == ["X", "Y"]


def test_unknown_event_exits_1_and_lists_events() -> None:
    result = run_cli("standings", ROUND_ROBIN, "--event", "Nope")
    assert result.exit_code == 1 and result.stdout == ""
    assert "no games of event 'Nope'" in result.stderr and EVENT in result.stderr


def test_only_unfinished_games_exit_1(tmp_path: Path) -> None:
    pgn = tmp_path / "u.pgn"
    pgn.write_text('[Event "E"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. d4 *\n', encoding="utf-8")
    result = run_cli("standings", pgn)
    assert result.exit_code == 1
    assert "1 unfinished game(s) not scored" in result.stderr


def test_exit_2() -> None:
    assert run_cli("standings", "nowhere.pgn").exit_code == 2
    assert run_cli("standings").exit_code == 2
    assert run_cli("standings", ROUND_ROBIN, "--tiebreak", "koya").exit_code == 2
    assert run_cli("standings", ROUND_ROBIN, "--format", "parquet").exit_code == 2


def test_help() -> None:
    result = run_cli("standings", "--help")
    assert result.exit_code == 0
    for word in ("--event", "--tiebreak", "Sonneborn-Berger", "Buchholz", "forfeit"):
        assert word in result.stdout


def test_large_field_omits_crosstable(tmp_path: Path) -> None:
    games = "".join(
        f'[Event "Swiss"]\n[White "P{i:03}"]\n[Black "P{i + 1:03}"]\n[Result "1/2-1/2"]\n\n1. e4 e5 1/2-1/2\n\n'
        for i in range(0, 66, 2)
    )
    pgn = tmp_path / "swiss.pgn"
    pgn.write_text(games, encoding="utf-8")
    result = run_cli("standings", pgn, "--format", "csv")
    assert result.exit_code == 0
    assert "crosstable omitted: 66 players" in result.stderr
    assert result.stdout.splitlines()[0] == "rank,place,player,games,score,sonneborn_berger,buchholz,wins"
    assert result.stdout.splitlines()[1] == "1,1-66,P000,1,0.5,0.25,0.5,0"
    table = run_cli("standings", pgn)
    assert table.exit_code == 0 and "P065" in table.stdout


def test_a_path_given_twice_counts_its_games_once() -> None:
    from tables_support import ROUND_ROBIN, run_cli

    once = run_cli("standings", ROUND_ROBIN, "--format", "csv")
    twice = run_cli("standings", ROUND_ROBIN, ROUND_ROBIN, "--format", "csv")
    assert twice.exit_code == 0 and twice.stdout == once.stdout
    assert twice.stderr.strip() == f"{ROUND_ROBIN}: note: given more than once, read once"
