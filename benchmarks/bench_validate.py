"""Benchmark: `notation validate` vs a python-chess `read_game` loop on the same file, same run.

    python benchmarks/bench_validate.py [PATH] [--games N] [--rounds R] [--jobs 1 2]

Default PATH is the Lichess corpus file. Each round times, interleaved:
- python-chess: `chess.pgn.read_game` over the first N games (parse + SAN legality);
- ours: `validate(path, jobs=J)` with every report turned into its jsonl line (what
  `notation validate --format jsonl` does), for each J in --jobs.
Prints games/s (median of the rounds) and the ratios. python-chess is a benchmark-only
reference here, never a dependency of the package.

With ``--cli`` both contenders run as whole processes, as a user runs them: the command
``notation validate FILE --format jsonl --jobs J > /dev/null`` (start-up, grammar
loading and the command's own settings included) against ``python -c`` running the
python-chess ``read_game`` loop over the same file. ``--games 0`` uses the whole file.

``--core-only`` times the compiled core's own work per game and nothing else, in this process:
the file is cut into games first (``_core.game_end``, untimed), then each round calls
``_core.game_outline`` and ``_core.replay_game`` (outline, replay, claims, dead-position verdicts)
on every game without a FEN tag, then ``_core.report_lines`` (what ``validate`` asks of the core
now: those and the checks and the jsonl line, 256 of the reader's games a call); the best
round's CPU seconds give the core's games per second.

    python benchmarks/bench_validate.py /tmp/li5000.pgn --games 0 --core-only --rounds 5

``--pgn-extract`` adds ``/usr/games/pgn-extract -s -r FILE`` (its full check, no output) to
every round of ``--cli``; ``--lark-floor`` times, in this process, Lark alone parsing the
tokens the core cut for every game of the file with ``grammars/pgn.lark`` (the outline
builder's callbacks included, nothing else): the floor of a design where Lark parses every
game. Each process's CPU seconds (user + system) and peak RSS come from ``wait4``; the rounds
interleave the contenders, and the medians are printed with the ratios.

    python benchmarks/bench_validate.py FILE --cli --pgn-extract --lark-floor --games 0 --jobs 1
"""

from __future__ import annotations

import argparse
import gzip
import io
import itertools
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

DEFAULT = ROOT.parent / "shared" / "corpus" / "games" / "lichess" / "lichess-jishanshaikh4.pgn.gz"


def open_text(path: Path) -> io.TextIOBase:
    if path.name.endswith(".gz"):
        return io.TextIOWrapper(gzip.open(path), encoding="utf-8", errors="replace")  # type: ignore[return-value]
    return open(path, encoding="utf-8", errors="replace")  # type: ignore[return-value]


def python_chess(path: Path, games: int | None) -> tuple[int, float]:
    import chess.pgn

    started = time.perf_counter()
    count = 0
    with open_text(path) as handle:
        while games is None or count < games:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            count += 1
    return count, time.perf_counter() - started


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


_PARENT_CPU: dict[int, list[float]] = {}  # CPU seconds of this (the parent) process, by --jobs


def ours(path: Path, games: int | None, jobs: int) -> tuple[int, float, float]:
    from notation.validation.run import validate

    started = time.perf_counter()
    cpu = cpu_seconds()
    own = resource.getrusage(resource.RUSAGE_SELF)
    count = 0
    reports = validate(path, jobs=jobs)
    for report in itertools.islice(reports, games):
        json.dumps(report.to_dict(), ensure_ascii=False, separators=(",", ":"))
        count += 1
    reports.close()  # shuts the pool down, so its workers' CPU time is counted
    after = resource.getrusage(resource.RUSAGE_SELF)
    _PARENT_CPU.setdefault(jobs, []).append(after.ru_utime + after.ru_stime - own.ru_utime - own.ru_stime)
    return count, time.perf_counter() - started, cpu_seconds() - cpu


_PYTHON_CHESS_LOOP = """
import gzip, sys, chess.pgn
path = sys.argv[1]
handle = gzip.open(path, "rt", encoding="utf-8", errors="replace") if path.endswith(".gz") else open(path, encoding="utf-8", errors="replace")
count = 0
while chess.pgn.read_game(handle) is not None:
    count += 1
print(count)
"""


_PEAK_RSS: dict[str, list[int]] = {}  # peak RSS in KiB of each process, by contender


def _child(argv: list[str], label: str = "") -> tuple[str, float, float]:
    """Run ``argv``; (stdout, wall seconds, CPU seconds of the child and its children). The
    child's peak RSS (its own, from ``wait4``) is kept under ``label``."""
    import subprocess

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT.parent)
    assert child.stdout is not None
    out = child.stdout.read().decode("utf-8", "replace")
    _, _, usage = os.wait4(child.pid, 0)
    child.returncode = 0  # reaped here
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if label:
        _PEAK_RSS.setdefault(label, []).append(usage.ru_maxrss)
    return out, wall, cpu


PGN_EXTRACT = "/usr/games/pgn-extract"
_PGN_EXTRACT_CPU: list[float] = []


