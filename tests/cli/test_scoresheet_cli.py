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


def test_confident_corrections_exit_0_and_are_listed() -> None:
    result = run(str(SHEETS / "immortal-damaged.csv"))
    assert result.exit_code == 0
    assert "warning[sheet.correction] 16. Bc3: written 'Bc3' read as Nc3" in result.stderr
    assert "reconstructed with 3 correction(s)" in result.stderr
    assert '[White "Adolf Anderssen"]' in result.stdout


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
    assert result.exit_code == 0, result.output
    assert result.stdout == "" and result.stderr == ""
    assert outs[".pgn"].read_text(encoding="utf-8").startswith('[Event "Vereinsmeisterschaft"]')
    assert "Nbd7 *" in outs[".txt"].read_text(encoding="utf-8")
    html = outs[".html"].read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.count("<svg") == 2
    svg = ET.parse(outs[".svg"]).getroot()
    assert svg.tag.endswith("svg")
    data = json.loads(outs[".json"].read_text(encoding="utf-8"))
    assert data["status"] == "corrected" and data["corrections"][0]["chosen"] == "Nbd7"


def test_lang_fen_tags_and_stdin() -> None:
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    result = run("-", "--lang", "de", "--fen", fen, "--tags", "White=Anna,Black=Bernd", input="1... e5 2. Sf3 Sc6\n")
    assert result.exit_code == 0, result.output
    assert '[White "Anna"]' in result.stdout and '[SetUp "1"]' in result.stdout
    assert "1... e5 2. Nf3 Nc6" in result.stdout


def test_max_cost_zero_makes_a_damaged_sheet_need_a_human() -> None:
    result = run(str(SHEETS / "immortal-damaged.csv"), "--max-cost", "0")
    assert result.exit_code == 1


@pytest.mark.parametrize("args", [
    ["/no/such/sheet.txt"],
    ["{sheet}", "--lang", "xx"],
    ["{sheet}", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
    ["{sheet}", "--out", "game.docx"],
    ["{sheet}", "--diagram", "99w"],
    ["{sheet}", "--diagram", "abc"],
    ["{sheet}", "--max-cost", "-1"],
])
def test_usage_errors_exit_2(args: list[str]) -> None:
    sheet = str(SHEETS / "opera-game-chinese.txt")
    result = run(*[a.replace("{sheet}", sheet) for a in args])
    assert result.exit_code == 2


def test_unwritable_output_exit_2(tmp_path: Path) -> None:
    result = run(str(SHEETS / "opera-game-chinese.txt"), "--out", str(tmp_path / "missing" / "x.pgn"))
    assert result.exit_code == 2
