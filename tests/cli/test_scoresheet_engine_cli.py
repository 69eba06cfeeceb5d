"""`notation scoresheet --engine PATH --engine-time SECONDS`: a UCI engine judges the readings'
moves (a fake engine, tests/uci_support.py); a missing or broken engine is a usage error
(exit 2), and the engine is quit when the command ends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from notation.cli.main import app
from uci_support import commands, fake_engine

runner = CliRunner()
#: Black's second move is a blank box: without an engine the reading plays 2...Nc6 (exit 1).
BLANK = "1. e4 e5 2. Nf3 ? 3. Bb5 a6 4. Ba4 *\n"


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["scoresheet", *args])


def _sheet(tmp_path: Path, text: str = BLANK) -> str:
    path = tmp_path / "sheet.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_engine_reorders_a_near_tie_and_is_quit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import notation.scoresheet.engine as engine_module

    # a weight that flips this tie (the default, set on real sheets, is gentler)
    monkeypatch.setattr(engine_module, "ENGINE_WEIGHT", 1.0)
    monkeypatch.setattr(engine_module, "LOSS_CAP", 300)
    sheet = _sheet(tmp_path)
    plain = run(sheet, "--format", "json")
    assert plain.exit_code == 1 and json.loads(plain.stdout)["moves"][3] == "Nc6"
    engine = fake_engine(tmp_path, {"c7c5": 100}, default=-200)
    result = run(sheet, "--format", "json", "--engine", engine, "--engine-time", "0.5")
    assert result.exit_code == 1  # a reading the engine moved up is never confident
    data = json.loads(result.stdout)
    assert data["moves"][3] == "c5"
    assert data["readings"][1]["moves"][3] == "Nc6" and data["readings"][1]["implausibility"] == 3.0
    assert "the chess engine prefers it" in result.stderr
    sent = commands(tmp_path)
    assert sent.count("uci") == 1 and sent[-1] == "quit"
    assert any(line.startswith("go movetime ") for line in sent)


def test_a_confident_sheet_stays_confident_when_the_engine_agrees(tmp_path: Path) -> None:
    sheet = _sheet(tmp_path, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n")
    result = run(sheet, "--engine", fake_engine(tmp_path))
    assert result.exit_code == 0 and "5. O-O Be7" in result.stdout


def test_a_missing_engine_is_a_usage_error(tmp_path: Path) -> None:
    sheet = _sheet(tmp_path)
    result = run(sheet, "--engine", str(tmp_path / "no-such-engine"))
    assert result.exit_code == 2 and "--engine" in result.stderr and "cannot start" in result.stderr
    result = run(sheet, "--engine", "no-such-engine-on-the-path")
    assert result.exit_code == 2 and "no such program" in result.stderr
    assert "Traceback" not in result.output


def test_a_program_that_is_no_uci_engine_is_a_usage_error(tmp_path: Path) -> None:
    result = run(_sheet(tmp_path), "--engine", fake_engine(tmp_path, mode="exit"))
    assert result.exit_code == 2 and "is it a UCI engine?" in result.stderr
    assert "Traceback" not in result.output


def test_an_engine_that_dies_while_reading_is_a_warning(tmp_path: Path) -> None:
    result = run(_sheet(tmp_path), "--engine", fake_engine(tmp_path, mode="die-on-go"), "--engine-time", "1")
    assert result.exit_code == 1
    assert "warning[sheet.engine]" in result.stderr and "exited" in result.stderr
    assert "Traceback" not in result.output
    assert "4. Ba4" in result.stdout  # the reading without the engine


def test_engine_with_the_repair_search_is_a_usage_error(tmp_path: Path) -> None:
    result = run(_sheet(tmp_path), "--method", "repair", "--engine", fake_engine(tmp_path))
    assert result.exit_code == 2 and "--engine" in result.stderr
    assert commands(tmp_path) == []  # never started


def test_a_zero_engine_time_judges_nothing(tmp_path: Path) -> None:
    result = run(_sheet(tmp_path), "--format", "json", "--engine", fake_engine(tmp_path, {"c7c5": 100}, default=-200),
                 "--engine-time", "0")
    assert result.exit_code == 1 and json.loads(result.stdout)["moves"][3] == "Nc6"
    assert not any(line.startswith("go") for line in commands(tmp_path))