def pgn_extract_process(path: Path) -> float:
    """CPU seconds of ``pgn-extract -s -r`` (check every game, write nothing) over ``path``."""
    _, _, cpu = _child([PGN_EXTRACT, "-s", "-r", str(path)], "pgn-extract")
    _PGN_EXTRACT_CPU.append(cpu)
    return cpu


def lark_floor(path: Path) -> tuple[int, int, float]:
    """(games, games cut by the core, CPU seconds of Lark alone parsing their tokens): the
    outline parser fed the core's tokens, as :func:`notation.pgn.parser.parse_game_outline`
    does, with nothing else timed. Games the core does not cut are left out."""
    from lark import Token

    from notation import _core
    from notation.pgn.parser import _core_lexed_parser, _CoreTokens
    from notation.pgn.chunks import RawGame
    from notation.pgn.reader import split_games

    tokens = []
    games = 0
    for raw in split_games(path):
        if not isinstance(raw, RawGame) or raw.oversized:
            continue
        games += 1
        fields = _core.lex_game(raw.text)
        if fields is not None:
            tokens.append([Token(*field) for field in fields])
    parser, builder = _core_lexed_parser()
    cpu = time.process_time()
    for game in tokens:
        builder.reset(None, 1, 1, 0)
        _CoreTokens.tokens = game
        parser.parse("", on_error=builder.on_error)
    return games, len(tokens), time.process_time() - cpu


_REFERENCE_CPU: list[float] = []  # CPU seconds of each python-chess process (--cli)


def python_chess_process(path: Path) -> tuple[int, float]:
    out, wall, cpu = _child([sys.executable, "-c", _PYTHON_CHESS_LOOP, str(path)], "python-chess")
    _REFERENCE_CPU.append(cpu)
    return int(out.strip() or 0), wall


def ours_process(path: Path, jobs: int) -> tuple[int, float, float]:
    out, wall, cpu = _child(
        [sys.executable, "-m", "notation.cli.main", "validate", str(path), "--format", "jsonl", "--jobs", str(jobs)],
        f"jobs {jobs}",
    )
    return out.count("\n"), wall, cpu


def first_games(path: Path, count: int | None) -> Path:
    """A temporary plain-text copy of the first ``count`` games of ``path`` (all: None)."""
    import tempfile

    out = Path(tempfile.mkdtemp(prefix="bench_validate_")) / f"first{count}-{path.name.removesuffix('.gz')}"
    events = 0
    with open_text(path) as source, open(out, "w", encoding="utf-8") as target:
        for line in source:
            if line.startswith("[Event "):
                events += 1
                if count is not None and events > count:
                    break
            target.write(line)
    return out


def split_games(path: Path) -> list[tuple[str, int]]:
    """The games of ``path`` as ``(text, first line)``, cut where the reader cuts them."""
    from notation import _core

    data = path.read_bytes()
    out: list[tuple[str, int]] = []
    line = 1
    while data:
        end = _core.game_end(data) or len(data)
        chunk, data = data[:end], data[end:]
        text = chunk.decode("utf-8", errors="replace")
        out.append((text, line))
        line += chunk.count(b"\n")
    return out


_WINNERS = {"1-0": True, "0-1": False}


