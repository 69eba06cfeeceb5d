"""One player under two spellings: FIDE ids and ``--aliases`` in stats, standings, ledger and
chart; ``notation players``; one matching rule for names and events (a part, any case, accents
ignored; ``--exact`` the whole); standings that say which scored games fail validation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tables_support import run_cli

GAMES = """[Event "Dortmund Sparkassen"]
[Date "2000.07.01"]
[White "Kramnik,V"]
[Black "Lékó, Péter"]
[WhiteFideId "4101588"]
[BlackFideId "707805"]
[Result "1-0"]

1. e4 e5 1-0

[Event "Dortmund Sparkassen"]
[Date "2000.07.02"]
[White "Leko,P"]
[Black "Kramnik, Vladimir"]
[WhiteFideId "707805"]
[BlackFideId "4101588"]
[Result "1/2-1/2"]

1. d4 d5 1/2-1/2

[Event "Dortmund Sparkassen"]
[Date "2000.07.03"]
[White "Kramnik, Vladimir"]
[Black "Hou Yifan"]
[WhiteFideId "4101588"]
[Result "0-1"]

1. d4 d5 0-1

[Event "Dortmund Sparkassen"]
[Date "2000.07.04"]
[White "Hou,Y"]
[Black "Lékó, Péter"]
[BlackFideId "707805"]
[Result "1-0"]

