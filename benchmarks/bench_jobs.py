"""Benchmark: what the parent of ``validate --jobs J`` costs beside its workers.

    python benchmarks/bench_jobs.py FILE J [OUT]

Runs ``validate_sources([(FILE, None)], jobs=J)`` in this process with every report rendered to
its jsonl line in the workers, as ``notation validate --format jsonl`` does (the lines written to
OUT, default ``/dev/null``), and prints the games, the wall seconds, the parent's CPU seconds
(``getrusage(RUSAGE_SELF)``: reading, cutting ranges or splitting, sending work, the lines) and
the workers' (``RUSAGE_CHILDREN``, counted when the pool shuts down). On a machine whose cores
are shared the wall time says little; the parent's CPU against one worker's says whether the
parent would be the bottleneck with idle cores (it must stay below a worker's).
"""

from __future__ import annotations

import os
import resource
import sys
import time


def main() -> None:
    from notation.validation.reports import report_line as jsonl_line
    from notation.validation.run import validate_sources

    path, jobs = sys.argv[1], int(sys.argv[2])
    out = sys.argv[3] if len(sys.argv) > 3 else os.devnull
    started = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_SELF)
    games = 0
    with open(out, "w", encoding="utf-8") as handle:
        for line in validate_sources([(path, None)], jobs=jobs, render=jsonl_line):
            handle.write(line.text + "\n")
            games += 1
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    parent = own.ru_utime + own.ru_stime - before.ru_utime - before.ru_stime
    workers = kids.ru_utime + kids.ru_stime
    print(
        f"jobs {jobs}: {games} games, wall {time.perf_counter() - started:.1f} s, parent CPU {parent:.1f} s, "
        f"workers CPU {workers:.1f} s"
        + (f" ({workers / jobs:.1f} s each)" if jobs > 1 else "")
        + f", load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
