"""Scoresheet reconstruction on real handwritten sheets (the shared HCS corpus).

Each copy of a game with an answer is typed as a numbered move list (``?`` for a blank box)
and read alone; the copies of a game with two or more are also read together (``same_game``).
Prints, for single sheets: the share read exactly (the reading is the answer as far as the copy
goes), the share of plies right, confident wrong readings (status not needs-human, yet not the
answer), the time per sheet; and the same for the copies read together. With ``--calibration``
also the calibration table of the per-move and whole-reading confidences. With ``--engine PATH``
a UCI engine judges the readings (``notation scoresheet --engine PATH --engine-time SECONDS``:
started and quit for each sheet); its CPU time per sheet is printed beside the reading's.

    python benchmarks/bench_scoresheet_hcs.py [--method channel|repair] [--corpus ../shared/corpus]
        [--games 001,002] [--jobs 2] [--calibration] [--verbose] [--single]
        [--engine /usr/games/stockfish] [--engine-time 2]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "scoresheet"))

from hcs_support import HcsGame, load_hcs, score_reading  # noqa: E402


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _read(task: tuple[str, list[str], str | None, float]
          ) -> tuple[list[str], str, float, list[float], float, float]:
    from notation.scoresheet.copies import reconstruct_copies
    from notation.scoresheet.engine import EngineSettings
    from notation.scoresheet.reconstruct import reconstruct

    method, texts, engine, seconds = task
    settings = EngineSettings(engine, seconds) if engine else None
    start, children = time.process_time(), _children_cpu()
    rec = (reconstruct(texts[0], method="repair") if method == "repair"
           else reconstruct_copies(texts, engine=settings))
    took = time.process_time() - start
    per_move = [m.confidence for m in rec.per_move]
    return list(rec.sans), rec.status, took, per_move, rec.reading_confidence or 0.0, _children_cpu() - children


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
    parser.add_argument("--single", action="store_true", help="only the single sheets (not the copies together)")
    parser.add_argument("--engine", default=None, help="a UCI engine judging the readings (e.g. /usr/games/stockfish)")
    parser.add_argument("--engine-time", type=float, default=2.0, help="the engine's seconds per sheet (default 2)")
    args = parser.parse_args()
    games = [g for g in load_hcs(Path(args.corpus) / "scoresheets" / "hcs") if g.answer]
    if args.games:
        wanted = set(args.games.split(","))
        games = [g for g in games if g.game in wanted]
    singles = [(g, c) for g in games for c in g.copies]
    multi = [g for g in games if len(g.copies) > 1]
    with ProcessPoolExecutor(args.jobs) as pool:
        single_out = list(pool.map(_read, [(args.method, [c.text()], args.engine, args.engine_time)
                                           for _, c in singles]))
        multi_out = (list(pool.map(_read, [("channel", [c.text() for c in g.copies], args.engine, args.engine_time)
                                           for g in multi]))
                     if args.method == "channel" and not args.single else [])
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
    engine_times = []
    for (game, boxes), (sans, status, took, per_move, reading_conf, engine_took) in zip(items, outs):
        engine_times.append(engine_took)
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
          f"{wrong_confident}; CPU per sheet median {sorted(times)[n // 2] if n else 0:.2f} s, max {max(times, default=0):.2f} s"
          + (f"; engine CPU per sheet median {sorted(engine_times)[n // 2]:.2f} s, max {max(engine_times):.2f} s"
             if args.engine and n else ""))
    if args.calibration:
        for name, pairs in (("per move", calib), ("whole reading", whole)):
            print(f"  calibration, {name}:")
            for lo, hi in ((0, .5), (.5, .8), (.8, .9), (.9, .95), (.95, .99), (.99, 1.01)):
                got = [ok for p, ok in pairs if lo <= p < hi]
                if got:
                    print(f"    [{lo:.2f}, {min(hi, 1):.2f}): {len(got)}, right {100 * sum(got) / len(got):.1f}%")


if __name__ == "__main__":
    raise SystemExit(main())
