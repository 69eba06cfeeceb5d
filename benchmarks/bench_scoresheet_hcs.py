"""Scoresheet reconstruction on real handwritten sheets (the shared HCS corpus).

Each copy of a game with an answer is typed as a numbered move list (``?`` for a blank box)
and read alone; the copies of a game with two or more are also read together (``same_game``).
Prints, for single sheets: the share read exactly (the reading is the answer as far as the copy
goes), the share of plies right, confident wrong readings (status not needs-human, yet not the
answer), the time per sheet; and the same for the copies read together. With ``--calibration``
also the calibration table of the per-move and whole-reading confidences.

    python benchmarks/bench_scoresheet_hcs.py [--method channel|repair] [--corpus ../shared/corpus]
        [--games 001,002] [--jobs 2] [--calibration] [--verbose]
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "scoresheet"))

from hcs_support import HcsGame, load_hcs, score_reading  # noqa: E402


def _read(task: tuple[str, list[str]]) -> tuple[list[str], str, float, list[float], float]:
    from notation.scoresheet.copies import reconstruct_copies
    from notation.scoresheet.reconstruct import reconstruct

    method, texts = task
    start = time.process_time()
    rec = reconstruct(texts[0], method="repair") if method == "repair" else reconstruct_copies(texts)
    took = time.process_time() - start
    per_move = [m.confidence for m in rec.per_move]
    return list(rec.sans), rec.status, took, per_move, rec.reading_confidence or 0.0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=str(Path(__file__).resolve().parents[2] / "shared" / "corpus"))
    parser.add_argument("--games", default="")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--calibration", action="store_true")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--method", choices=("channel", "repair"), default="channel",
                        help="channel: the default reading (also the copies together); repair: the "
                             "least-cost repair search (notation scoresheet --method repair)")
    args = parser.parse_args()
    games = [g for g in load_hcs(Path(args.corpus) / "scoresheets" / "hcs") if g.answer]
    if args.games:
        wanted = set(args.games.split(","))
        games = [g for g in games if g.game in wanted]
    singles = [(g, c) for g in games for c in g.copies]
    multi = [g for g in games if len(g.copies) > 1]
    with ProcessPoolExecutor(args.jobs) as pool:
        single_out = list(pool.map(_read, [(args.method, [c.text()]) for _, c in singles]))
        multi_out = (list(pool.map(_read, [("channel", [c.text() for c in g.copies]) for g in multi]))
                     if args.method == "channel" else [])
    report(f"single sheets ({args.method})", [(g, c.boxes) for g, c in singles], single_out, args)
    if multi_out:
        report("copies together (--same-game)", [(g, max((c.boxes for c in g.copies), key=len)) for g in multi],
               multi_out, args)
    return 0


def report(title: str, items: list[tuple[HcsGame, tuple[str, ...]]], outs: list, args: argparse.Namespace) -> None:
    exact = plies = total = wrong_confident = confident = 0
    times = []
    calib: list[tuple[float, bool]] = []
    whole: list[tuple[float, bool]] = []
    for (game, boxes), (sans, status, took, per_move, reading_conf) in zip(items, outs):
        assert game.answer is not None
        ok, right, of = score_reading(tuple(sans), game.answer, boxes)
        exact += ok
        plies += right
        total += of
        times.append(took)
        if status != "needs-human":
            confident += 1
            wrong_confident += not ok
        whole.append((reading_conf, ok))
        for k, p in enumerate(per_move):
            calib.append((p, k < len(game.answer) and sans[k] == game.answer[k]))
        if args.verbose and not ok:
            k = next((k for k, (a, b) in enumerate(zip(sans, game.answer)) if a != b), min(len(sans), len(game.answer)))
            print(f"  {game.game}: {status}, {right}/{of} plies, first difference at ply {k + 1}: "
                  f"read {sans[k:k + 3]} answer {list(game.answer[k:k + 3])}")
    n = len(items)
    print(f"{title}: {n} sheets; exact {exact}/{n} = {100 * exact / max(n, 1):.1f}%; plies right "
          f"{plies}/{total} = {100 * plies / max(total, 1):.2f}%; confident {confident}, confident and wrong "
          f"{wrong_confident}; CPU per sheet median {sorted(times)[n // 2] if n else 0:.2f} s, max {max(times, default=0):.2f} s")
    if args.calibration:
        for name, pairs in (("per move", calib), ("whole reading", whole)):
            print(f"  calibration, {name}:")
            for lo, hi in ((0, .5), (.5, .8), (.8, .9), (.9, .95), (.95, .99), (.99, 1.01)):
                got = [ok for p, ok in pairs if lo <= p < hi]
                if got:
                    print(f"    [{lo:.2f}, {min(hi, 1):.2f}): {len(got)}, right {100 * sum(got) / len(got):.1f}%")


if __name__ == "__main__":
    raise SystemExit(main())