def core_only(path: Path, rounds: int) -> None:
    """Print the core's own games per second: ``game_outline`` + ``replay_game`` per game."""
    from notation import _core
    from notation.validation.dead import SEARCHES

    games = split_games(path)
    best = float("inf")
    taken = 0
    for _ in range(rounds):
        taken = 0
        started = time.process_time()
        for text, line in games:
            outline = _core.game_outline(text, line)
            if outline is None:
                continue
            tags, runs, _result = outline
            if "FEN" in tags:
                continue
            replayed = _core.replay_game(None, runs, 0, 1, None, False, _WINNERS.get(tags.get("Result", "")), SEARCHES)
            taken += isinstance(replayed, _core.CoreGame)
        best = min(best, time.process_time() - started)
    print(f"file: {path.name}, games: {len(games)}, replayed by the core: {taken}, rounds: {rounds}")
    print(f"core only (game_outline + replay_game): {len(games) / best:8.0f} games/s  ({best:.3f} CPU s, best round)")
    # what validate asks of the core now: the report lines, a batch of the reader's games a call
    from notation.pgn.chunks import RawGame
    from notation.pgn.reader import split_games as reader_split
    from notation.validation.core import core_start

    raws = [raw for raw in reader_split(path) if isinstance(raw, RawGame)]
    batches = [raws[at : at + 256] for at in range(0, len(raws), 256)]
    best, written = float("inf"), 0
    for _ in range(rounds):
        started = time.process_time()
        written = sum(
            line is not None
            for batch in batches
            for line in _core.report_lines(batch, path.name, 50, SEARCHES, core_start)
        )
        best = min(best, time.process_time() - started)
    print(
        f"core report lines (outline, replay, checks, the jsonl line): {len(raws) / best:8.0f} games/s"
        f"  ({written} of {len(raws)} written, {best:.3f} CPU s, best round)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--games", type=int, default=3000, help="first N games (0 = the whole file)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--cli", action="store_true", help="time whole processes: the command vs a python-chess script")
    parser.add_argument("--pgn-extract", action="store_true", help="with --cli: time pgn-extract -s -r in every round")
    parser.add_argument("--lark-floor", action="store_true", help="time Lark alone on the core's tokens of the file")
    parser.add_argument("--core-only", action="store_true", help="time the core's outline + replay per game alone")
    args = parser.parse_args()
    if args.core_only:
        if args.games:
            args.path = first_games(args.path, args.games)
        core_only(args.path, args.rounds)
        return
    games = None
    if args.games or args.pgn_extract or args.path.name.endswith(".gz"):
        # the first N games as a file of their own: every contender reads a whole file (with
        # a game limit, --jobs 2 would also check the batches already in flight past game N);
        # plain text, which pgn-extract needs
        args.path = first_games(args.path, args.games or None)
    if args.cli:
        run_reference = lambda: python_chess_process(args.path)  # noqa: E731
        run_ours = lambda jobs: ours_process(args.path, jobs)  # noqa: E731
    else:
        # warm-up: imports, grammar construction, caches
        ours(args.path, 50, 1)
        python_chess(args.path, 50)
        run_reference = lambda: python_chess(args.path, games)  # noqa: E731
        run_ours = lambda jobs: ours(args.path, games, jobs)  # noqa: E731
    reference: list[float] = []
    mine: dict[int, list[float]] = {j: [] for j in args.jobs}
    cpu: dict[int, list[float]] = {j: [] for j in args.jobs}
    counts: dict[str, int] = {}
    for _ in range(args.rounds):
        if args.cli and args.pgn_extract:
            pgn_extract_process(args.path)
        n, seconds = run_reference()
        reference.append(n / seconds)
        counts["python-chess"] = n
        for jobs in args.jobs:
            n, seconds, used = run_ours(jobs)
            mine[jobs].append(n / seconds)
            cpu[jobs].append(used)
            counts[f"jobs {jobs}"] = n
    ref = statistics.median(reference)
    load = os.getloadavg()[0]
    print(f"mode: {'whole processes (--cli)' if args.cli else 'in-process library calls'}")
    print(
        f"file: {args.path.name}, games per round: {counts}, rounds: {args.rounds}, "
        f"CPUs {os.cpu_count()}, load average {load:.1f}"
    )
    print(f"python-chess read_game: {ref:8.1f} games/s")
    for jobs, rates in mine.items():
        rate = statistics.median(rates)
        print(
            f"notation validate --jobs {jobs}: {rate:8.1f} games/s  ratio {rate / ref:5.2f}x python-chess"
            f"  (CPU {statistics.median(cpu[jobs]):.1f} s incl. workers)"
        )
    if args.cli and 1 in cpu:
        # CPU time is steadier than wall time when other jobs share the machine
        print(
            f"CPU seconds: python-chess {statistics.median(_REFERENCE_CPU):.1f}, --jobs 1 "
            f"{statistics.median(cpu[1]):.1f}: ratio {statistics.median(_REFERENCE_CPU) / statistics.median(cpu[1]):.2f}x"
        )
    for jobs, parent in _PARENT_CPU.items():
        if jobs > 1:
            # the parent reads, splits and sends; it must not be the slowest process
            each = (statistics.median(cpu[jobs]) - statistics.median(parent)) / jobs
            print(
                f"--jobs {jobs}: parent CPU {statistics.median(parent):.2f} s, each worker {each:.2f} s "
                f"(parent / worker {statistics.median(parent) / each:.2f})"
            )
    if args.cli and 1 in cpu and _PGN_EXTRACT_CPU:
        extract = statistics.median(_PGN_EXTRACT_CPU)
        print(
            f"CPU seconds: pgn-extract -s -r {extract:.2f}, --jobs 1 {statistics.median(cpu[1]):.2f}: "
            f"ours / pgn-extract {statistics.median(cpu[1]) / extract:.2f}x; python-chess / pgn-extract "
            f"{statistics.median(_REFERENCE_CPU) / extract:.1f}x"
        )
    if _PEAK_RSS:
        print(
            "peak RSS (MiB, median): "
            + ", ".join(f"{label} {statistics.median(values) / 1024:.0f}" for label, values in _PEAK_RSS.items())
        )
    if 1 in mine and 2 in mine:
        print(f"--jobs 2 speed-up over --jobs 1: {statistics.median(mine[2]) / statistics.median(mine[1]):.2f}x")
    if args.lark_floor:
        total, cut, floor = lark_floor(args.path)
        line = f"Lark alone on the core's tokens: {floor:.2f} s CPU for {cut} of {total} games"
        if args.cli and 1 in cpu:
            line += f" ({floor / statistics.median(cpu[1]):.0%} of --jobs 1's CPU)"
        print(line)


if __name__ == "__main__":
    main()
