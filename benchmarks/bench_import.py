"""Import benchmark: `notation import` vs `notation validate` on the Lichess corpus file.

Measures, each in a fresh subprocess (so imports, grammar construction and peak memory count),
interleaved over several rounds (the median is reported):

* games/s of ``validate`` (every report consumed) and of ``import_files`` (Parquet dataset with
  games and moves) on the same slice of ``lichess-jishanshaikh4.pgn.gz``, and the ratio (the
  issue allows import to cost at most 25% more than validate);
* peak RSS (``VmHWM`` of the subprocess) of the import at 1x and 4x the input (4 distinct copies of the slice,
  each game made unique by an extra tag, so nothing is de-duplicated away);
* Parquet bytes per game (games, moves) and the share of ``position_key``, with the encodings
  tried for that column (performance-notes lesson 11): Polars default (zstd, dictionary),
  dictionary off, BYTE_STREAM_SPLIT, DELTA_BINARY_PACKED, and the column left out.

Usage::

    python benchmarks/bench_import.py [--games 3000] [--rounds 3] [--jobs 2]

``--games 0`` uses the whole file (37,221 games; slow). The slice is written to a temporary
directory, never into the project.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS_FILE = ROOT.parent / "shared" / "corpus" / "games" / "lichess" / "lichess-jishanshaikh4.pgn.gz"

# shared by the child scripts: imports and the peak RSS of the child process
PRELUDE = """
import json, resource, sys, time
def _peak_kb():
    # VmHWM: peak RSS of this process image (ru_maxrss would include the parent's, which
    # Linux carries across fork+exec)
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
"""

VALIDATE = (
    PRELUDE
    + """t = time.perf_counter()
from notation.validation.run import validate
n = sum(1 for _ in validate(sys.argv[1]))
u = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"games": n, "seconds": time.perf_counter() - t, "cpu": u.ru_utime + u.ru_stime,
                  "maxrss_kb": _peak_kb()}))
"""
)

IMPORT = (
    PRELUDE
    + """t = time.perf_counter()
from notation.tables.dataset import WriteOptions, import_files, run_local, run_processes
jobs = int(sys.argv[3])
s = import_files([sys.argv[1]], sys.argv[2], executor=run_processes(jobs) if jobs > 1 else run_local)
u = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"games": s.games_imported, "plies": s.plies, "seconds": time.perf_counter() - t,
                  "cpu": u.ru_utime + u.ru_stime,
                  "bytes": s.bytes_written,
                  "maxrss_kb": _peak_kb(),
                  "children_maxrss_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""
)


