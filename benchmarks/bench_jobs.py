"""Benchmark: what the parent of ``validate --jobs J`` costs beside its workers.

    python benchmarks/bench_jobs.py FILE J

Runs ``validate(FILE, jobs=J)`` in this process with every report turned into its jsonl line
(what ``notation validate --format jsonl`` does) and prints the games, the wall seconds, the
parent's CPU seconds (``getrusage(RUSAGE_SELF)``: reading, splitting, sending batches, the
lines) and the workers' (``RUSAGE_CHILDREN``, counted when the pool shuts down). On a machine
whose cores are shared the wall time says little; the parent's CPU against one worker's says
whether the parent would be the bottleneck with idle cores (it must stay below a worker's).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time


def main() -> None:
    from notation.validation.run import validate

    path, jobs = sys.argv[1], int(sys.argv[2])
    started = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_SELF)
    reports = validate(path, jobs=jobs)
    games = 0
    for report in reports:
        json.dumps(report.to_dict(), ensure_ascii=False, separators=(",", ":"))
        games += 1
    reports.close()  # shuts the pool down: its workers' CPU is then counted
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    parent = own.ru_utime + own.ru_stime - before.ru_utime - before.ru_stime
    workers = kids.ru_utime + kids.ru_stime
    print(f"jobs {jobs}: {games} games, wall {time.perf_counter() - started:.1f} s, parent CPU {parent:.1f} s, "
          f"workers CPU {workers:.1f} s" + (f" ({workers / jobs:.1f} s each)" if jobs > 1 else "")
          + f", load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
