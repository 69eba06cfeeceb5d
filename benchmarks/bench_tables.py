"""Time `stats`, `standings` and `ledger` over an imported dataset (run on demand, never in CI).

Usage::

    notation import ../shared/corpus/games/ --out /tmp/corpus-ds --no-moves
    python benchmarks/bench_tables.py /tmp/corpus-ds [--rounds 3]

Prints, per function, the median wall time of `--rounds` runs, games per second and the peak
resident memory of the process. The dataset is scanned lazily each time (`notation.scan`), so
the timings include reading Parquet.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from collections.abc import Callable
from pathlib import Path


import polars as pl

from notation.tables.frames import scan
from notation.tables.ledger import format_points, ledger
from notation.tables.standings import standings
from notation.tables.stats import stats


def _timed(func: Callable[[], object], rounds: int) -> tuple[float, object]:
    times = []
    value: object = None
    for _ in range(rounds):
        start = time.perf_counter()
        value = func()
        times.append(time.perf_counter() - start)
    return statistics.median(times), value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=["stats", "standings", "ledger"], help="run one function only")
    parser.add_argument("--history", action="store_true", help="keep the ledger's per-game history")
    args = parser.parse_args()

    games_lazy = scan(args.dataset)[0]
    n = games_lazy.select(pl.len()).collect().item()
    print(f"dataset {args.dataset}: {n} games, polars {pl.__version__}")

    if args.only in (None, "stats"):
        seconds, _ = _timed(lambda: stats(scan(args.dataset)[0]), args.rounds)
        print(f"stats (all 8 sections, lazy scan): {seconds:.3f} s  ({n / seconds:,.0f} games/s)")
    if args.only in (None, "standings"):
        _standings(args.dataset, games_lazy, n, args.rounds)
    if args.only in (None, "ledger"):
        _ledger(args.dataset, args.rounds, args.history)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak:.0f} MiB")


def _standings(dataset: Path, games_lazy: pl.LazyFrame, n: int, rounds: int) -> None:
    biggest = games_lazy.group_by(pl.col("event").cast(pl.String)).len().sort("len", descending=True).collect().row(0)
    seconds, _ = _timed(lambda: standings(scan(dataset)[0], event=biggest[0]), rounds)
    print(f"standings --event {biggest[0]!r} ({biggest[1]} games): {seconds:.3f} s")
    seconds, table = _timed(lambda: standings(scan(dataset)[0]), rounds)
    players = len(table.rows)  # type: ignore[attr-defined]
    print(f"standings over all games ({players} players): {seconds:.3f} s  ({n / seconds:,.0f} games/s)")


def _ledger(dataset: Path, rounds: int, history: bool) -> None:
    seconds, result = _timed(lambda: ledger(scan(dataset)[0], history=history), rounds)
    applied = result.applied  # type: ignore[attr-defined]
    longest = max((len(format_points(p.points)) for p in result.players), default=0)  # type: ignore[attr-defined]
    print(
        f"ledger ({applied} games applied, {len(result.players)} players): {seconds:.3f} s  "  # type: ignore[attr-defined]
        f"({applied / seconds:,.0f} games/s, history={history}); longest exact points text {longest} characters"
    )


if __name__ == "__main__":
    main()
