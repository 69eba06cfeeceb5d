"""`notation scoresheet` through Typer's CliRunner: outputs, exit codes 0/1/2."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from notation.cli.main import app
from conftest import SAMPLE_GAMES

SHEETS = SAMPLE_GAMES / "sheets"
runner = CliRunner()


def run(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["scoresheet", *args], input=input)


def test_help() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for option in ("--lang", "--fen", "--tags", "--out", "--max-cost", "--diagram"):
        assert option in result.output


def test_clean_sheet_prints_pgn_exit_0() -> None:
    result = run(str(SHEETS / "opera-game-chinese.txt"))
    assert result.exit_code == 0
    assert '[White "Paul Morphy"]' in result.stdout
    assert "17. Rd8# 1-0" in result.stdout
    assert "read as written" in result.stderr


def test_corrections_on_one_copys_word_are_listed_and_asked_about() -> None:
    # a box read as another move, on the word of one copy, is a guess to confirm (exit 1)
    result = run(str(SHEETS / "immortal-damaged.csv"))
    assert result.exit_code == 1
    assert "error[sheet.correction] 16. Bc3: perhaps: written 'Bc3' read as Nc3" in result.stderr
    assert "NEEDS A HUMAN" in result.stderr
    assert '[White "Adolf Anderssen"]' in result.stdout


def test_confirmed_corrections_exit_0_and_are_listed() -> None:
    # (the move inserted where no box speaks for it is confirmed too: a guess on one copy's word)
    result = run(str(SHEETS / "immortal-damaged.csv"), "--pin", "4...b5", "--pin", "16.Nc3", "--pin", "18...Bxg1")
    assert result.exit_code == 0, result.stderr
    assert "warning[sheet.correction] 16. Bc3: written 'Bc3' read as Nc3" in result.stderr
    assert "reconstructed with 3 correction(s)" in result.stderr


def test_needs_human_exit_1(tmp_path: Path) -> None:
    cut = (SHEETS / "club-game-german.txt").read_text(encoding="utf-8").split("11  Sbd2")[0]
    path = tmp_path / "cut.txt"
    path.write_text(cut, encoding="utf-8")
    result = run(str(path))
    assert result.exit_code == 1
    assert "error[sheet.needs-human]" in result.stderr
    assert "NEEDS A HUMAN" in result.stderr


def test_outputs_by_suffix(tmp_path: Path) -> None:
    outs = {s: tmp_path / f"game{s}" for s in (".pgn", ".txt", ".html", ".svg", ".json")}
    args = [str(SHEETS / "club-game-german.txt"), "--diagram", "12b", "--quiet"]
    for path in outs.values():
        args += ["--out", str(path)]
    result = run(*args)
    assert result.exit_code in (0, 1), result.output  # outputs are written either way
    assert result.stdout == "" and result.stderr == ""
    assert outs[".pgn"].read_text(encoding="utf-8").startswith('[Event "Vereinsmeisterschaft"]')
    assert "Nbd7 *" in outs[".txt"].read_text(encoding="utf-8")
    html = outs[".html"].read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.count("<svg") == 2
    svg = ET.parse(outs[".svg"]).getroot()
    assert svg.tag.endswith("svg")
    data = json.loads(outs[".json"].read_text(encoding="utf-8"))
    assert data["status"] in ("corrected", "needs-human") and data["corrections"][0]["chosen"] == "Nbd7"


def test_lang_fen_tags_and_stdin() -> None:
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    result = run("-", "--lang", "de", "--fen", fen, "--tags", "White=Anna,Black=Bernd", input="1... e5 2. Sf3 Sc6\n")
    assert result.exit_code in (0, 1), result.output  # three boxes: read as written, not 0.99 sure
    assert '[White "Anna"]' in result.stdout and '[SetUp "1"]' in result.stdout
    assert "1... e5 2. Nf3 Nc6" in result.stdout


def test_max_cost_zero_makes_a_damaged_sheet_need_a_human() -> None:
    result = run(str(SHEETS / "immortal-damaged.csv"), "--max-cost", "0")
    assert result.exit_code == 1


@pytest.mark.parametrize(
    "args",
    [
        ["/no/such/sheet.txt"],
        ["{sheet}", "--lang", "xx"],
        ["{sheet}", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
        ["{sheet}", "--out", "game.docx"],
        ["{sheet}", "--diagram", "99w"],
        ["{sheet}", "--diagram", "abc"],
        ["{sheet}", "--max-cost", "-1"],
    ],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    sheet = str(SHEETS / "opera-game-chinese.txt")
    result = run(*[a.replace("{sheet}", sheet) for a in args])
    assert result.exit_code == 2


def test_unwritable_output_exit_2(tmp_path: Path) -> None:
    result = run(str(SHEETS / "opera-game-chinese.txt"), "--out", str(tmp_path / "missing" / "x.pgn"))
    assert result.exit_code == 2


# --- a PGN input: read game by game ----------------------------------------------------------

CLASSICS = SAMPLE_GAMES / "classics.pgn"


def test_pgn_file_is_read_as_pgn_exit_0() -> None:
    result = run(str(CLASSICS))
    assert result.exit_code == 0, result.stderr
    assert "sheet.unreadable" not in result.stderr and "NEEDS A HUMAN" not in result.stderr
    assert result.stderr.count("read as PGN (replays legally)") == 3
    assert f"{CLASSICS}: game 2 (line 16): read as PGN" in result.stderr
    assert result.stdout.count("[Event ") == 3
    assert '[White "Morphy, Paul"]' in result.stdout and "17. Rd8# 1-0" in result.stdout
    assert "23. Be7# 1-0" in result.stdout


def test_pgn_file_outputs_one_sheet_per_game(tmp_path: Path) -> None:
    outs = {s: tmp_path / f"games{s}" for s in (".pgn", ".txt", ".html", ".json")}
    args = [str(CLASSICS), "--quiet"]
    for path in outs.values():
        args += ["--out", str(path)]
    assert run(*args).exit_code == 0
    assert outs[".pgn"].read_text(encoding="utf-8").count("[Event ") == 3
    assert outs[".txt"].read_text(encoding="utf-8").count("SCORESHEET") == 3
    html = outs[".html"].read_text(encoding="utf-8")
    assert html.count('<section class="game"') == 3 and html.count("<html") == 1
    from scoresheet.test_render_sheet import assert_valid_html

    assert_valid_html(html)
    data = json.loads(outs[".json"].read_text(encoding="utf-8"))
    assert [(d["game"], d["line"], d["status"], d["layout"]) for d in data] == [
        (1, 1, "ok", "pgn"),
        (2, 16, "ok", "pgn"),
        (3, 30, "ok", "pgn"),
    ]
    assert data[0]["tags"]["White"] == "Morphy, Paul"


def test_pgn_file_game_option_picks_one(tmp_path: Path) -> None:
    svg = tmp_path / "final.svg"
    result = run(str(CLASSICS), "--game", "2", "--format", "json", "--out", str(svg))
    assert result.exit_code == 0 and svg.read_text(encoding="utf-8").startswith("<svg")
    result = run(str(CLASSICS), "--game", "2", "--format", "json")
    data = json.loads(result.stdout)
    assert data["tags"]["Black"] == "Kieseritzky, Lionel" and data["moves"][-1] == "Be7#"
    assert run(str(CLASSICS), "--game", "4").exit_code == 2
    result = run(str(CLASSICS), "--out", str(svg))
    assert result.exit_code == 2 and "--game N" in result.stderr  # one picture, three games


def test_pgn_file_with_an_illegal_move_falls_back_with_a_located_diagnostic(tmp_path: Path) -> None:
    text = CLASSICS.read_text(encoding="utf-8").replace("13. Rxd7 Rxd7", "13. Rxd7 Rxd6", 1)
    path = tmp_path / "one-illegal.pgn"
    path.write_text(text, encoding="utf-8")
    result = run(str(path))
    assert result.exit_code == 1, result.stderr  # the correction is a guess on one copy's word
    assert f"{path}:13:69: error[sheet.correction] game 1, 13... Rxd6: perhaps: written 'Rxd6' read as Rxd7" in (
        result.stderr
    )
    assert f"{path}: game 1 (line 1): NEEDS A HUMAN" in result.stderr
    assert result.stderr.count("read as PGN (replays legally)") == 2
    assert '[White "Morphy, Paul"]' in result.stdout and "13. Rxd7 Rxd7" in result.stdout


def test_sloppy_sheet_still_reconstructed_unchanged() -> None:
    result = run(str(SHEETS / "immortal-damaged.csv"), "--format", "json")
    data = json.loads(result.stdout)
    assert isinstance(data, dict) and data["layout"] == "csv" and data["status"] == "needs-human"
    assert "game 1" not in result.stderr and "read as PGN" not in result.stderr
