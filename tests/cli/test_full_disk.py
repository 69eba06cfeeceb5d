"""Every command that writes, run as a user runs it (a process of its own) onto a real full file
system: a tmpfs mounted for the test and filled with a file of zeros, so that the output fails at
its first byte or half-way through (a file of three pages or more), in the kernel, wherever the writing library happens to be.

Each run must exit 2 with one message naming the target and the reason, print no traceback,
leave no file behind (no temporary, no half-written part) and leave a file the target already
was untouched. Mounting needs the privilege to mount (root in the CI machine); without it the
tests skip with that reason, and the simulated faults of ``test_write_targets.py`` still run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import SAMPLE_GAMES
from faults_support import make_games

ROOT = Path(__file__).resolve().parents[2]
PAGE = 4096
#: A short sheet in German piece letters with a header line.
SHEET = "Weiss: Berger  Schwarz: Olsen\n1. e4 e5\n2. Sf3 Sc6\n3. Lb5 a6\n4. La4 Sf6\n5. 0-0 Le7\n"
CLASSICS = str(SAMPLE_GAMES / "classics.pgn")
FEN = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"

#: Each command that writes a file or a folder: its arguments, ``{games}`` for a PGN file of a
#: few hundred games (so that outputs run to several pages) and ``{out}`` for the target, and the
#: target's name.
WRITERS: dict[str, tuple[list[str], str]] = {
    "stats-parquet": (["stats", "{games}", "--by", "player", "--format", "parquet", "--out", "{out}"], "p.parquet"),
    "stats-csv": (["stats", "{games}", "--by", "player", "--format", "csv", "--out", "{out}"], "p.csv"),
    "stats-json": (["stats", "{games}", "--format", "json", "--out", "{out}"], "s.json"),
    "filter": (["filter", "{games}", "--out", "{out}"], "f.pgn"),
    "convert": (["convert", "{games}", "--out", "{out}"], "c.pgn"),
    "convert-jsonl": (["convert", "{games}", "--to", "jsonl", "--out", "{out}"], "c.jsonl"),
    "convert-split": (["convert", "{games}", "--split", "50", "--out", "{out}"], "parts"),
    "import": (["import", "{games}", "--out", "{out}", "--jobs", "1", "-q"], "games.dataset"),
    "scoresheet-pgn": (["scoresheet", "{sheet}", "-q", "--out", "{out}"], "s.pgn"),
    "scoresheet-html": (["scoresheet", "{sheet}", "-q", "--out", "{out}"], "s.html"),
    "scoresheet-svg": (["scoresheet", "{sheet}", "-q", "--out", "{out}"], "s.svg"),
    "scoresheet-json": (["scoresheet", "{sheet}", "-q", "--out", "{out}"], "s.json"),
    "scoresheet-txt": (["scoresheet", "{sheet}", "-q", "--out", "{out}"], "s.txt"),
    "scoresheet-many": (["scoresheet", "{games}", "-q", "--out", "{out}"], "many.pgn"),
    "chart-svg": (["chart", CLASSICS, "--kind", "results-eco", "--out", "{out}"], "c.svg"),
    "chart-html": (["chart", CLASSICS, "--kind", "results-eco", "--out", "{out}"], "c.html"),
    "chart-png": (["chart", CLASSICS, "--kind", "results-eco", "--out", "{out}"], "c.png"),
    "board-svg": (["board", FEN, "--out", "{out}"], "b.svg"),
    "board-png": (["board", FEN, "--out", "{out}"], "b.png"),
}

#: Commands whose output goes to standard output, redirected by the shell to a file on the full
#: file system.
PRINTERS: dict[str, list[str]] = {
    "validate": ["validate", "{games}"],
    "validate-jsonl": ["validate", "{games}", "--format", "jsonl"],
    "stats": ["stats", "{games}", "--by", "player"],
    "standings": ["standings", "{games}"],
    "ledger": ["ledger", "{games}", "--history"],
    "players": ["players", "{games}", "--format", "csv"],
    "tree": ["tree", "{games}", "--depth", "3", "--format", "json"],
    "convert": ["convert", "{games}"],
    "filter": ["filter", "{games}"],
}


def _mount(point: Path) -> str | None:
    """Mount a tmpfs of 256 pages at ``point``: None, or why it cannot be done here."""
    point.mkdir()
    try:
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={256 * PAGE},mode=0755", "tmpfs", str(point)],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"cannot run mount: {exc}"
    if done.returncode != 0:
        return f"cannot mount a tmpfs here: {done.stderr.strip()}"
    return None


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A small tmpfs of its own, unmounted afterwards."""
    point = tmp_path / f"disk-{uuid.uuid4().hex[:8]}"
    why = _mount(point)
    if why is not None:
        pytest.skip(why)
    try:
        yield point
    finally:
        subprocess.run(["umount", "-l", str(point)], capture_output=True, timeout=30)


