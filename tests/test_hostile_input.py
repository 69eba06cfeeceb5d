"""Hostile input, every entry point: nothing escapes, the exit code keeps its contract, whole
games survive their neighbours, and cost grows with the input, not faster.

Hypothesis mutates real games (the project's sample games and, when the shared corpus is there,
a slice of a Lichess export): bytes deleted and duplicated, random brackets, huge numbers,
control characters, every line ending, byte-order marks, cuts at random points. Each input goes
through ``read_games``, ``validate``, ``to_frames``, ``reconstruct`` and the commands ``import``,
``stats``, ``standings``, ``ledger`` and ``validate``. The default run is derandomised and small
(seconds); ``pytest -m slow tests/test_hostile_input.py`` runs the same properties on many more
examples (the record is in BENCHMARKS.md, "Hostile input").
"""

from __future__ import annotations

import io
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import SAMPLE_GAMES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from notation.cli.main import app
from notation.pgn.reader import read_games
from notation.scoresheet.reader import reconstruct
from notation.tables.frames import to_frames
from notation.validation.run import validate

SEEDS = [
    (SAMPLE_GAMES / name).read_bytes()
    for name in ("classics.pgn", "round_robin.pgn", "special_moves.pgn", "broken.pgn", "chess960.pgn", "draws.pgn")
]
NASTY = [
    b"(",
    b")",
    b"{",
    b"}",
    b"[",
    b"]",
    b'"',
    b"\\",
    b";",
    b"%",
    b"$",
    b"*",
    b"\x00",
    b"\x1b[2J",
    b"\x07",
    b"\r",
    b"\r\n",
    b"\n\n",
    b"\xff\xfe",
    b"\xef\xbb\xbf",
    b"\xc3",
    b"99999999999999999999",
    b"-1",
    b"1e309",
    b'[Event "',
    b'\n[FEN "',
    b"0-1",
    b"1/2-1/2",
    b"O-O-O",
    b"e8=Q#",
    b"--",
    b"\t",
    b"\x85",
    b"\xe2\x80\xae",
    # the third pass: a byte-order mark or UTF-16 text starting a line, a damaged tag line, a
    # result then a blank line (text after it is a game of its own), a date outside the calendar
    b'\n\xef\xbb\xbf[Event "',
    b"\n\xff\xfe[\x00E\x00",
    b"\n[Event broken\n",
    b" 1-0\n\n",
    b'[Date "0000.00.00"]\n',
    b'[UTCDate "-5.01.01"]\n',
]
CONTRACT = {0, 1, 2}

