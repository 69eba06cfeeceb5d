"""`notation scoresheet --pin` and `--review`: settling the moves a reading flags.

``--review`` is driven through a pseudo-terminal (standard input, output and error all on it),
as a reviewer at a terminal would answer it."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from conftest import ROOT
from notation.cli.main import app
from notation.cli.scoresheet_review import review
from notation.scoresheet.reader import read_sheets

# "5... Be8" for Be7: read as Be7, but not surely (Nxe4 and others are weighed too).
SLIP = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be8 *\n"
GAME = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"]


def test_the_slip_is_flagged_with_its_choices() -> None:
    rec = read_sheets([SLIP])
    assert rec.status == "needs-human" and rec.sans == GAME
    # the slip, and the moves read as written within three plies of it (one copy's word: 98% right
    # on sheets held out, notation.scoresheet.calibration)
    *near, flagged = rec.flagged
    assert (flagged.ply, flagged.san) == (10, "Be7") and flagged.confidence < 0.99
    assert [m.ply for m in near] == [7, 8, 9] and all(m.confidence < 0.99 for m in near)
    assert flagged.choices[0].san == "Be7" and len(flagged.choices) > 1


def test_a_pin_settles_the_move(tmp_path: Path) -> None:
    rec = read_sheets([SLIP], pins=["5...Be7"])
    assert rec.status == "corrected" and rec.sans == GAME and rec.pins == ((10, "Be7"),)
    assert rec.per_move[9].confidence == 1.0
    other = read_sheets([SLIP], pins=["5...Nxe4"])
    assert other.sans[9] == "Nxe4"


def test_pin_on_two_copies(tmp_path: Path) -> None:
    rec = read_sheets([SLIP, SLIP], pins=["5...Be7"])
    assert rec.sans == GAME and rec.copies == 2 and rec.per_move[9].confidence == 1.0
    assert rec.status == "corrected"


def test_a_pin_no_reading_plays_is_reported() -> None:
    rec = read_sheets([SLIP], pins=["5...Qh4"])  # not legal there
    assert rec.status == "needs-human"
    assert "sheet.pin" in {d.code for d in rec.diagnostics}
    bad = read_sheets([SLIP], pins=["five...Be7"])
    assert "sheet.pin" in {d.code for d in bad.diagnostics}


def test_cli_pin(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.txt"
    sheet.write_text(SLIP, encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(app, ["scoresheet", str(sheet)]).exit_code == 1
    pinned = runner.invoke(app, ["scoresheet", str(sheet), "--pin", "5...Be7"])
    assert pinned.exit_code == 0, pinned.stderr
    assert "5. O-O Be7" in pinned.stdout
    two = runner.invoke(app, ["scoresheet", str(sheet), str(sheet), "--same-game", "--pin", "5...Be7"])
    assert two.exit_code == 0, two.stderr
    for bad in ("5Be7", "0...e5", "5..."):
        result = runner.invoke(app, ["scoresheet", str(sheet), "--pin", bad])
        assert result.exit_code == 2 and "--pin" in result.stderr, bad


def test_review_without_a_terminal_is_a_usage_error(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.txt"
    sheet.write_text(SLIP, encoding="utf-8")
    result = CliRunner().invoke(app, ["scoresheet", str(sheet), "--review"])
    assert result.exit_code == 2 and "terminal" in result.stderr


def test_review_loop_takes_numbers_moves_and_enter() -> None:
    answers = iter(["9", "Qxe8", "", "", "", "Be7", None])
    said: list[str] = []
    rec, pins = review(lambda given: read_sheets([SLIP], pins=given), [], lambda prompt: next(answers), said.append)
    assert pins[:4] == ["4.Ba4", "4...Nf6", "5.O-O", "5...Be7"] and rec.sans == GAME
    assert any("no choice 9" in s for s in said) and any("'Qxe8' is no legal move" in s for s in said)
    assert any("written: 'Be8'" in s for s in said)


def test_review_through_a_terminal(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.txt"
    sheet.write_text(SLIP, encoding="utf-8")
    out = tmp_path / "finished.pgn"
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from notation.cli.main import run; run()",
            "scoresheet",
            str(sheet),
            "--review",
            "--out",
            str(out),
        ],
        cwd=ROOT,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=dict(os.environ, TERM="dumb", NO_COLOR="1"),
    )
    os.close(slave)
    for ply in (b"4. [", b"4... [", b"5. [", b"5... ["):  # the slip, after its neighbours on one copy's word
        seen = _until(master, b"move at " + ply)
        os.write(master, b"\n")  # Enter: the proposal
    assert b"written: 'Be8'" in seen and b"1. Be7" in seen
    rest = b""
    for _ in range(6):  # what the pins leave below 0.99 (3... a6, 1... e5), each taken as proposed
        rest = _until(master, b"[Enter", closed_ok=True)
        if b"[Enter" not in rest:
            break
        os.write(master, b"\n")
    assert proc.wait(timeout=60) == 0, rest
    assert "5. O-O Be7" in out.read_text(encoding="utf-8")


def _until(master: int, wanted: bytes | None, timeout: float = 60.0, closed_ok: bool = False) -> bytes:
    """What the terminal shows until ``wanted`` appears (None: until it closes; ``closed_ok``:
    or until it closes)."""
    got = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.5)
        if not ready:
            continue
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        got += chunk
        if wanted is not None and wanted in got:
            return got
    if wanted is not None and not closed_ok:
        raise AssertionError(f"never saw {wanted!r}: {got.decode('utf-8', 'replace')}")
    os.close(master)
    return got


def test_help_offers_pin_and_review_and_one_reader() -> None:
    result = CliRunner().invoke(app, ["scoresheet", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "--pin" in result.stdout and "--review" in result.stdout
    assert "--method" not in result.stdout and "--engine" not in result.stdout
