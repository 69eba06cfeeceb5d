"""Output that cannot be written, and input text that must not act on the terminal or spreadsheet.

A full disk or a device error ends any command with ``cannot write output`` and exit code 2
(never a traceback, never "cannot read input"); a reader that closes the pipe early stops the
command quietly. Tag values are shown, never executed: control characters are escaped in text
output, rich markup is printed as written, and CSV cells that a spreadsheet would run as a
formula are neutralised.
"""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import OUTSIDE, SAMPLE_GAMES
from typer.testing import CliRunner

from notation.cli.main import app
from notation.cli.render import printable, spreadsheet_safe

ROUND_ROBIN = SAMPLE_GAMES / "round_robin.pgn"
COMMANDS: dict[str, list[str]] = {
    "validate": ["validate"],
    "validate-jsonl": ["validate", "--format", "jsonl"],
    "validate-json": ["validate", "--format", "json"],
    "stats": ["stats"],
    "standings": ["standings"],
    "ledger": ["ledger"],
}


def _notation(args: list[str], stdout: object) -> subprocess.CompletedProcess[str]:
    code = "from notation.cli.main import run; run()"
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-c", code, *args],
        cwd=OUTSIDE,
        text=True,
        stdout=stdout,
        stderr=subprocess.PIPE,
        timeout=120,
    )


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_full_disk_is_cannot_write_output_exit_2(name: str) -> None:
    with open("/dev/full", "w") as full:
        run = _notation([*COMMANDS[name], str(ROUND_ROBIN)], stdout=full)
    assert run.returncode == 2, run.stderr
    assert "cannot write output" in run.stderr
    assert "Traceback" not in run.stderr
    assert "cannot read input" not in run.stderr


def _many_games(tmp_path: Path, copies: int = 40) -> Path:
    big = tmp_path / "many.pgn"
    text = ROUND_ROBIN.read_text(encoding="utf-8")
    big.write_text("\n".join([text] * copies), encoding="utf-8")
    return big


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_a_closed_pipe_stops_quietly(tmp_path: Path, fmt: str) -> None:
    big = _many_games(tmp_path)
    code = "from notation.cli.main import run; run()"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "validate", "--format", fmt, str(big)],
        cwd=OUTSIDE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()  # the reader goes away, like `| head -c 10`
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) in (0, 1)
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr


def test_negative_jobs_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["validate", str(ROUND_ROBIN), "--jobs", "-3"])
    assert result.exit_code == 2


# ----------------------------------------------------------------------------- injection
ESCAPES = "\x1b]0;pwned\x07\x1b[31m\x9b2J\u202e"
HOSTILE = f"""[Event "Open{ESCAPES}"]
[Site "S"]
[Date "2020.01.01"]
[Round "1"]
[White "[bold red]Mallory{ESCAPES}"]
[Black "=HYPERLINK(\\"http://example.com\\",\\"x\\")"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "Open{ESCAPES}"]
[Site "S"]
[Date "2020.01.02"]
[Round "2"]
[White "@SUM(A1:A9)"]
[Black "+cmd"]
[Result "1/2-1/2"]

1. d4 d5 1/2-1/2
"""


def test_printable_escapes_every_control_character() -> None:
    assert printable("a\x1b[31mb") == "a\\x1b[31mb"
    assert printable("x\x07\x00\x7f\x9b\u202e\n\t") == "x\\x07\\x00\\x7f\\x9b\\u202e\\x0a\\x09"
    assert printable("Łódź – ½") == "Łódź – ½"


def test_spreadsheet_safe_follows_the_owasp_rule() -> None:
    assert spreadsheet_safe("=1+1") == "'=1+1"
    assert spreadsheet_safe("@SUM(A1)") == "'@SUM(A1)"
    assert spreadsheet_safe("+cmd") == "'+cmd"
    assert spreadsheet_safe("-2+3") == "'-2+3"
    assert spreadsheet_safe("-3") == "-3" and spreadsheet_safe("+0.5") == "+0.5"
    assert spreadsheet_safe("+") == "+" and spreadsheet_safe("-") == "-"  # crosstable forfeit marks
    assert spreadsheet_safe("Carlsen") == "Carlsen"


def _has_raw_control(text: str) -> bool:
    return any(ch in text for ch in ("\x1b", "\x07", "\x9b", "\u202e"))


@pytest.mark.parametrize("command", ["standings", "ledger", "stats", "validate"])
def test_text_output_never_carries_control_characters_or_markup(tmp_path: Path, command: str) -> None:
    path = tmp_path / "hostile.pgn"
    path.write_text(HOSTILE, encoding="utf-8")
    args = [command, str(path)]
    if command == "validate":
        path.write_text(HOSTILE.replace('[Result "1-0"]', '[Result "1-0\x1b[2J"]'), encoding="utf-8")
    result = CliRunner().invoke(app, args)
    assert not _has_raw_control(result.output), result.output
    if command in ("standings", "ledger"):
        assert "[bold red]Mallory\\x1b]0;pwned\\x07" in result.output  # markup shown as written
    if command == "validate":
        assert "\\x1b[2J" in result.output


@pytest.mark.parametrize("command", ["standings", "ledger"])
def test_csv_neutralises_formulas_and_escapes_controls(tmp_path: Path, command: str) -> None:
    path = tmp_path / "hostile.pgn"
    path.write_text(HOSTILE, encoding="utf-8")
    result = CliRunner().invoke(app, [command, str(path), "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert not _has_raw_control(result.output)
    cells = [cell for row in csv.reader(io.StringIO(result.output)) for cell in row]
    names = {cell for cell in cells if "HYPERLINK" in cell or "SUM" in cell or "cmd" in cell}
    assert names == {'\'=HYPERLINK("http://example.com","x")', "'@SUM(A1:A9)", "'+cmd"}
    assert all(not cell.startswith(("=", "@")) for cell in cells)