1. c4 c5 1-0
"""


@pytest.fixture()
def games(tmp_path: Path) -> Path:
    path = tmp_path / "dortmund.pgn"
    path.write_text(GAMES, encoding="utf-8")
    return path


@pytest.fixture()
def aliases(tmp_path: Path) -> Path:
    path = tmp_path / "aliases.csv"
    path.write_text("name,canonical\nHou,Y,Hou Yifan\n".replace("Hou,Y,", '"Hou,Y",'), encoding="utf-8")
    return path


def _players(stdout: str) -> dict[str, int]:
    return {row["player"]: row["games"] for row in json.loads(stdout)["player"]}


def test_one_fide_id_is_one_player_in_stats(games: Path) -> None:
    result = run_cli("stats", games, "--by", "player", "--format", "json")
    assert result.exit_code == 0, result.output
    assert _players(result.stdout) == {"Kramnik, Vladimir": 3, "Lékó, Péter": 3, "Hou Yifan": 1, "Hou,Y": 1}


def test_aliases_join_the_rest_in_stats_standings_and_ledger(games: Path, aliases: Path) -> None:
    stats = run_cli("stats", games, "--by", "player", "--format", "json", "--aliases", aliases)
    assert _players(stats.stdout) == {"Kramnik, Vladimir": 3, "Lékó, Péter": 3, "Hou Yifan": 2}
    table = run_cli("standings", games, "--format", "csv", "--aliases", aliases)
    assert table.exit_code == 0, table.output
    lines = table.stdout.splitlines()
    assert len(lines) == 4 and lines[1].split(",")[2] == "Hou Yifan"  # 2/2: first
    ledger = run_cli("ledger", games, "--format", "csv", "--aliases", aliases)
    assert ledger.exit_code == 0, ledger.output
    import csv
    import io

    assert sorted(row[0] for row in list(csv.reader(io.StringIO(ledger.stdout)))[1:]) == [
        "Hou Yifan",
        "Kramnik, Vladimir",
        "Lékó, Péter",
    ]
    initial = aliases.parent / "initial.csv"
    initial.write_text('"Hou,Y",500\n', encoding="utf-8")  # the points of a name the aliases rename
    started = run_cli("ledger", games, "--format", "csv", "--aliases", aliases, "--initial", initial)
    points = {row[0]: float(row[1]) for row in list(csv.reader(io.StringIO(started.stdout)))[1:]}
    assert points["Hou Yifan"] >= 500


def test_a_bad_aliases_row_is_located_and_exits_2(games: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("Hou,Y,Hou Yifan\nonly-one-name\n", encoding="utf-8")
    result = run_cli("standings", games, "--aliases", bad)
    assert result.exit_code == 2
    assert f"{bad}:2" in result.stderr and "players.bad-alias" in result.stderr


def test_the_player_chart_follows_the_fide_id_and_the_matching_rule(games: Path, tmp_path: Path) -> None:
    pytest.importorskip("altair")
    pytest.importorskip("vl_convert")
    out = tmp_path / "k.svg"
    one = run_cli("chart", games, "--kind", "player", "--player", "KRAMNIK", "--out", out)
    assert one.exit_code == 0, one.output
    assert "Kramnik, Vladimir" in out.read_text(encoding="utf-8")
    several = run_cli("chart", games, "--kind", "player", "--player", "hou", "--out", out)
    assert several.exit_code == 2 and "matches 2 players" in several.stderr
    exact = run_cli(
        "chart",
        games,
        "--kind",
        "player",
        "--player",
        "hou yifan",
        "--exact",
        "--out",
        out,
        "--aliases",
        tmp_path / "none.csv",
    )
    assert exact.exit_code == 2  # the aliases file is missing: a usage error before any work
    exact = run_cli("chart", games, "--kind", "player", "--player", "hou yifan", "--exact", "--out", out)
    assert exact.exit_code == 0, exact.output


def test_players_lists_look_alikes_and_its_csv_is_an_aliases_file(games: Path, tmp_path: Path) -> None:
    listed = run_cli("players", games, "--format", "json")
    assert listed.exit_code == 1  # some spellings look like one person
    rows = json.loads(listed.stdout)
    reasons = {row["name"]: row["reason"] for row in rows}
    assert reasons["Kramnik,V"] == "same FIDE id 4101588"
    assert reasons["Hou,Y"] == "same surname and initial"
    assert {row["canonical"] for row in rows} == {"Kramnik, Vladimir", "Lékó, Péter", "Hou Yifan"}
    table = run_cli("players", games)
    assert "Spellings that look like one person" in table.stdout
    written = tmp_path / "found.csv"
    written.write_text(run_cli("players", games, "--format", "csv").stdout, encoding="utf-8")
    left = run_cli("players", games, "--aliases", written, "--format", "csv", "--jobs", "1")
    assert left.exit_code == 0 and left.stdout.splitlines() == ["name,canonical,games,fide_id,reason"]
    merged = run_cli("stats", games, "--by", "player", "--format", "json", "--aliases", written)
    assert len(_players(merged.stdout)) == 3


def test_events_match_a_part_any_case_accents_ignored_or_exactly(games: Path, tmp_path: Path) -> None:
    other = tmp_path / "two.pgn"
    other.write_text(
        GAMES + '\n[Event "Biel Open"]\n[White "A, B"]\n[Black "C, D"]\n[Result "1-0"]\n\n1. e4 1-0\n', encoding="utf-8"
    )
    part = run_cli("standings", other, "--event", "SPARKASSEN", "--format", "json")
    assert part.exit_code == 0, part.output
    assert json.loads(part.stdout)["event"] == "Dortmund Sparkassen"
    assert run_cli("standings", other, "--event", "sparkassen", "--exact").exit_code == 1
    whole = run_cli("standings", other, "--event", "dortmund  sparkassen", "--exact", "--format", "json")
    assert whole.exit_code == 0 and json.loads(whole.stdout)["event"] == "Dortmund Sparkassen"
    accents = run_cli("stats", other, "--player", "leko", "--by", "result", "--format", "json")
    assert json.loads(accents.stdout)["result"][0]["games"] == 3
    exact = run_cli("stats", other, "--player", "leko", "--exact", "--by", "result", "--format", "json")
    assert exact.exit_code == 1
    found = run_cli("filter", other, "--player", "lékó, péter", "--exact")
    assert found.exit_code == 0 and found.stdout.count("[Event ") == 2  # "Leko,P" is another spelling
    assert run_cli("filter", other, "--player", "leko", "--exact").exit_code == 1


def test_standings_name_the_scored_games_that_fail_validation(tmp_path: Path) -> None:
    path = tmp_path / "club.pgn"
    path.write_text(
        '[Event "Club"]\n[White "A, B"]\n[Black "C, D"]\n[Result "1-0"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n\n'
        '[Event "Club"]\n[White "C, D"]\n[Black "E, F"]\n[Result "0-1"]\n\n0-1\n\n'
        '[Event "Club"]\n[White "E, F"]\n[Black "A, B"]\n[Result "1/2-1/2"]\n\n1. d4 d5 1/2-1/2\n',
        encoding="utf-8",
    )
    result = run_cli("standings", path, "--format", "csv")
    assert result.exit_code == 0, result.output
    assert f"{path}:6:13: error[san.illegal] game 1" in result.stderr  # as validate locates it
    assert "standings.invalid-game" in result.stderr and "game 1" in result.stderr
    assert "game 2" not in result.stderr  # a forfeit (no moves, decisive) is no invalid game
    table = run_cli("standings", path)
    assert "+" in table.stdout and "-" in table.stdout