def run(code: str, *args: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def make_inputs(tmp: Path, games: int) -> tuple[Path, Path]:
    data = gzip.open(CORPUS_FILE).read()
    starts = [m.start() for m in re.finditer(rb"(?m)^\[Event ", data)]
    end = starts[games] if 0 < games < len(starts) else len(data)
    one = data[:end]
    x1 = tmp / "slice_1x.pgn"
    x1.write_bytes(one)
    x4 = tmp / "slice_4x.pgn"
    with x4.open("wb") as fh:
        for k in range(4):
            fh.write(re.sub(rb"(?m)^(\[Event [^\n]*\n)", rb'\1[Copy "%d"]\n' % k, one))
            fh.write(b"\n")
    return x1, x4


def parquet_sizes(dataset: Path) -> dict[str, int]:
    """Bytes of the moves table written with different encodings for position_key."""
    import polars as pl
    import pyarrow as pa
    import pyarrow.parquet as pq

    moves = pl.read_parquet(dataset / "moves")
    table = moves.to_arrow()
    out: dict[str, int] = {}
    tmp = dataset / "_encodings"
    tmp.mkdir(exist_ok=True)

    def size(name: str, writer: object) -> None:
        path = tmp / f"{name}.parquet"
        writer(path)  # type: ignore[operator]
        out[name] = path.stat().st_size

    size("polars zstd (as imported, one file)", lambda p: moves.write_parquet(p, compression="zstd"))
    size("without position_key", lambda p: moves.drop("position_key").write_parquet(p, compression="zstd"))
    size(
        "position_key all null (--no-position-key)",
        lambda p: moves.with_columns(pl.lit(None, dtype=pl.UInt64).alias("position_key")).write_parquet(
            p, compression="zstd"
        ),
    )
    size("zstd level 9", lambda p: moves.write_parquet(p, compression="zstd", compression_level=9))
    others = [c for c in table.column_names if c != "position_key"]
    size(
        "pyarrow zstd, key dictionary off",
        lambda p: pq.write_table(table, p, compression="zstd", use_dictionary=others),
    )
    size(
        "pyarrow zstd, key BYTE_STREAM_SPLIT",
        lambda p: pq.write_table(
            table, p, compression="zstd", use_dictionary=others, column_encoding={"position_key": "BYTE_STREAM_SPLIT"}
        ),
    )
    size(
        "pyarrow zstd, key DELTA_BINARY_PACKED",
        lambda p: pq.write_table(
            table, p, compression="zstd", use_dictionary=others, column_encoding={"position_key": "DELTA_BINARY_PACKED"}
        ),
    )
    key_only = pa.table({"position_key": table.column("position_key")})
    size("position_key column alone (zstd, dictionary)", lambda p: pq.write_table(key_only, p, compression="zstd"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="games of the Lichess file (0 = all)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=0, help="also time import --jobs N")
    parser.add_argument("--memory-only", action="store_true", help="only the 1x/4x memory runs")
    args = parser.parse_args()
    if not CORPUS_FILE.exists():
        sys.exit(f"corpus file missing: {CORPUS_FILE}")
    with tempfile.TemporaryDirectory(prefix="bench_import_") as tmpdir:
        tmp = Path(tmpdir)
        x1, x4 = make_inputs(tmp, args.games)
        validate_s: list[float] = []
        import_s: list[float] = []
        validate_cpu: list[float] = []
        import_cpu: list[float] = []
        jobs_s: list[float] = []
        last: dict[str, float] = {}
        for r in range(0 if args.memory_only else args.rounds):
            v = run(VALIDATE, str(x1))
            validate_s.append(v["seconds"])
            validate_cpu.append(v["cpu"])
            out = tmp / f"ds_{r}"
            last = run(IMPORT, str(x1), str(out), "1")
            import_s.append(last["seconds"])
            import_cpu.append(last["cpu"])
            if args.jobs > 1:
                j = run(IMPORT, str(x1), str(tmp / f"dsj_{r}"), str(args.jobs))
                jobs_s.append(j["seconds"])
            print(
                f"round {r + 1}: validate {v['seconds']:.2f}s (cpu {v['cpu']:.2f}s), "
                f"import {last['seconds']:.2f}s (cpu {last['cpu']:.2f}s)"
                + (f", import --jobs {args.jobs} {jobs_s[-1]:.2f}s" if jobs_s else ""),
                flush=True,
            )
        if args.memory_only:
            v = run(VALIDATE, str(x1))
            m1 = run(IMPORT, str(x1), str(tmp / "mem1"), "1")
            m4 = run(IMPORT, str(x4), str(tmp / "mem4"), "1")
            print(
                f"peak RSS: import 1x {m1['maxrss_kb'] / 1024:.0f} MiB ({int(m1['games'])} games), "
                f"4x {m4['maxrss_kb'] / 1024:.0f} MiB ({int(m4['games'])} games); "
                f"validate 1x {v['maxrss_kb'] / 1024:.0f} MiB"
            )
            return
        games = int(last["games"])
        v_med, i_med = statistics.median(validate_s), statistics.median(import_s)
        print(f"\ninput: {games} games, {int(last['plies'])} plies ({x1.stat().st_size / 1e6:.1f} MB PGN)")
        print(f"validate: {games / v_med:.0f} games/s (median {v_med:.2f}s of {args.rounds})")
        print(
            f"import:   {games / i_med:.0f} games/s (median {i_med:.2f}s); "
            f"import/validate time ratio {i_med / v_med:.3f} (limit 1.25)"
        )
        vc, ic = statistics.median(validate_cpu), statistics.median(import_cpu)
        print(
            f"CPU time (whole process, less sensitive to a busy machine): validate {vc:.2f}s, "
            f"import {ic:.2f}s, ratio {ic / vc:.3f}"
        )
        if jobs_s:
            j_med = statistics.median(jobs_s)
            print(
                f"import --jobs {args.jobs}: {games / j_med:.0f} games/s (median {j_med:.2f}s), "
                f"speed-up {i_med / j_med:.2f}x"
            )
        m1 = run(IMPORT, str(x1), str(tmp / "mem1"), "1")
        m4 = run(IMPORT, str(x4), str(tmp / "mem4"), "1")
        print(
            f"peak RSS: 1x {m1['maxrss_kb'] / 1024:.0f} MiB ({int(m1['games'])} games), "
            f"4x {m4['maxrss_kb'] / 1024:.0f} MiB ({int(m4['games'])} games); "
            f"validate 1x {v['maxrss_kb'] / 1024:.0f} MiB"
        )
        ds = tmp / "mem1"
        games_bytes = sum(p.stat().st_size for p in (ds / "games").glob("part-*.parquet"))
        moves_bytes = sum(p.stat().st_size for p in (ds / "moves").glob("part-*.parquet"))
        print(
            f"parquet: games {games_bytes / games:.0f} B/game, moves {moves_bytes / games:.0f} B/game, "
            f"total {(games_bytes + moves_bytes) / games:.0f} B/game "
            f"(PGN {x1.stat().st_size / games:.0f} B/game)"
        )
        sizes = parquet_sizes(ds)
        base = sizes["polars zstd (as imported, one file)"]
        for name, value in sizes.items():
            print(f"  moves {name}: {value / 1e6:.2f} MB ({value / base:.0%})")


if __name__ == "__main__":
    main()