_SETTINGS = settings(
    max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None
)
_SLOW_SETTINGS = settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck), database=None)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A seed file with a few random edits."""
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["delete", "duplicate", "insert", "bytes", "endings", "cut"]))
        at = draw(st.integers(0, len(data)))
        if kind == "delete":
            del data[at : at + draw(st.integers(1, 200))]
        elif kind == "duplicate":
            data[at:at] = data[at : at + draw(st.integers(1, 400))]
        elif kind == "insert":
            data[at:at] = draw(st.sampled_from(NASTY)) * draw(st.integers(1, 50))
        elif kind == "bytes":
            data[at:at] = draw(st.binary(min_size=1, max_size=40))
        elif kind == "endings":
            ending = draw(st.sampled_from([b"\r", b"\r\n", b"\n\r"]))
            data = bytearray(bytes(data).replace(b"\n", ending))
        else:
            del data[at:]
    return bytes(data)


def _no_escape(call: Callable[[], object]) -> None:
    """Run ``call``; any exception is a failure of the property (with the exception shown)."""
    call()


def _read_all(data: bytes) -> int:
    return sum(1 for _ in read_games(io.BytesIO(data)))


def _validate_all(data: bytes) -> list[str]:
    return [report.status for report in validate(io.BytesIO(data))]


def _cli(args: list[str], data: bytes) -> int:
    result = CliRunner().invoke(app, args, input=data)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in CONTRACT, (args, result.exit_code, result.output[-2000:])
    return result.exit_code


def _every_entry_point(data: bytes) -> None:
    _no_escape(lambda: _read_all(data))
    reports = list(validate(io.BytesIO(data)))
    assert all(report.status in ("ok", "warning", "error", "unsupported") for report in reports)
    games, moves = to_frames(io.BytesIO(data))
    no_pgn = sum(1 for report in reports if any(d.code == "pgn.not-pgn" for d in report.diagnostics))
    assert games.height == len(reports) - no_pgn  # a source with no PGN structure: a report, never a row
    text = data.decode("utf-8", "replace")
    rec = reconstruct(text[:4000])
    assert rec.status
    for command in (["validate", "-"], ["stats", "-"], ["standings", "-"], ["ledger", "-"]):
        _cli(command, data)
    with tempfile.TemporaryDirectory() as folder:
        _cli(["import", "-", "--out", str(Path(folder) / "ds")], data)


@_SETTINGS
@given(mutated())
def test_mutated_games_through_every_entry_point(data: bytes) -> None:
    _every_entry_point(data)


@pytest.mark.slow
@_SLOW_SETTINGS
@given(mutated())
def test_mutated_games_through_every_entry_point_long_run(data: bytes) -> None:
    _every_entry_point(data)


# ------------------------------------------------------------------- whole games survive
GOOD = (SAMPLE_GAMES / "classics.pgn").read_bytes().strip() + b"\n\n"


Fingerprint = tuple[str | None, str | None, int, str | None, tuple[tuple[str, int | None], ...]]


def _fingerprints(data: bytes) -> list[Fingerprint]:
    return [
        (r.white, r.black, r.plies, r.final_fen, tuple((d.code, d.line) for d in r.diagnostics))
        for r in validate(io.BytesIO(data))
    ]


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)
@given(mutated())
def test_a_broken_game_never_costs_the_games_before_it(bad: bytes) -> None:
    """Every game before the broken text keeps its moves, final position and findings. Text that
    follows a game without a tag section of its own is that game's trailing text, so only
    findings located after the good games' last line may be added (to the last of them)."""
    before = _fingerprints(GOOD)
    reports = _fingerprints(GOOD + bad)[: len(before)]
    end = GOOD.count(b"\n")
    for old, new in zip(before, reports, strict=True):
        assert new[:4] == old[:4]
        added = [d for d in new[4] if d not in old[4]]
        assert all(line is not None and line > end for _, line in added), (added, end)


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)
@given(st.sampled_from(NASTY), st.integers(1, 30))
def test_a_broken_game_never_costs_the_game_after_it(nasty: bytes, times: int) -> None:
    bad = b'[Event "Broken"]\n[Result "*"]\n\n1. e4 ' + nasty * times + b" e5 *\n\n"
    after = _fingerprints(GOOD)
    reports = _fingerprints(bad + GOOD)
    assert reports[-len(after) :] == after


# ------------------------------------------------------------------- compression cut anywhere
def _compress(kind: str, data: bytes) -> bytes:
    import bz2
    import gzip

    import zstandard

    if kind == "gz":
        return gzip.compress(data)
    if kind == "bz2":
        return bz2.compress(data)
    return zstandard.ZstdCompressor().compress(data)


def _decodable_prefix(kind: str, blob: bytes) -> bytes:
    """What an incremental decompressor gets out of ``blob`` before it fails or runs out."""
    import bz2
    import zlib

    import zstandard

    if kind == "gz":
        decoder: object = zlib.decompressobj(16 + zlib.MAX_WBITS)
    elif kind == "bz2":
        decoder = bz2.BZ2Decompressor()
    else:
        decoder = zstandard.ZstdDecompressor().decompressobj()
    out = bytearray()
    for start in range(0, len(blob), 256):
        try:
            out += decoder.decompress(blob[start : start + 256])  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - the prefix decoded so far is what counts
            break
    return bytes(out)


CUT_SOURCE = b"".join(SEEDS[:3]) * 3


