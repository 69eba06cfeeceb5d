"""Benchmark: what the dead-position and 6.9 checks cost `validate` and `import`, in CPU.

    python benchmarks/bench_dead.py --before VENV_BEFORE --after VENV_AFTER [PATH] [--rounds R]
    python benchmarks/bench_dead.py --before VENV_BEFORE --after VENV_AFTER [PATH] --callgrind GAMES
    python benchmarks/bench_dead.py --share GAMES [--venv VENV] [PATH]

Two installs of the package (each a virtual environment with ``notation`` installed: one built
from the commit before the change, one after) run the same commands as whole processes, in
the same order each round (before, after, before, after, ...) so that the machine's drift hits
both alike:

* ``notation validate PATH --format jsonl --jobs 1 > /dev/null``
* ``notation import PATH --out DIR --jobs 1 -q`` (a fresh DIR each run)

CPU = user + system seconds of the process and its children (``getrusage``). Prints each
command's median CPU before and after and the ratio. Default PATH is the Lichess corpus file.

With ``--callgrind GAMES`` each command runs once per install under
``valgrind --tool=callgrind`` on the first GAMES games of PATH, and the instructions the whole
process executed are printed instead: a count that does not drift with the machine's load (the
same binary on the same input gives the same count to a few parts in a million), though it
weighs every instruction alike (a cache miss or a mispredicted branch costs more CPU time than
an instruction; the search has more of those than the rest of a run, so its share of CPU time is
larger than its share of instructions).

With ``--share GAMES`` one install (``--venv``, default: the Python running this script) runs
``validate`` once under callgrind on the first GAMES games, and the script prints the share of the
whole process's instructions spent inside the dead-position verdict: the inclusive counts of the
core's ``dead::final_verdicts`` (the final position's two verdicts: quick tests, helpmate walks,
full searches) and ``dead::first_dead`` (the walk back to the first dead position), which are
disjoint, and their sum, the verdict's share. For information it also prints
``helpmate::mate_found`` (every helpmate walk, wherever called), ``dead::search`` (the searches
of a side whose opponent cannot mate and of the walk back), ``chasolver::winnability`` (every
full search) and ``chasolver::winnability::fast::is_unwinnable`` (every quick static test). The
core must carry its symbols (the release build does). Every function is listed, however small
(``callgrind_annotate --threshold=100``).
"""

from __future__ import annotations

import argparse
import gzip
import re
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT.parent / "shared" / "corpus" / "games" / "lichess" / "lichess-jishanshaikh4.pgn.gz"


