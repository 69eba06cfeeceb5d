"""Coverage-guided fuzzing of every reader, in process, with atheris (libFuzzer for Python).

    python -m venv --system-site-packages VENV && VENV/bin/pip install atheris
    PYTHONPATH=. VENV/bin/python benchmarks/fuzz_readers.py CORPUS_DIR -max_total_time=600 -timeout=20 -rss_limit_mb=2048

(on demand, like the benchmarks: atheris is no dependency of the package or its tests).
``CORPUS_DIR`` is libFuzzer's working corpus: give an empty folder and the script seeds it from
``sample_games/`` (its games, sheets and a few FENs). Any other libFuzzer option may follow;
``--readers=0124`` fuzzes only the readers named by their numbers below (the scoresheet reader
costs about a second an input, the others milliseconds).

The first byte of each input chooses the reader, the rest is its text:

0. ``validate`` (the core path where it takes a game) and every game's report;
1. ``read_games`` and ``check_game`` (the Python parser and the reference replay);
2. ``to_frames`` (both tables of ``import``);
3. ``reconstruct`` of the text as a scoresheet (first 2,000 bytes);
4. the small readers: a FEN, scoresheet tags, a ``--pin`` move, a diagram's ply.

A finding is an exception that escapes (the readers return diagnostics, never raise; a FEN's
``FenError``, a ``PinError`` and a ``ValueError`` of the ply reader are their documented answers),
or a report holding an ``internal.error`` diagnostic (an exception caught inside the checker). A
run over the time limit (``-timeout``) or the memory limit (``-rss_limit_mb``) is a finding of
libFuzzer's own. The figures of the last long run are in BENCHMARKS.md ("Hostile input")."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import atheris
import polars  # noqa: F401 - loaded uninstrumented: atheris's rewritten comparisons break polars' own

# coverage is traced in the package's own modules only
with atheris.instrument_imports(include=["notation"]):
    from notation.formats.fen import FenError
    from notation.formats.position import Position
    from notation.pgn.reader import read_games
    from notation.pictures.diagram import parse_ply
    from notation.scoresheet.reader import PinError, parse_pin, reconstruct
    from notation.scoresheet.tags import parse_tags
    from notation.tables.frames import to_frames
    from notation.validation.reports import check_game
    from notation.validation.run import validate

ROOT = Path(__file__).resolve().parent.parent
SHEET_BYTES = 2000
FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "8/8/8/4k3/8/8/8/4K2R w K - 0 1",
]


class Finding(Exception):
    """A report that holds an internal error."""


def _no_internal_error(codes: list[str]) -> None:
    if "internal.error" in codes:
        raise Finding(codes)


def _validate(data: bytes) -> None:
    for report in validate(io.BytesIO(data)):
        _no_internal_error([d.code for d in report.diagnostics])


def _reference(data: bytes) -> None:
    for item in read_games(io.BytesIO(data)):
        if hasattr(item, "moves"):
            _no_internal_error([d.code for d in check_game(item).diagnostics])


def _tables(data: bytes) -> None:
    to_frames(io.BytesIO(data))


def _sheet(data: bytes) -> None:
    reconstruct(data[:SHEET_BYTES].decode("utf-8", "replace"))


def _small(data: bytes) -> None:
    text = data.decode("utf-8", "replace")
    try:
        Position.from_fen(text)
    except FenError:
        pass
    parse_tags(text)
    try:
        parse_pin(text)
    except PinError:
        pass
    try:
        parse_ply(text)
    except ValueError:
        pass


READERS = [_validate, _reference, _tables, _sheet, _small]


ACTIVE = list(range(len(READERS)))


def one_input(data: bytes) -> None:
    if not data:
        return
    reader = data[0] % len(READERS)
    if reader in ACTIVE:
        READERS[reader](data[1:])


def _seed(folder: Path) -> None:
    """Seed an empty corpus folder: each sample game file and sheet for each reader."""
    if any(folder.iterdir()):
        return
    texts = [p.read_bytes() for p in sorted((ROOT / "sample_games").rglob("*")) if p.is_file()]
    texts += [fen.encode() for fen in FENS]
    for i, text in enumerate(texts):
        for reader in range(len(READERS)):
            (folder / f"seed-{i}-{reader}").write_bytes(bytes([reader]) + text[:20000])


def main() -> None:
    for arg in sys.argv[1:]:
        if arg.startswith("--readers="):
            ACTIVE[:] = [int(c) for c in arg.partition("=")[2]]
            sys.argv.remove(arg)
    folders = [Path(a) for a in sys.argv[1:] if not a.startswith("-")]
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
        _seed(folder)
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
