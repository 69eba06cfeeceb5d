"""Wrongly scored wins on time and dead positions through the commands: `validate`, `filter
--unwinnable-timeouts`, the `stats` termination count and the `import` columns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tables_support import run_cli

from notation.tables.frames import scan

HEAD = '[Event "Flags"]\n[Site "?"]\n[Date "2026.01.01"]\n[Round "{n}"]\n[White "W{n}"]\n[Black "B{n}"]\n'
WALL = "5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - - 0 50"
GAMES = [
    # Black's pieces cannot get through White's wall: Black's win on time is a draw (6.9)
    ("0-1", "Time forfeit", WALL, "50. Ke3 Ke7 51. Kf3 Kf6"),
    # White can still mate there: White's win on time stands
    ("1-0", "Time forfeit", WALL, "50. Ke3 Ke7 51. Kf3 Kf6"),
    # a bare king won on time
    ("1-0", "Time forfeit", "8/8/4k3/8/8/8/1r6/4K3 b - - 0 70", "70... Rb1+ 71. Kd2"),
    # resigned in a dead position after a capture (and played on)
    ("1-0", "Normal", "8/8/4k3/8/8/2K5/3r4/8 w - - 0 40", "40. Kxd2 Kd5 41. Ke3"),
]


@pytest.fixture
def flags(tmp_path: Path) -> Path:
    path = tmp_path / "flags.pgn"
    text = "".join(
        HEAD.format(n=n) + f'[Result "{result}"]\n[Termination "{termination}"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n'
        f"{moves} {result}\n\n"
        for n, (result, termination, fen, moves) in enumerate(GAMES, 1)
    )
    path.write_text(text, encoding="utf-8")
    return path


def test_validate_reports_them(flags: Path) -> None:
    result = run_cli("validate", flags, "--format", "jsonl")
    assert result.exit_code == 1
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    found = [[d["code"] for d in r["diagnostics"]] for r in reports]
    assert found == [
        ["result.time-unwinnable"],
        [],
        ["result.time-unwinnable"],
        ["game.dead-position", "result.mismatch", "game.move-after-dead-position"],
    ]
    assert reports[3]["outcome"]["termination"] == "dead_position"


def test_filter_selects_the_wrongly_scored_timeouts(flags: Path, tmp_path: Path) -> None:
    out = tmp_path / "wrong.pgn"
    result = run_cli("filter", flags, "--unwinnable-timeouts", "--out", out)
    assert result.exit_code == 0, result.output
    assert "2 game(s) written" in result.stderr
    text = out.read_text(encoding="utf-8")
    assert '[Round "1"]' in text and '[Round "3"]' in text and '[Round "2"]' not in text
    inverted = run_cli("filter", flags, "--unwinnable-timeouts", "--invert")
    assert inverted.stdout.count("[Event ") == 2


def test_stats_counts_them_by_termination(flags: Path) -> None:
    data = json.loads(run_cli("stats", flags, "--format", "json", "--by", "termination").stdout)
    rows = {row["termination"]: row for row in data["termination"]}
    assert rows["Time forfeit"]["games"] == 3 and rows["Time forfeit"]["unwinnable_timeouts"] == 2
    assert rows["Normal"]["unwinnable_timeouts"] == 0


def test_import_keeps_the_dead_ply_and_who_can_mate(flags: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    result = run_cli("import", flags, "--out", out)
    assert result.exit_code in (0, 1), result.output
    games = scan(out)[0].sort("game_number").collect()
    assert games["first_dead_ply"].to_list() == [None, None, None, 1]
    assert games["white_can_mate"].to_list() == [True, True, False, False]
    assert games["black_can_mate"].to_list() == [False, False, True, False]
