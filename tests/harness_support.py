"""Test support for the never-crash harness (tests/cli/test_never_crash*.py): the mutation it
draws, and a run of one command on inputs of two sizes in a process of its own that reports
each run's exit code, escaped exception, CPU time and peak memory."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass

from hypothesis import strategies as st

from conftest import ROOT


def mutated(seed: str, width: int = 40) -> st.SearchStrategy[str]:
    """``seed`` with a slice of up to ``width`` characters replaced by any Unicode text of up to
    ``width`` characters (digits, blanks and controls of every script included)."""

    @st.composite
    def draw_one(draw: st.DrawFn) -> str:
        start = draw(st.integers(0, len(seed)))
        end = draw(st.integers(start, min(len(seed), start + width)))
        return seed[:start] + draw(st.text(max_size=width)) + seed[end:]

    return draw_one()


@dataclass(frozen=True)
class Run:
    """One command's run: its exit code, the traceback of an exception that escaped (or None),
    its CPU seconds and the process's peak resident memory after it, in bytes."""

    code: int
    escaped: str | None
    cpu: float
    peak: int


#: The child: runs each command line in turn through the CLI (in process, as a user's shell would
#: run it), printing one JSON record a run. Peak memory is the process's high-water mark so far.
_CHILD = r"""
import json, resource, sys, time, traceback
from typer.testing import CliRunner
from notation.cli.main import app

records = []
for args in json.loads(sys.argv[1]):
    started = time.process_time()
    result = CliRunner().invoke(app, args)
    cpu = time.process_time() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    error = result.exception
    escaped = None
    if error is not None and not isinstance(error, SystemExit):
        escaped = "".join(traceback.format_exception(error))
    records.append({"code": result.exit_code, "escaped": escaped, "cpu": cpu, "peak": peak})
print(json.dumps(records))
"""


def run_in_child(command_lines: list[list[str]], timeout: float = 600) -> list[Run]:
    """Each command line run in turn in one fresh interpreter (the checkout's package)."""
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(command_lines)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return [Run(**record) for record in json.loads(done.stdout.splitlines()[-1])]
