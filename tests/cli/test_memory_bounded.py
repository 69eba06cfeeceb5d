"""Peak memory of every reading command is bounded by about one game, whatever the number of
games: the peak RSS on 2,400 short games is within 1.5x of that on 300 (before the
scoresheet streamed its sheets out, ``scoresheet`` on a PGN input took 56 MB at 300 games and
214 MB at 2,400: every game and its sheet were kept until the end).

Each run is a fresh process (the CLI of this checkout), measured from a small parent by
``getrusage(RUSAGE_CHILDREN).ru_maxrss``. The default run measures ``scoresheet`` (every
output kind at once), ``validate`` and ``stats``, and ``validate`` on every input kind
(``.gz``, ``.bz2``, ``.xz``, ``.zst``, standard input); ``-m slow`` the other reading
commands, ``scoresheet --jobs 2`` and ``scoresheet``, ``stats`` and ``convert`` on every input
kind too."""

from __future__ import annotations

import bz2
import gzip
import lzma
import subprocess
import sys
from pathlib import Path

import pytest
import zstandard

from conftest import ROOT

SMALL, LARGE = 300, 2400
RATIO = 1.5

#: argv: the file to give as standard input ("" for none), then the command line
_MEASURE = r"""
import resource, subprocess, sys
stdin = open(sys.argv[1], "rb") if sys.argv[1] else subprocess.DEVNULL
done = subprocess.run([sys.executable, "-m", "notation.cli.main", *sys.argv[2:]],
                      stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
assert done.returncode in (0, 1), done.stderr
assert "Traceback" not in done.stderr, done.stderr
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def _games(path: Path, count: int) -> Path:
    """``count`` short games (legal, so each sheet reads at once), every one with its own tags."""
    with path.open("w", encoding="utf-8") as handle:
        for i in range(count):
            result = ("1-0", "0-1", "1/2-1/2")[i % 3]
            handle.write(
                f'[Event "Club {i % 7}"]\n[Site "?"]\n[Date "2024.01.{i % 28 + 1:02d}"]\n'
                f'[Round "{i}"]\n[White "Player {i % 40}"]\n[Black "Player {(i * 7 + 1) % 40}"]\n'
                f'[Result "{result}"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {result}\n\n'
            )
    return path


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    folder = tmp_path_factory.mktemp("memory")
    return {count: _games(folder / f"games-{count}.pgn", count) for count in (SMALL, LARGE)}


def _peak_kib(args: list[str], stdin: Path | None = None) -> int:
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(stdin or ""), *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


def _check(verb: list[str], inputs: dict[int, Path], tail: list[str], tmp_path: Path) -> None:
    peaks = {}
    for count, path in inputs.items():
        outs = [a.replace("{out}", str(tmp_path / f"out-{count}")) for a in tail]
        peaks[count] = _peak_kib([*verb, str(path), *outs])
    assert peaks[LARGE] <= RATIO * peaks[SMALL], (verb, peaks)


SCORESHEET_OUTS = ["-q", "-o", "{out}.pgn", "-o", "{out}.txt", "-o", "{out}.html", "-o", "{out}.json"]


@pytest.mark.parametrize(
    ("verb", "tail"),
    [(["scoresheet"], SCORESHEET_OUTS), (["validate"], []), (["stats"], [])],
    ids=["scoresheet", "validate", "stats"],
)
def test_peak_memory_is_flat_in_the_number_of_games(
    verb: list[str], tail: list[str], inputs: dict[int, Path], tmp_path: Path
) -> None:
    _check(verb, inputs, tail, tmp_path)


def _packed(path: Path, kind: str) -> Path:
    """``path`` compressed as ``kind`` (gz, bz2, xz, zst), beside it."""
    data = path.read_bytes()
    if kind == "gz":
        packed = gzip.compress(data)
    elif kind == "bz2":
        packed = bz2.compress(data)
    elif kind == "xz":
        packed = lzma.compress(data)
    else:
        packed = zstandard.ZstdCompressor().compress(data)
    out = path.with_name(f"{path.name}.{kind}")
    out.write_bytes(packed)
    return out


def _check_kind(verb: list[str], kind: str, inputs: dict[int, Path]) -> None:
    peaks = {}
    for count, path in inputs.items():
        if kind == "stdin":
            peaks[count] = _peak_kib([*verb, "-"], stdin=path)
        else:
            peaks[count] = _peak_kib([*verb, str(_packed(path, kind))])
    assert peaks[LARGE] <= RATIO * peaks[SMALL], (verb, kind, peaks)


KINDS = ["gz", "bz2", "xz", "zst", "stdin"]


@pytest.mark.parametrize("kind", KINDS)
def test_peak_memory_is_flat_for_every_input_kind(kind: str, inputs: dict[int, Path]) -> None:
    """Compressed files and standard input stream as plain files do (``validate``)."""
    _check_kind(["validate"], kind, inputs)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("verb", [["scoresheet", "-q"], ["stats"], ["convert"]], ids=["scoresheet", "stats", "convert"])
def test_peak_memory_is_flat_for_every_input_kind_and_command(
    verb: list[str], kind: str, inputs: dict[int, Path]
) -> None:
    _check_kind(verb, kind, inputs)


SLOW = [
    (["scoresheet"], ["-q"]),
    (["scoresheet", "--jobs", "2"], SCORESHEET_OUTS),
    (["scoresheet"], ["--format", "json"]),
    (["standings"], []),
    (["ledger"], []),
    (["players"], []),
    (["convert"], []),
    (["filter"], []),
    (["tree"], []),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("verb", "tail"),
    SLOW,
    ids=[
        "scoresheet-stdout",
        "scoresheet-jobs",
        "scoresheet-json",
        "standings",
        "ledger",
        "players",
        "convert",
        "filter",
        "tree",
    ],
)
def test_peak_memory_is_flat_for_every_reading_command(
    verb: list[str], tail: list[str], inputs: dict[int, Path], tmp_path: Path
) -> None:
    _check(verb, inputs, tail, tmp_path)
