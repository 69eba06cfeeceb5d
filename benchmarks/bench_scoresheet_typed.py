"""Clean typed scoresheets: real games typed without a slip, in every supported language,
notation and layout, read as a club or an arbiter would read them (``notation scoresheet``).

Each sheet must read as its game, confidently: status ``ok`` and no move below 0.99 (the
command's exit 0). Prints the share exact, the share confident, each failure (game, language,
notation, layout, the first flagged or wrong move with its confidence) and CPU per 100 plies.

    PYTHONPATH=. python benchmarks/bench_scoresheet_typed.py [--corpus ../shared/corpus] [--games 120]
        [--folder otb-pgnmentor] [--seed 7] [--jobs 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "scoresheet"))

from typed_support import games, typed_sheet, variants  # noqa: E402


def _read(task: tuple[list[str], str, str, str]) -> tuple[bool, bool, str, float, int]:
    from notation.scoresheet.reader import reconstruct

    sans, lang, notation, layout = task
    text = typed_sheet(sans, lang, notation, layout)
    start = time.process_time()
    rec = reconstruct(text)
    cpu = time.process_time() - start
    exact = list(rec.sans) == sans
    confident = rec.status == "ok" and not rec.flagged
    why = ""
    if not exact:
        k = next((i for i, (a, b) in enumerate(zip(rec.sans, sans)) if a != b), min(len(rec.sans), len(sans)))
        why = f"ply {k + 1}: read {rec.sans[k] if k < len(rec.sans) else '-'} for {sans[k] if k < len(sans) else '-'}"
    elif not confident:
        first = rec.flagged[0] if rec.flagged else None
        why = f"status {rec.status}" + (f"; ply {first.ply} {first.san} at {first.confidence:.4f}" if first else "")
    return exact, confident, why, cpu, len(sans)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--folder", default="otb-pgnmentor")
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    pool = games(args.games, args.corpus / "games" / args.folder)
    tasks = [(sans, *variant) for sans, variant in zip(pool, variants(len(pool), seed=args.seed))]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as executor:
            results = list(executor.map(_read, tasks))
    else:
        results = [_read(task) for task in tasks]
    exact = sum(r[0] for r in results)
    confident = sum(r[0] and r[1] for r in results)
    plies = sum(r[4] for r in results)
    cpu = sum(r[3] for r in results)
    print(f"{len(results)} clean typed sheets ({plies} plies) of {args.folder}, seed {args.seed}")
    print(f"  exact:               {exact} ({100 * exact / len(results):.1f}%)")
    print(f"  exact and confident: {confident} ({100 * confident / len(results):.1f}%)  <- exit 0 with the game")
    print(f"  CPU per 100 plies:   {100 * cpu / plies:.2f} s")
    for (sans, lang, notation, layout), (ok, sure, why, _, _) in zip(tasks, results):
        if not (ok and sure):
            print(f"  - {lang} {notation} {layout} ({len(sans)} plies): {why}")
    return 0 if confident == len(results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
