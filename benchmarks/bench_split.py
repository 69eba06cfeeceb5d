"""Benchmark: the reader's boundary split (``notation.pgn.reader.split_games``) of byte input,
by the compiled core's ``Regions`` (the default) against the Python twin ``_Regions``.

    python benchmarks/bench_split.py FILE [--rounds R]

Reads FILE (plain PGN; decompress first) as bytes, splits it whole each round, the two in turn
(core, Python, core, ...), and prints each one's median CPU seconds (``time.process_time``),
games and megabytes a second, and that both gave the same games (data, number, line, offset).
"""

from __future__ import annotations

import argparse
import functools
import io
import statistics
import time
from pathlib import Path
from typing import Any

from notation.pgn import reader
from notation.pgn.chunks import RawGame


_python_regions = functools.partial(reader._regions, compiled=False)


def _split(data: bytes) -> tuple[float, list[tuple[Any, ...]]]:
    started = time.process_time()
    games = [
        (item.data, item.number, item.line, item.offset)
        for item in reader.split_games(io.BytesIO(data))
        if isinstance(item, RawGame)
    ]
    return time.process_time() - started, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    data = args.file.read_bytes()
    core_regions = reader._regions
    times: dict[str, list[float]] = {"core": [], "python": []}
    found: dict[str, list[tuple[Any, ...]]] = {}
    for _ in range(args.rounds):
        for name, regions in (("core", core_regions), ("python", _python_regions)):
            reader._regions = regions  # type: ignore[assignment]
            try:
                seconds, games = _split(data)
            finally:
                reader._regions = core_regions
            times[name].append(seconds)
            found[name] = games
    games = len(found["core"])
    for name, runs in times.items():
        cpu = statistics.median(runs)
        print(
            f"{name:7} {cpu:.3f} s CPU (median of {len(runs)})  {games / cpu:,.0f} games/s"
            f"  {len(data) / cpu / 1e6:,.0f} MB/s"
        )
    print(f"{games} games; the same games both ways: {found['core'] == found['python']}")


if __name__ == "__main__":
    main()