def _fill(disk: Path, free: int) -> Path:
    """Fill ``disk`` with zeros, then give back ``free`` bytes (whole pages)."""
    filler = disk / "filler"
    block = b"\0" * (16 * PAGE)
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(block)
        except OSError:
            pass
    size = filler.stat().st_size
    os.truncate(filler, max(0, size - free))
    return filler


def _run(args: list[str], stdout: object = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "notation.cli.main", *args],
        cwd=ROOT,
        stdout=stdout,  # type: ignore[arg-type]
        stderr=subprocess.PIPE,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"},
    )


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A PGN file of 300 short games between six players."""
    path = tmp_path_factory.mktemp("games") / "club.pgn"
    path.write_text(make_games(300), encoding="utf-8")
    return path


def _fill_in(args: list[str], games: Path, out: Path) -> list[str]:
    sheet = games.parent / "sheet.txt"
    if not sheet.exists():
        sheet.write_text(SHEET, encoding="utf-8")
    return [a.replace("{games}", str(games)).replace("{sheet}", str(sheet)).replace("{out}", str(out)) for a in args]


def _size(path: Path) -> int:
    if path.is_dir():
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return path.stat().st_size


def _files(disk: Path) -> list[str]:
    return sorted(str(p.relative_to(disk)) for p in disk.rglob("*") if not p.is_dir())


def _frees(needed: int) -> list[int]:
    """Free space that fails the write: none, and (for an output of three pages or more) about
    half of it, so that the failure comes in the middle of the file."""
    half = (needed // 2) // PAGE * PAGE
    return [0, half] if half >= PAGE and half + PAGE < needed else [0]


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_a_write_onto_a_full_file_system_is_exit_2_and_leaves_nothing(
    name: str, games: Path, disk: Path, tmp_path: Path
) -> None:
    args, target = WRITERS[name]
    room = tmp_path / "room"
    room.mkdir()
    first = _run(_fill_in(args, games, room / target))
    assert first.returncode in (0, 1), first.stderr
    needed = _size(room / target)
    assert needed > 0
    old = disk / target
    old_text = None
    if "." in target and name != "import":
        old_text = "the old file\n"
        old.write_text(old_text, encoding="utf-8")
    for free in _frees(needed):
        filler = _fill(disk, free)
        done = _run(_fill_in(args, games, old))
        message = done.stderr + (done.stdout or "")
        assert done.returncode == 2, (free, message)
        assert "Traceback" not in message, message
        assert str(old) in message, message
        assert "No space left on device" in message or "os error 28" in message, message
        expected = ["filler", target] if old_text is not None else ["filler"]
        left = [f for f in _files(disk) if not f.endswith((".notation-dataset", ".notation-dataset.lock"))]
        assert left == sorted(expected), (free, left)  # (an import's dataset marker and lock may stay)
        if old_text is not None:
            assert old.read_text(encoding="utf-8") == old_text
        filler.unlink()


@pytest.mark.parametrize("name", sorted(PRINTERS))
def test_standard_output_onto_a_full_file_system_is_exit_2(name: str, games: Path, disk: Path) -> None:
    args = _fill_in(PRINTERS[name], games, disk)
    _fill(disk, 0)
    with open(disk / "out.txt", "w", encoding="utf-8") as out:
        done = _run(args, stdout=out)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert "No space left on device" in done.stderr, done.stderr


@pytest.mark.parametrize("device", ["/dev/null", "/dev/full"])
@pytest.mark.parametrize("name", sorted(n for n, (_, target) in WRITERS.items() if "." in target and n != "import"))
def test_a_device_target_is_written_in_place(name: str, device: str, games: Path, tmp_path: Path) -> None:
    """A device (through a link with the file name the format needs): ``/dev/null`` takes the
    output, ``/dev/full`` is exit 2 naming the target and the reason; the device stays itself."""
    if not Path(device).exists():
        pytest.skip(f"no {device} on this system")
    args, target = WRITERS[name]
    link = tmp_path / target
    link.symlink_to(device)
    done = _run(_fill_in(args, games, link))
    message = done.stderr + (done.stdout or "")
    assert "Traceback" not in message, message
    if device == "/dev/null":
        assert done.returncode in (0, 1), message
    else:
        assert done.returncode == 2, message
        assert str(link) in message and "No space left on device" in message, message
    assert link.is_symlink() and not Path(device).is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == [target]


def test_the_mount_is_a_real_full_file_system(disk: Path) -> None:
    """The fixture's disk refuses a byte once filled (the other tests rely on it)."""
    _fill(disk, 0)
    with pytest.raises(OSError) as caught, open(disk / "one", "wb", buffering=0) as f:
        f.write(b"x" * PAGE)
    assert caught.value.errno == 28
    assert shutil.disk_usage(disk).free < PAGE
