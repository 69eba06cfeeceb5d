"""Benchmark: `notation filter` beside the equivalent `pgn-extract` run, as whole processes.

    python benchmarks/bench_verbs.py [PATH] [--rounds R] [--pgn-extract /usr/games/pgn-extract]

PATH (default: the Lichess corpus file) is decompressed once to a temporary plain file, since
pgn-extract reads plain PGN only; both programs read that file. Each round runs, interleaved
(the machine is shared: medians of short runs), under ``nice``:

- tags only: ``notation filter FILE --white NAME --out OUT`` vs ``pgn-extract -TwNAME -o OUT``;
- replay: ``notation filter FILE --fen FEN --out OUT`` vs ``pgn-extract -x VARS -o OUT`` (a
  positional variation: the games reaching the position after the listed moves).

Prints the median wall and CPU (user + system of the child) seconds of each, the games each wrote,
and the speed ratio pgn-extract / ours (1.0 = as fast; 0.5 = half as fast).
"""

from __future__ import annotations

import argparse
import gzip
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT.parent / "shared" / "corpus" / "games" / "lichess" / "lichess-jishanshaikh4.pgn.gz"
#: The moves whose final position --fen / -x look for (Italian Game after 3. Bc4).
MOVES = "e4 e5 Nf3 Nc6 Bc4"


def run(command: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(["nice", *command], check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def games_in(path: Path) -> int:
    with open(path, "rb") as handle:
        return sum(1 for line in handle if line.startswith(b"[Event "))


def fen_after(moves: str) -> str:
    from notation.formats.position import Position

    pos = Position.initial()
    for san in moves.split():
        pos = pos.play(pos.parse_san(san))
    return pos.fen()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--white", default="moro137", help="the --white name (tags-only case)")
    parser.add_argument("--pgn-extract", default="/usr/games/pgn-extract")
    args = parser.parse_args()
    notation = shutil.which("notation") or "notation"
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        plain = tmp / "input.pgn"
        opener = gzip.open if args.path.name.endswith(".gz") else open
        with opener(args.path, "rb") as src, open(plain, "wb") as dst:
            shutil.copyfileobj(src, dst)
        variations = tmp / "vars.txt"
        variations.write_text(MOVES + "\n", encoding="ascii")
        cases = {
            f"filter --white {args.white}": (
                [notation, "filter", str(plain), "--white", args.white, "--out", str(tmp / "ours-w.pgn")],
                [args.pgn_extract, f"-Tw{args.white}", "--quiet", "-s", "-o", str(tmp / "theirs-w.pgn"), str(plain)],
                ("ours-w.pgn", "theirs-w.pgn"),
            ),
            f"filter --fen (after {MOVES})": (
                [notation, "filter", str(plain), "--fen", fen_after(MOVES), "--out", str(tmp / "ours-f.pgn")],
                [args.pgn_extract, f"-x{variations}", "--quiet", "-s", "-o", str(tmp / "theirs-f.pgn"), str(plain)],
                ("ours-f.pgn", "theirs-f.pgn"),
            ),
        }
        print(f"input: {args.path} ({games_in(plain)} games), {args.rounds} interleaved rounds, nice")
        print(f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, cpus: {os.cpu_count()}")
        for name, (ours, theirs, outputs) in cases.items():
            times: dict[str, list[tuple[float, float]]] = {"ours": [], "pgn-extract": []}
            for _ in range(args.rounds):
                times["ours"].append(run(ours))
                times["pgn-extract"].append(run(theirs))
            wall = {k: statistics.median(t[0] for t in v) for k, v in times.items()}
            cpu = {k: statistics.median(t[1] for t in v) for k, v in times.items()}
            written = [games_in(tmp / o) for o in outputs]
            print(f"\n{name}")
            print(f"  ours        wall {wall['ours']:6.2f} s  cpu {cpu['ours']:6.2f} s  games written {written[0]}")
            print(
                f"  pgn-extract wall {wall['pgn-extract']:6.2f} s  cpu {cpu['pgn-extract']:6.2f} s  "
                f"games written {written[1]}"
            )
            print(
                f"  speed ours / pgn-extract: wall {wall['pgn-extract'] / wall['ours']:.2f}x, "
                f"cpu {cpu['pgn-extract'] / cpu['ours']:.2f}x"
            )


if __name__ == "__main__":
    main()