@settings(max_examples=24, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)
@given(st.sampled_from(["gz", "bz2", "zst"]), st.floats(0.05, 0.98))
def test_a_cut_compressed_file_reports_every_whole_game_then_the_io_error(kind: str, where: float) -> None:
    blob = _compress(kind, CUT_SOURCE)
    cut = blob[: int(len(blob) * where)]
    prefix = _decodable_prefix(kind, cut)
    whole = max(0, prefix.count(b"[Event ") - 1)  # the last game begun may be cut
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"cut.pgn.{kind}"
        path.write_bytes(cut)
        reports = list(validate(path))
        games = [r for r in reports if not any(d.code == "pgn.io" for d in r.diagnostics)]
        assert len(games) >= whole
        assert any(d.code == "pgn.io" for r in reports for d in r.diagnostics)
        for command in (["validate"], ["stats"], ["standings"], ["ledger"]):
            result = CliRunner().invoke(app, [*command, str(path)])
            assert result.exit_code == 2, (command, result.output[-1000:])
            assert result.exception is None or isinstance(result.exception, SystemExit)


# ------------------------------------------------------------------- linear cost
def _cost(call: Callable[[], object]) -> tuple[float, int]:
    """CPU time of one run of ``call`` (untraced: tracing would dilute a quadratic part done in
    C), then the peak memory of a second, traced, run."""
    started = time.process_time()
    call()
    elapsed = time.process_time() - started
    tracemalloc.start()
    call()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return elapsed, peak


HOSTILE_SHAPES: dict[str, Callable[[int], bytes]] = {
    "long line of moves": lambda n: b'[Result "*"]\n\n' + b"Nf3 Nf6 Ng1 Ng8 " * n + b"*\n",
    "deep variations": lambda n: b'[Result "*"]\n\n1. e4 ' + b"( 1. d4 " * n + b")" * n + b" e5 *\n",
    "open brackets": lambda n: b'[Result "*"]\n\n1. e4 ' + b"( " * n + b"*\n",
    "comments": lambda n: b'[Result "*"]\n\n1. e4 ' + b"{ x } " * n + b"*\n",
    "tags": lambda n: b"".join(b'[T%d "v"]\n' % i for i in range(n)) + b"\n1. e4 *\n",
    "empty games": lambda n: b'[Event "x"]\n\n*\n\n' * n,
    "garbage": lambda n: b"\xff\x00}])" * n,
    # one finding for the whole run: its message must not be rebuilt from every word per token
    "junk run": lambda n: b'[Result "*"]\n\n1. e4 ' + b"xx " * (5 * n) + b"*\n",
    # every duplicate is located: its line must not be counted from the start of the section
    "duplicate tags": lambda n: b'[Event "a"]\n' * (5 * n) + b"\n1. e4 *\n",
    "flood of (": lambda n: b'[Result "*"]\n\n1. e4 ' + b"(" * (10 * n) + b" e5 *\n",
    "flood of )": lambda n: b'[Result "*"]\n\n1. e4 ' + b")" * (5 * n) + b" e5 *\n",
    "flood of ( after the result": lambda n: b'[Result "*"]\n\n1. e4 * ' + b"(" * (5 * n) + b"\n",
}


@pytest.mark.parametrize("shape", sorted(HOSTILE_SHAPES))
def test_cost_grows_linearly_with_hostile_input(shape: str) -> None:
    """CPU time and peak memory of 4x and 16x inputs: linear costs grow 4 times between them,
    quadratic ones 16 times; the bound (8x, above a floor for fixed costs and timer noise)
    tells them apart."""
    make = HOSTILE_SHAPES[shape]
    small, large = make(4 * 250), make(16 * 250)

    def run(data: bytes) -> Callable[[], object]:
        return lambda: (_validate_all(data), to_frames(io.BytesIO(data)))

    run(make(250))()  # warm caches (grammars, tables)
    time_small, memory_small = _cost(run(small))
    time_large, memory_large = _cost(run(large))
    assert time_large <= 8 * max(time_small, 0.03), (shape, time_small, time_large)
    assert memory_large <= 10 * max(memory_small, 2_000_000), (shape, memory_small, memory_large)


@pytest.mark.parametrize("shape", ["flood of (", "deep variations"])
def test_bracket_floods_hold_bounded_memory(shape: str) -> None:
    """Beyond the depth cap the levels are not held: an 80 KB flood peaks at a small multiple
    of its size (it held over 400 bytes per bracket)."""
    data = HOSTILE_SHAPES[shape](8_000)
    _, peak = _cost(lambda: _validate_all(data))
    assert peak <= 20 * len(data) + 4_000_000, (shape, len(data), peak)
