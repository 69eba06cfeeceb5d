"""PGN parsing benchmark: notation vs python-chess on the same games, in one run.

Measures games/s, interleaved over several rounds (median reported), for:

* full parse to the model: ``notation.read_games`` (Lark + lark-cython when installed; and
  with ``NOTATION_PURE_LARK=1`` semantics via ``use_cython=False``) against python-chess
  ``chess.pgn.read_game`` (which also checks legality; that is its cost, and the baseline the
  issue names);
* headers only: ``notation.read_headers`` against ``chess.pgn.read_headers``.

Both read the same decompressed bytes from memory (python-chess through a UTF-8 text wrapper),
so decompression and disk are out of the comparison.

Usage::

    python benchmarks/bench_parse.py [--games 2000] [--rounds 3] [--file PATH ...]

By default it uses the first ``--games`` games of the Lichess export (clock comment on every
move) and of Anand's OTB file (plain movetext), both in ``../shared/corpus/games/``.
"""

from __future__ import annotations

import argparse
import gzip
import io
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import chess.pgn

ROOT = Path(__file__).resolve().parent.parent

from notation.grammars import lark_cython_available
from notation.pgn.parser import get_parser
from notation.pgn.reader import read_games, read_headers, split_games

CORPUS = ROOT.parent / "shared" / "corpus" / "games"
DEFAULT_FILES = [
    CORPUS / "lichess" / "lichess-jishanshaikh4.pgn.gz",
    CORPUS / "otb-pgnmentor" / "Anand.pgn.gz",
    CORPUS / "engine" / "tcec-other.pgn.gz",
]


def first_games(path: Path, count: int) -> bytes:
    """The bytes of the first ``count`` games of ``path`` (decompressed)."""
    data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    if count <= 0:
        return data
    for raw in split_games(io.BytesIO(data)):
        if raw.number == count + 1:
            return data[: raw.offset]
    return data


def pc_read_game(data: bytes) -> int:
    handle = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace")
    n = 0
    while chess.pgn.read_game(handle) is not None:
        n += 1
    return n


def pc_read_headers(data: bytes) -> int:
    handle = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace")
    n = 0
    while chess.pgn.read_headers(handle) is not None:
        n += 1
    return n


def ours_full(data: bytes) -> int:
    return sum(1 for _ in read_games(io.BytesIO(data)))


def ours_full_pure(data: bytes) -> int:
    return sum(1 for _ in read_games(io.BytesIO(data), use_cython=False))


def ours_headers(data: bytes) -> int:
    return sum(1 for _ in read_headers(io.BytesIO(data)))


def timed(fn: Callable[[bytes], int], data: bytes) -> tuple[float, int]:
    start = time.perf_counter()
    n = fn(data)
    return time.perf_counter() - start, n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="games per file (0 = all)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--file", type=Path, action="append", help="PGN file(s) (default: corpus sample)")
    args = parser.parse_args()
    get_parser()  # build (and cache) the grammars outside the timings
    get_parser(False)
    print(f"lark-cython: {'yes' if lark_cython_available() else 'no'}; rounds: {args.rounds} (median)")
    contenders: list[tuple[str, Callable[[bytes], int]]] = [
        ("python-chess read_game", pc_read_game),
        ("notation read_games", ours_full),
        ("notation read_games (pure Lark)", ours_full_pure),
        ("python-chess read_headers", pc_read_headers),
        ("notation read_headers", ours_headers),
    ]
    for path in args.file or DEFAULT_FILES:
        if not path.exists():
            print(f"skip {path}: missing")
            continue
        data = first_games(path, args.games)
        times: dict[str, list[float]] = {name: [] for name, _ in contenders}
        counts: dict[str, int] = {}
        for _ in range(args.rounds):
            for name, fn in contenders:
                seconds, n = timed(fn, data)
                times[name].append(seconds)
                counts[name] = n
        games = counts["notation read_games"]
        print(f"\n{path.name}: {games} games, {len(data) / 1e6:.1f} MB")
        rate = {name: counts[name] / statistics.median(t) for name, t in times.items()}
        for name, _ in contenders:
            print(f"  {name:34s} {statistics.median(times[name]):7.2f} s  {rate[name]:9.0f} games/s")
        print(
            f"  full parse ratio (ours / python-chess read_game):   {rate['notation read_games'] / rate['python-chess read_game']:.2f}x"
        )
        print(
            f"  pure Lark ratio:                                     {rate['notation read_games (pure Lark)'] / rate['python-chess read_game']:.2f}x"
        )
        print(
            f"  headers ratio (ours / python-chess read_headers):   {rate['notation read_headers'] / rate['python-chess read_headers']:.2f}x"
        )


if __name__ == "__main__":
    main()
