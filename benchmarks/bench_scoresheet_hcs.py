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
        [--engine /usr/games/stockfish] [--engine-time 2] [--engine-grid 0:100,0.5:100,1:300]

``--engine-grid`` reads each sheet once, has the engine judge it once, and prints the figures
for each (weight, cap) of the engine's charge (how ``notation.scoresheet.engine.ENGINE_WEIGHT``
and ``LOSS_CAP`` were set), with how often the engine prefers the answer's move where the
reading is in doubt.
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


def _grid(task: tuple[list[str], tuple[str, ...], tuple[str, ...], str, float, list[tuple[float, int]]]
          ) -> tuple[list[tuple[bool, int, int, bool]], list[tuple[int, int, bool]]]:
    """One sheet (or copies) read once and judged once by the engine, then priced with each
    (weight, cap) of the grid (the lattice repriced, and the charges taken back after each): per
    setting (exact, plies right, plies counted, confident); and per ply in doubt whose moves
    judged hold the answer's (on the answer's line so far), the centipawns the move read and the
    answer's lose against the best judged there, and whether the move read is the answer's."""
    import notation.scoresheet.engine as judge
    from notation.engines.uci import UciEngine
    from notation.formats.position import Position
    from notation.scoresheet.copies import MAX_COST, READING_THRESHOLD, _read_copies
    from notation.scoresheet.layout import read_sheet
    from notation.scoresheet.reprice import reprice
    from notation.scoresheet.viterbi import Lattice

    texts, answer, boxes, engine, seconds, grid = task
    start = Position.initial()
    _, lattice, _ = _read_copies([read_sheet(t) for t in texts], "auto", start)
    if not lattice.readings:
        return [(False, 0, 0, False)] * len(grid), []
    before = Lattice(list(lattice.readings), list(lattice.move_probability), lattice.reading_probability,
                     lattice.states, lattice.z)
    points = judge.contested(lattice)
    with UciEngine(engine) as running:
        scores, _ = judge.evaluate(running, points, seconds)
    read = before.readings[0].moves
    losses: list[tuple[int, int, bool]] = []
    for point, score in zip(points, scores):
        if score is None or point.ply >= len(answer) or _sans(start, read[:point.ply]) != list(answer[:point.ply]):
            continue
        try:
            wanted = point.position.parse_san(answer[point.ply]).uci()
        except ValueError:
            continue
        if wanted in score:
            best = max(score.values())
            losses.append((best - score[read[point.ply].uci()], best - score[wanted], read[point.ply].uci() == wanted))
    out: list[tuple[bool, int, int, bool]] = []
    for weight, cap in grid:
        judge.ENGINE_WEIGHT, judge.LOSS_CAP = weight, cap
        charges = judge.engine_costs(points, scores)
        after = reprice(lattice, charges) if charges else lattice
        confidence, _, reordered = judge.guarded(before, after)
        found = after.readings[0]
        ok, right, of = score_reading(tuple(_sans(start, found.moves)), answer, boxes)
        out.append((ok, right, of, confidence >= READING_THRESHOLD and found.cost - found.prior <= MAX_COST
                    and not reordered))
        if charges:
            reprice(lattice, {key: ({m: -c for m, c in each.items()}, -other) for key, (each, other) in charges.items()})
    return out, losses


def _sans(start: object, moves: list) -> list[str]:
    from notation.scoresheet.model import _san_list

    return _san_list(start, moves)  # type: ignore[arg-type]


def grid_report(title: str, grid: list[tuple[float, int]], outs: list) -> None:
    n = len(outs)
    print(f"{title}: {n} sheets")
    decisive = [(r, a) for _, losses in outs for r, a, same in losses if not same]
    agree = [a for _, losses in outs for _, a, same in losses if same]
    print(f"  plies in doubt judged with the answer's move among them: {len(decisive) + len(agree)}; the answer's "
          f"move the engine's best of them at {sum(a == 0 for _, losses in outs for _, a, _ in losses)}; read "
          f"wrong at {len(decisive)}, of which the engine prefers the answer's move at "
          f"{sum(a < r for r, a in decisive)}, the move read at {sum(a > r for r, a in decisive)}")
    for k, (weight, cap) in enumerate(grid):
        rows = [results[k] for results, _ in outs]
        exact = sum(r[0] for r in rows)
        plies = sum(r[1] for r in rows)
        total = sum(r[2] for r in rows)
        confident = sum(r[3] for r in rows)
        wrong = sum(r[3] and not r[0] for r in rows)
        print(f"  weight {weight:g}, cap {cap}: exact {exact}/{n} = {100 * exact / max(n, 1):.1f}%; plies right "
              f"{plies}/{total} = {100 * plies / max(total, 1):.2f}%; confident {confident}, confident and wrong {wrong}")


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
    parser.add_argument("--engine-grid", default="", help="with --engine: weight:cap,... (e.g. 0:100,0.5:100,1:300): "
                        "each sheet judged once, then read with each setting of the engine's charge")
    args = parser.parse_args()
    games = [g for g in load_hcs(Path(args.corpus) / "scoresheets" / "hcs") if g.answer]
    if args.games:
        wanted = set(args.games.split(","))
        games = [g for g in games if g.game in wanted]
    singles = [(g, c) for g in games for c in g.copies]
    multi = [g for g in games if len(g.copies) > 1]
    if args.engine_grid and args.engine:
        grid = [(float(w), int(c)) for w, c in (item.split(":") for item in args.engine_grid.split(","))]
        with ProcessPoolExecutor(args.jobs) as pool:
            tasks = [([c.text()], g.answer, c.boxes, args.engine, args.engine_time, grid) for g, c in singles]
            grid_report("single sheets", grid, list(pool.map(_grid, tasks)))
            if not args.single:
                tasks = [([c.text() for c in g.copies], g.answer, max((c.boxes for c in g.copies), key=len),
                          args.engine, args.engine_time, grid) for g in multi]
                grid_report("copies together", grid, list(pool.map(_grid, tasks)))
        return 0
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