def cpu_of(command: list[str]) -> float:
    """CPU seconds (user + system) of one child process run to the end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions_of(command: list[str]) -> int:
    """Instructions the process executed, counted by callgrind."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    found = re.search(r"Collected\s*:\s*([0-9,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind gave no count for {command}: {done.stderr[-500:]}")
    return int(found.group(1).replace(",", ""))


def first_games(path: Path, games: int, out: Path) -> Path:
    """The first ``games`` games of ``path`` (plain or gzip) as a plain PGN file in ``out``."""
    opener = gzip.open if path.suffix == ".gz" else open
    target = out / "first-games.pgn"
    seen = 0
    with opener(path, "rt", encoding="utf-8", errors="replace") as source, target.open("w", encoding="utf-8") as sink:
        for line in source:
            if line.startswith("[Event "):
                seen += 1
                if seen > games:
                    break
            sink.write(line)
    return target


def callgrind(args: argparse.Namespace, scratch: Path) -> None:
    path = first_games(args.path, args.callgrind, scratch)
    counts: dict[tuple[str, str], int] = {}
    for name in args.only:
        for label, venv in (("before", args.before), ("after", args.after)):
            out = scratch / f"{label}-{name}"
            counts[(name, label)] = instructions_of(commands(venv, path, out)[name])
            shutil.rmtree(out, ignore_errors=True)
            print(f"{name:8} {label:6} {counts[(name, label)]:>16,} instructions", flush=True)
    print()
    print(f"{'command':10} {'before':>16} {'after':>16} {'ratio':>7}   ({args.callgrind} games)")
    for name in args.only:
        before, after = counts[(name, "before")], counts[(name, "after")]
        print(f"{name:10} {before:16,} {after:16,} {after / before:6.3f}x")


#: The verdict: functions whose inclusive instruction counts `--share` adds up (disjoint calls).
VERDICT_FUNCTIONS = ("_core::dead::final_verdicts", "_core::dead::first_dead")

#: Inside the verdict, for information (each may be called from either function above).
DETAIL_FUNCTIONS = (
    "_core::helpmate::mate_found",
    "_core::dead::search",
    "chasolver::winnability",
    "chasolver::winnability::fast::is_unwinnable",
)


def share(args: argparse.Namespace, scratch: Path) -> None:
    path = first_games(args.path, args.share, scratch)
    # the console script run by its interpreter: callgrind does not follow an exec (a shim's)
    bin_dir = args.venv / "bin" if args.venv else Path(sysconfig.get_path("scripts"))
    interpreter = str(bin_dir / "python") if args.venv else sys.executable
    notation = str(bin_dir / "notation")
    out = scratch / "callgrind.out"
    command = [interpreter, notation, "validate", str(path), "--format", "jsonl", "--jobs", "1"]
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    annotated = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    total = re.search(r"([0-9,]+) \(100\.0%\)\s+PROGRAM TOTALS", annotated)
    if total is None:
        raise SystemExit("callgrind_annotate gave no total")
    whole = int(total.group(1).replace(",", ""))
    print(f"validate, first {args.share} games of {args.path.name}: {whole:,} instructions")

    def inclusive(name: str) -> int:
        found = re.search(r"^\s*([0-9,]+) \([^)]*\)\s+\S*?:" + re.escape(name) + r" \[", annotated, re.MULTILINE)
        return int(found.group(1).replace(",", "")) if found else 0

    verdict = 0
    for name in VERDICT_FUNCTIONS:
        count = inclusive(name)
        verdict += count
        print(f"  {name:44} {count:16,}  {100 * count / whole:5.2f}%")
    print(f"  {'the verdict (their sum)':44} {verdict:16,}  {100 * verdict / whole:5.2f}%")
    print("  of which:")
    for name in DETAIL_FUNCTIONS:
        count = inclusive(name)
        print(f"    {name:42} {count:16,}  {100 * count / whole:5.2f}%")


def commands(venv: Path, path: Path, out: Path) -> dict[str, list[str]]:
    notation = str(venv / "bin" / "notation")
    return {
        "validate": [notation, "validate", str(path), "--format", "jsonl", "--jobs", "1"],
        "import": [notation, "import", str(path), "--out", str(out), "--jobs", "1", "-q"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--before", type=Path, help="virtual environment before the change")
    parser.add_argument("--after", type=Path, help="virtual environment after the change")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=["validate", "import"])
    parser.add_argument(
        "--callgrind",
        type=int,
        metavar="GAMES",
        default=0,
        help="count instructions under callgrind on the first GAMES games instead of timing",
    )
    parser.add_argument(
        "--share",
        type=int,
        metavar="GAMES",
        default=0,
        help="the dead-position verdict's share of validate's instructions on the first GAMES games",
    )
    parser.add_argument("--venv", type=Path, default=None, help="the install --share measures (default: this Python's)")
    args = parser.parse_args()
    times: dict[tuple[str, str], list[float]] = {}
    scratch = Path(tempfile.mkdtemp(prefix="bench_dead_"))
    if not args.share and (args.before is None or args.after is None):
        parser.error("--before and --after are needed (or --share)")
    counting = share if args.share else callgrind if args.callgrind else None
    if counting is not None:
        try:
            counting(args, scratch)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return
    try:
        for round_number in range(args.rounds):
            for name in args.only:
                for label, venv in (("before", args.before), ("after", args.after)):
                    out = scratch / f"{label}-{name}-{round_number}"
                    seconds = cpu_of(commands(venv, args.path, out)[name])
                    shutil.rmtree(out, ignore_errors=True)
                    times.setdefault((name, label), []).append(seconds)
                    print(f"round {round_number + 1} {name:8} {label:6} {seconds:7.2f} s CPU", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print()
    print(f"{'command':10} {'before':>9} {'after':>9} {'ratio':>7}")
    for name in args.only:
        before = statistics.median(times[(name, "before")])
        after = statistics.median(times[(name, "after")])
        print(f"{name:10} {before:8.2f}s {after:8.2f}s {after / before:6.3f}x")


if __name__ == "__main__":
    main()
