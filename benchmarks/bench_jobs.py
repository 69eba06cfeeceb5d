"""Benchmark: what ``validate --jobs J`` costs beside its workers.

    python benchmarks/bench_jobs.py FILE J [OUT]

Runs ``validate_sources([(FILE, None)], jobs=J)`` in this process with every report rendered to
its jsonl line, as ``notation validate --format jsonl`` does (the lines written to OUT, default
``/dev/null``): with the compiled core, J threads share the core's work (the core lets go of the
interpreter while it writes a batch's lines) and this thread splits the file, makes the lines of
the games the core declines and writes them all; without it, J worker processes. Prints the
games, the wall seconds, this thread's CPU seconds (``time.thread_time``: reading, splitting, the
lines), the whole process's (``RUSAGE_SELF``: every thread) and the worker processes'
(``RUSAGE_CHILDREN``, counted when a pool shuts down; 0 with the core's threads). On a machine
whose cores are shared the wall time says little; this thread's CPU against the rest says whether
it would be the bottleneck with idle cores (it must stay below the threads' share).
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
    own_thread = time.thread_time()
    games = 0
    with open(out, "w", encoding="utf-8") as handle:
        for line in validate_sources([(path, None)], jobs=jobs, render=jsonl_line):
            handle.write(line.text + "\n")
            games += 1
    thread = time.thread_time() - own_thread
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    process = own.ru_utime + own.ru_stime - before.ru_utime - before.ru_stime
    workers = kids.ru_utime + kids.ru_stime
    print(
        f"jobs {jobs}: {games} games, wall {time.perf_counter() - started:.2f} s, this thread's CPU {thread:.2f} s, "
        f"the process's {process:.2f} s, worker processes' {workers:.2f} s, load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
