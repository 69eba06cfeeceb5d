"""Benchmark: start-up of the command line, and ``filter``'s play criteria with and without the
compiled core and with ``--jobs 2``, as whole processes.

    python benchmarks/bench_startup.py [--rounds R] [--filter FILE] [--notation PATH]

Start-up (each round runs the commands interleaved, so a drift of the machine's speed hits all of
them alike): ``python -c pass`` (the interpreter's own floor, with whatever its site packages
import), ``notation --version``, ``notation --help``, ``notation validate EMPTY.pgn``. With
``--filter FILE``: ``notation filter FILE --material Q*R*:q*r*`` and ``--unique`` with the core,
with ``NOTATION_CORE=python`` (the Python walk), and with the core and ``--jobs 2``.

Prints the median CPU (user + system of the child) and wall seconds of each command.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def measure(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of ``command``, its output thrown away."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--filter", type=Path, default=None, help="a PGN file for the filter cases")
    parser.add_argument("--notation", default=shutil.which("notation") or "notation")
    args = parser.parse_args()
    notation = args.notation
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty.pgn"
        empty.write_text("")
        cases: dict[str, tuple[list[str], dict[str, str] | None]] = {
            "python -c pass": ([sys.executable, "-c", "pass"], None),
            "notation --version": ([notation, "--version"], None),
            "notation --help": ([notation, "--help"], None),
            "notation validate EMPTY": ([notation, "validate", str(empty)], None),
        }
        rounds = args.rounds
        if args.filter is not None:
            python = dict(os.environ, NOTATION_CORE="python")
            for name, extra in (("--material Q*R*:q*r*", ["--material", "Q*R*:q*r*"]), ("--unique", ["--unique"])):
                base = [notation, "filter", str(args.filter), *extra, "--out", str(Path(tmp) / "out.pgn")]
                cases[f"filter {name} (core)"] = (base, None)
                cases[f"filter {name} (Python walk)"] = (base, python)
                cases[f"filter {name} (core, --jobs 2)"] = ([*base, "--jobs", "2"], None)
            rounds = min(rounds, 3)
        figures: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
        for _ in range(rounds):
            for name, (command, env) in cases.items():
                figures[name].append(measure(command, env))
    print(f"{rounds} rounds, interleaved; medians")
    print(f"{'command':45} {'CPU s':>8} {'wall s':>8}")
    for name, runs in figures.items():
        cpu = statistics.median(c for c, _ in runs)
        wall = statistics.median(w for _, w in runs)
        print(f"{name:45} {cpu:8.3f} {wall:8.3f}")


if __name__ == "__main__":
    main()
