"""A file with no PGN structure through the commands: one ``pgn.not-pgn`` line, not a hundred.

``validate`` reports it as one game with an error (exit 1); the commands that take games in
(``import``, ``stats``, ``standings``, ``ledger``, ``filter``, ``convert``) count it as they
count an input they cannot read (``pgn.io``): a problem of the input, no game, exit 2. A
preamble before real games changes nothing: every game is still read.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import SAMPLE_GAMES
from typer.testing import CliRunner

from notation.cli.main import app

README_LIKE = (
    "# A project\n\nChess game scores, checked to the last rule. It parses PGN and algebraic\n"
    "notation with Lark grammars.\n\n## Install\n\n    pip install project\n\n"
    "* a bullet\n* another one, with e4 and Nf3 in it\n\n1990 was a year. See `docs/`.\n"
)


def _file(tmp_path: Path, text: str, name: str = "README.md") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _not_pgn_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if "error[" in line]


def test_validate_prints_one_line_and_exits_1(tmp_path: Path) -> None:
    path = _file(tmp_path, README_LIKE)
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    [line] = _not_pgn_lines(result.output)
    assert line.startswith(f"{path}:1:1: error[pgn.not-pgn] game 1: a Markdown file, not PGN")
    assert "'# A project'" in line
    assert "games read: 0 in 1 file" in result.output and "not PGN: 1" in result.output


def test_validate_jsonl_of_binary_data_is_one_report(tmp_path: Path) -> None:
    path = tmp_path / "picture.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8)
    result = CliRunner().invoke(app, ["validate", "--format", "jsonl", str(path)])
    assert result.exit_code == 1
    [report] = [json.loads(line) for line in result.stdout.splitlines() if '"diagnostics"' in line]
    [diag] = report["diagnostics"]
    assert (diag["code"], diag["line"], diag["column"]) == ("pgn.not-pgn", 1, 1)
    assert diag["message"].startswith("binary data")


def test_import_and_stats_report_it_as_an_unreadable_input(tmp_path: Path) -> None:
    path = _file(tmp_path, README_LIKE)
    good = SAMPLE_GAMES / "classics.pgn"
    for args in (
        ["import", str(path), "--out", str(tmp_path / "ds"), "--quiet"],
        ["stats", str(path), "--by", "result", "--format", "csv"],
        ["standings", str(path), "--format", "csv"],
        ["ledger", str(path), "--format", "csv"],
    ):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        lines = [line for line in result.stderr.splitlines() if "pgn.not-pgn" in line]
        assert len(lines) == 1 and lines[0].startswith(f"{path}:1:1: error[pgn.not-pgn]"), (args, result.stderr)
    # the good file next to it is still imported
    result = CliRunner().invoke(app, ["import", str(path), str(good), "--out", str(tmp_path / "ds2"), "--json"])
    assert result.exit_code == 2
    summary = json.loads(result.stdout[result.stdout.index("{") :])
    assert summary["games_imported"] == sum(1 for line in good.read_text().splitlines() if line.startswith("[Event "))


def test_a_preamble_then_games_keeps_every_game(tmp_path: Path) -> None:
    games = (SAMPLE_GAMES / "classics.pgn").read_text(encoding="utf-8")
    count = games.count("[Event ")
    path = _file(tmp_path, "From: club@example.org\nSubject: our games\n\nHere they are:\n\n" + games, "mail.pgn")
    result = CliRunner().invoke(app, ["validate", "--format", "jsonl", str(path)])
    assert result.exit_code == 1  # the preamble is reported as today: a game of junk text
    assert "pgn.not-pgn" not in result.stdout
    reports = [json.loads(line) for line in result.stdout.splitlines() if '"diagnostics"' in line]
    assert len(reports) == count + 1
    result = CliRunner().invoke(app, ["filter", str(path), "--out", str(tmp_path / "out.pgn")])
    assert (tmp_path / "out.pgn").read_text(encoding="utf-8").count("[Event ") == count


def test_board_draws_nothing_from_a_file_that_is_no_pgn(tmp_path: Path) -> None:
    path = _file(tmp_path, README_LIKE)
    result = CliRunner().invoke(app, ["board", str(path), "--out", str(tmp_path / "b.svg")])
    assert result.exit_code == 2 and not (tmp_path / "b.svg").exists()
    assert "error[pgn.not-pgn]" in result.stderr
