"""Benchmark: one ``to_frames`` call in a fresh process, for before/after comparisons.

    python benchmarks/bench_frames.py FILE

Prints which ``notation`` it imported (run it with ``PYTHONPATH`` set to a worktree of another
commit to compare), the wall time of the call, the user+sys CPU of the whole process and the size
of the moves table. Run the two versions interleaved, a few rounds each (the machines are noisy).
"""

from __future__ import annotations

import resource
import sys
import time

import notation
from notation.tables.frames import to_frames


def main() -> None:
    path = sys.argv[1]
    started = time.perf_counter()
    _, moves = to_frames(path)
    wall = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(
        f"{notation.__file__}: wall {wall:.2f} s, user+sys {usage.ru_utime + usage.ru_stime:.2f} s, "
        f"{moves.height} moves, {len(moves.columns)} columns"
    )


if __name__ == "__main__":
    main()
