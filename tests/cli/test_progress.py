"""The progress display: bytes read of the total, games, games/s and ETA on standard error when it
is a terminal, for every command that reads games; nothing when it is not."""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import OUTSIDE, SAMPLE_GAMES
from terminal_support import CODE, through_terminal

from notation.cli.progress import clock, input_bytes, megabytes, status_text
from notation.pgn.reader import split_games
from notation.pgn.sources import ReadMeter, current_meter, metered_reads

CLASSICS = SAMPLE_GAMES / "classics.pgn"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _commands(tmp: Path) -> dict[str, list[str]]:
    return {
        "validating": ["validate", str(SAMPLE_GAMES)],
        "importing": ["import", str(SAMPLE_GAMES), "--out", str(tmp / "dataset")],
        "computing statistics": ["stats", str(SAMPLE_GAMES)],
        "computing standings": ["standings", str(SAMPLE_GAMES / "round_robin.pgn")],
        "computing the ledger": ["ledger", str(SAMPLE_GAMES)],
        "filtering": ["filter", str(SAMPLE_GAMES), "--out", str(tmp / "some.pgn")],
        "converting": ["convert", str(SAMPLE_GAMES), "--to", "uci", "--out", str(tmp / "all.txt")],
    }


NAMES = sorted(_commands(Path("x")))


@pytest.mark.parametrize("description", NAMES)
def test_a_terminal_sees_bytes_of_the_total_games_and_rate(description: str, tmp_path: Path) -> None:
    args = _commands(tmp_path)[description]
    shown, _, code = through_terminal(args, 160, terminal="stderr", term="xterm")
    assert code in (0, 1), shown
    text = ANSI.sub("", shown)
    total = megabytes(input_bytes([args[1]]) or 0)
    frames = [line for line in re.split(r"[\r\n]", text) if description in line]
    assert frames, text
    last = frames[-1]
    assert f"/ {total}" in last, last  # read of the total, in the stored size
    assert re.search(r"\b\d[\d,]* games · [\d,]+ games/s", last), last


@pytest.mark.parametrize("description", ["validating", "computing statistics"])
def test_silent_when_standard_error_is_not_a_terminal(description: str, tmp_path: Path) -> None:
    args = _commands(tmp_path)[description]
    run = subprocess.run([sys.executable, "-c", CODE, *args], cwd=OUTSIDE, capture_output=True, text=True, timeout=120)
    assert run.returncode in (0, 1)
    assert description not in run.stderr
    assert "games/s" not in run.stderr


def test_import_quiet_shows_nothing(tmp_path: Path) -> None:
    shown, _, code = through_terminal(
        ["import", str(CLASSICS), "--out", str(tmp_path / "d"), "-q"], 120, terminal="stderr", term="xterm"
    )
    assert code == 0, shown
    assert "importing" not in shown


def test_the_meter_counts_stored_bytes_and_games(tmp_path: Path) -> None:
    packed = tmp_path / "classics.pgn.gz"
    packed.write_bytes(gzip.compress(CLASSICS.read_bytes()))
    for source in (CLASSICS, packed):
        with metered_reads() as meter:
            assert current_meter() is meter
            games = sum(1 for _ in split_games(source))
        assert (meter.bytes, meter.games) == (source.stat().st_size, games)
    assert current_meter() is None
    assert sum(1 for _ in split_games(CLASSICS)) == games  # reading without a meter


def test_input_bytes_counts_files_and_folders_but_not_stdin_or_datasets(tmp_path: Path) -> None:
    size = CLASSICS.stat().st_size
    assert input_bytes([CLASSICS]) == size
    assert input_bytes([CLASSICS, CLASSICS]) == 2 * size
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a.pgn").write_bytes(CLASSICS.read_bytes())
    (folder / "notes.txt").write_text("not a game file")
    assert input_bytes([folder]) == size
    dataset = tmp_path / "dataset"
    (dataset / "games").mkdir(parents=True)
    assert input_bytes([dataset]) is None
    assert input_bytes(["-", CLASSICS]) is None
    assert input_bytes([tmp_path / "missing.pgn"]) is None


def test_status_text() -> None:
    meter = ReadMeter(bytes=5_000_000, games=1_000)
    assert status_text(meter, 20_000_000, 10.0) == "5.0 MB / 20.0 MB · 1,000 games · 100 games/s · ETA 0:30 · 0:10"
    assert status_text(meter, None, 10.0) == "5.0 MB · 1,000 games · 100 games/s · 0:10"
    assert status_text(ReadMeter(), None, 3.0) == "0:03"  # a dataset: Polars reads it, only time shows
    assert status_text(ReadMeter(), 1_000, 0.0) == "0 kB / 1 kB · 0:00"
    assert clock(3725) == "1:02:05"
    assert megabytes(1_234_567_890) == "1,234.6 MB"
