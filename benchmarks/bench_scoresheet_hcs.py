"""Scoresheet reading on real handwritten sheets (the shared HCS corpus).

Each copy of a game with an answer is typed as a numbered move list (``?`` for a blank box).
Three sets are read:

* **alone**: each copy of a game whose two sheets were both collected, read by itself (the
  answer there is what both sheets support; a copy is judged as far as it goes);
* **together**: the copies of those games read together (``--same-game``);
* **single** (with ``--all``): the copies of games with one sheet (their answer is only the best
  legal explanation, not a verified record: informative, not a target).

For each: the share read exactly, the share of plies right, the sheets with a wrong move at
confidence 0.99 or more, the confident (exit 0) wrong readings, and CPU per sheet. With
``--review`` a simulated reviewer then finishes every sheet of the set: asked only about the
flagged moves (below 0.99), the first in game order each time, answering from the answer key
through a pin (``notation scoresheet --pin``), the sheet read again after each answer; printed:
the sheets it ends exact, the median questions a sheet and the share of all moves asked. With
``--calibration`` the reliability table of the per-move confidences; with ``--caps`` the table
:mod:`notation.scoresheet.calibration` is measured from (the copies read alone, the cap off: the
share right of the moves at a posterior of 0.99 or more, by how the ply's box read and how many
neighbours read unlike what they say).

With ``--folds K`` the figures are held out: the games with an answer (every copy of a game in
the same fold; ``--seed`` shuffles them) are cut into K folds, and each fold's sheets are read
with the channel costs learned (:func:`notation.scoresheet.learn.learn_costs`, as
``python -m notation.cli.build_sheet_costs`` learns the shipped table) from the other folds'
sheets alone; the reliability table is printed with them (with ``--caps``: the caps table of
the held-out copies read alone; ``--prior``: the learning's pull toward the channel's
defaults, :data:`notation.scoresheet.learn.PRIOR`). ``--tables DIR`` keeps each fold's learned table there (and
reads it back when it is there); ``--set NAME=VALUE`` overrides a figure of every table read
with (the shipped one too), for trying a figure out.

With ``--causes`` only the copies read alone that are not exact (or show a wrong move at 0.99 or
more), each with its first wrong move and its cause (:func:`cause_of`): a legal slip the copy
cannot reveal, a tie, a search failure or a model failure, by the answer's cost under the model
(with ``--folds``: held out).

    PYTHONPATH=. python benchmarks/bench_scoresheet_hcs.py [--corpus ../shared/corpus] [--games 001,002]
        [--jobs 2] [--only alone|together] [--review] [--calibration] [--caps] [--all] [--verbose]
        [--folds 4 [--seed 1] [--tables DIR] [--prior 200]] [--set temperature=1.2] [--causes]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "scoresheet"))

from hcs_support import HcsGame, load_hcs, score_reading  # noqa: E402

#: The most questions the simulated reviewer asks of one sheet (a loop that never settles).
MAX_QUESTIONS = 40


@dataclass
class Outcome:
    sans: list[str]
    status: str
    cpu: float
    per_move: list[float]
    questions: int = 0
    reviewed: list[str] | None = None
    review_status: str = ""


def _label(ply: int) -> str:
    return f"{(ply - 1) // 2 + 1}{'.' if ply % 2 == 1 else '...'}"


#: One sheet's read: its copies' texts, the answer, the boxes judged, whether to review, the cost
#: table to read with (None: the shipped one).
Task = tuple[list[str], tuple[str, ...], tuple[str, ...], bool, "dict[str, float] | None"]


def _read(task: Task) -> Outcome:
    from notation.scoresheet.reader import read_sheets

    texts, answer, boxes, review, costs = task
    start = time.process_time()
    rec = read_sheets(texts, costs=costs)
    cpu = time.process_time() - start
    out = Outcome(list(rec.sans), rec.status, cpu, [m.confidence for m in rec.per_move])
    if review:
        pins: list[str] = []
        asked: set[int] = set()
        while out.questions < MAX_QUESTIONS:
            flagged = [m for m in rec.flagged if m.ply not in asked]
            if not flagged:  # (as `notation scoresheet --review`: only the flagged moves are asked)
                break
            ply = flagged[0].ply
            asked.add(ply)
            out.questions += 1
            if ply > len(answer):
                break  # the answer has no such move: the reviewer cannot settle it
            pins.append(f"{_label(ply)}{answer[ply - 1]}")
            rec = read_sheets(texts, pins=pins, costs=costs)
        out.reviewed, out.review_status = list(rec.sans), rec.status
    return out


def _cap_rows(task: tuple[str, tuple[str, ...], dict[str, float] | None]) -> list[tuple[str, int, bool]]:
    """One copy read alone with the caps off: for each move at a posterior of 0.99 or more (as far
    as the copy and the answer go), how its box read, its doubtful neighbours, and whether it is
    right."""
    from notation.scoresheet import calibration
    from notation.scoresheet.channel import costs_in_force

    text, answer, costs = task
    for kind in calibration.CAPS:
        calibration.CAPS[kind] = (1.0, 1.0, 1.0, 1.0)
    with costs_in_force(costs):
        return _cap_rows_of(text, answer)


def _cap_rows_of(text: str, answer: tuple[str, ...]) -> list[tuple[str, int, bool]]:
    from notation.formats.position import Position
    from notation.scoresheet import calibration
    from notation.scoresheet.channel import cost
    from notation.scoresheet.decoder import read_copies
    from notation.scoresheet.layout import read_sheet
    from notation.scoresheet.reader import boxes_of
    from notation.scoresheet.sums import habit_only

    boxes = boxes_of(read_sheet(text))
    lattice = read_copies([boxes], Position.initial(), "en")
    best = lattice.readings[0]
    pos = Position.initial()
    read: list[tuple[str, int]] = []
    sans: list[str] = []
    for move, ops in zip(best.moves, best.ops):
        read.append(calibration.read_as(ops, cost("box.blank"), lambda op, p=pos, m=move: habit_only(op, p, m)))
        sans.append(pos.san(move))
        pos = pos.play(move)
    near = calibration.doubtful_neighbours(read)
    return [
        (read[k][0], min(near[k], 3), sans[k] == answer[k])
        for k in range(min(len(answer), len(boxes), len(sans)))
        if lattice.move_probability[k] >= 0.99
    ]


def caps_table(rows: list[tuple[str, int, bool]]) -> None:
    print(
        "moves at a posterior >= 0.99, copies read alone, caps off: share right (moves) by the box's reading "
        "and its doubtful neighbours (0, 1, 2, 3+)"
    )
    caps: dict[str, tuple[float, ...]] = {}
    for kind in ("written", "close", "corrected", "blank"):
        cells = []
        limits: list[float] = []
        for near in range(4):
            got = [ok for k, n, ok in rows if k == kind and n == near]
            cells.append(f"{sum(got)}/{len(got)} = {100 * sum(got) / len(got):5.1f}%" if got else "-")
            limits.append(min(cap_of(sum(got), len(got)) if got else 1.0, limits[-1] if limits else 1.0))
        caps[kind] = tuple(limits)
        print(f"  {kind:<10} " + "  ".join(f"{c:>18}" for c in cells))
    print("  the caps they give (calibration.CAPS):")
    for kind, limits in caps.items():
        print(f"    {kind!r}: ({', '.join(f'{c:g}' for c in limits)}),")


def cap_of(right: int, moves: int) -> float:
    """The cap a cell gives: its share right with one right and one wrong move more (so that a
    few moves, all right, do not make a certainty), rounded down to two places; 1.0 at 0.99 or
    more. A cell takes no more than its left neighbour's (fewer doubtful neighbours) nor, when
    empty, less."""
    share = (right + 1) / (moves + 2)
    return 1.0 if share >= 0.99 else math.floor(100 * share) / 100


@dataclass
class Cause:
    """The first wrong move of one copy read alone, and why (see :func:`cause_of`)."""

    game: str
    copy: int
    ply: int  # 1-based; 0: no wrong move
    box: str  # the copy's box at that ply ("" when the copy has none)
    read: str
    played: str
    confidence: float
    written_legal: bool  # the box names a legal move there, the one read
    reading_cost: float
    answer_cost: float
    reading_weight: float
    answer_weight: float
    exact: bool
    sure_wrong: bool  # a wrong move at 0.99 or more
    cls: str = ""


def _cause(task: tuple[str, int, str, tuple[str, ...], tuple[str, ...], dict[str, float] | None]) -> Cause | None:
    from notation.scoresheet.channel import costs_in_force

    game, copy, text, answer, boxes, costs = task
    with costs_in_force(costs):
        return cause_of(game, copy, text, answer, boxes)


def cause_of(game: str, copy: int, text: str, answer: tuple[str, ...], boxes: tuple[str, ...]) -> Cause | None:
    """Why a copy read alone is not exact (or shows a wrong move at 0.99 or more), as far as the
    copy goes: None when it is exact with no such move. The copy is read as the reader reads it,
    then read again playing only the answer's moves (every cost and prior alike: ``read_copies``'
    ``only``), which gives the answer's cost under the model. The first wrong move is

    * **(a) a legal slip** when the reading's box there is read as written (its cost under 1 nat)
      and the answer costs more than the reading: the copy writes another legal move and the rest
      of it goes on with it, which one copy cannot reveal;
    * **(t) a tie** when the answer costs the same as the reading (to a millionth of a nat): the
      copy tells them apart no way the model sees (e.g. ``b3`` written for ``h3`` at one ply and
      again at a later one where ``b3`` was played: which of the two boxes slipped, it cannot say);
    * **(b) a search failure** when the answer costs less than the reading: the beam lost it;
    * **(c) a model failure** otherwise: the model prefers the reading to the truth."""
    from notation.formats.position import Position
    from notation.scoresheet.decoder import read_copies
    from notation.scoresheet.lattice import MATCH
    from notation.scoresheet.layout import read_sheet
    from notation.scoresheet.reader import _read, boxes_of, read_sheets

    rec = read_sheets([text])
    sans = list(rec.sans)
    ok = score_reading(tuple(sans), answer, boxes)[0]
    limit = min(len(answer), len(boxes))
    wrong = [k for k in range(min(limit, len(sans))) if sans[k] != answer[k]]
    sure = any(rec.per_move[k].confidence >= 0.99 for k in wrong)
    if ok and not sure:
        return None
    k = wrong[0] if wrong else min(len(sans), limit)
    sheet = read_sheet(text)
    copies = [boxes_of(sheet)]
    start = Position.initial()
    language, lattice = _read(copies, [sheet], "auto", start, {})
    best = lattice.readings[0]
    moves = []
    pos = start
    for san in answer:
        move, pos = pos.play_san(san)
        moves.append(move)
    truth = read_copies(copies, start, language, only=moves)
    found = truth.readings[0] if truth.readings else None
    written_legal = False
    if k < len(best.ops):
        op = best.ops[k][0]
        written_legal = op.kind == MATCH and op.cost < 1.0
    return Cause(
        game,
        copy,
        k + 1,
        boxes[k] if k < len(boxes) else "",
        sans[k] if k < len(sans) else "(end)",
        answer[k] if k < len(answer) else "(end)",
        rec.per_move[k].confidence if k < len(rec.per_move) else math.nan,
        written_legal,
        best.cost,
        found.cost if found else math.inf,
        best.weight,
        found.weight if found else math.inf,
        ok,
        sure,
    )


def causes_table(causes: list[Cause]) -> None:
    """The first wrong move of each copy read alone that is not exact (or shows a wrong move at
    0.99 or more), by cause (see :func:`cause_of`)."""
    print(
        "  game/copy  ply  box          read       played     conf    as written  cost read  cost answer"
        "  (answer - read)  weight read  weight answer  cause"
    )
    for c in causes:
        if c.answer_cost < c.reading_cost - 1e-6:
            c.cls = "b search"
        elif c.answer_cost < c.reading_cost + 1e-6:
            c.cls = "t tie"
        elif c.written_legal:
            c.cls = "a legal slip"
        else:
            c.cls = "c model"
        flags = ("" if c.exact else "inexact") + (" wrong>=0.99" if c.sure_wrong else "")
        print(
            f"  {c.game}/{c.copy}  {c.ply:>4}  {c.box:<11}  {c.read:<9}  {c.played:<9}  {c.confidence:.4f}  "
            f"{'yes' if c.written_legal else 'no':<10}  {c.reading_cost:9.2f}  {c.answer_cost:11.2f}  "
            f"{c.answer_cost - c.reading_cost:+15.2f}  {c.reading_weight:11.2f}  {c.answer_weight:13.2f}  "
            f"{c.cls}  ({flags.strip()})"
        )
    inexact = [c for c in causes if not c.exact]
    sure = [c for c in causes if c.sure_wrong]
    for name, group in (("not exact", inexact), ("a wrong move at >= 0.99", sure)):
        counts = {k: sum(1 for c in group if c.cls.startswith(k)) for k in "atbc"}
        print(
            f"  {name}: {len(group)} copies; (a) legal slip {counts['a']}, (t) tie {counts['t']}, "
            f"(b) search failure {counts['b']}, (c) model failure {counts['c']}"
        )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--games", default="")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--review", action="store_true", help="finish every sheet with a simulated reviewer")
    parser.add_argument("--calibration", action="store_true", help="the reliability table of per-move confidence")
    parser.add_argument("--all", action="store_true", help="also the copies of single-copy games")
    parser.add_argument("--caps", action="store_true", help="only the table the confidence caps are measured from")
    parser.add_argument(
        "--causes", action="store_true", help="only the first wrong move of each inexact copy read alone, by cause"
    )
    parser.add_argument("--only", choices=("alone", "together"), help="one set only")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--folds", type=int, default=0, help="held-out figures: K folds by game")
    parser.add_argument("--seed", type=int, default=1, help="the shuffle of the games into folds")
    parser.add_argument("--tables", type=Path, help="a folder keeping each fold's learned cost table")
    parser.add_argument("--prior", type=float, help="the learning's pull toward the defaults (learn.PRIOR)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="override a cost")
    args = parser.parse_args()
    every = [g for g in load_hcs(Path(args.corpus) / "scoresheets" / "hcs") if g.answer]
    games = every
    if args.games:
        wanted = set(args.games.split(","))
        games = [g for g in games if g.game in wanted]
    both = [g for g in games if len(g.copies) > 1]
    overrides = {name: float(value) for name, _, value in (item.partition("=") for item in args.set)}
    table: dict[str, dict[str, float] | None] = {g.game: dict(overrides) if overrides else None for g in every}
    if args.folds:
        table = fold_tables(every, args, overrides)
        args.calibration = True
    if args.caps:
        with ProcessPoolExecutor(args.jobs) as pool:
            tasks = [(c.text(), g.answer or (), table[g.game]) for g in both for c in g.copies]
            caps_table([row for rows in pool.map(_cap_rows, tasks) for row in rows])
        return 0
    if args.causes:
        with ProcessPoolExecutor(args.jobs) as pool:
            jobs = [(g.game, c.copy, c.text(), g.answer or (), c.boxes, table[g.game]) for g in both for c in g.copies]
            found = [c for c in pool.map(_cause, jobs) if c is not None]
        print(f"copies read alone{f', held out ({args.folds} folds)' if args.folds else ''}: {len(jobs)}")
        causes_table(found)
        return 0
    sets: list[tuple[str, list[tuple[HcsGame, list[str], tuple[str, ...]]]]] = [
        ("alone (copies of two-copy games)", [(g, [c.text()], c.boxes) for g in both for c in g.copies]),
        (
            "together (--same-game)",
            [(g, [c.text() for c in g.copies], max((c.boxes for c in g.copies), key=len)) for g in both],
        ),
    ]
    if args.only:
        sets = [item for item in sets if item[0].startswith(args.only)]
    if args.all:
        sets.append(
            (
                "single-copy games (answer unverified)",
                [(g, [c.text()], c.boxes) for g in games if len(g.copies) == 1 for c in g.copies],
            )
        )
    with ProcessPoolExecutor(args.jobs) as pool:
        for title, items in sets:
            tasks: list[Task] = [
                (texts, g.answer or (), boxes, args.review, table[g.game]) for g, texts, boxes in items
            ]
            report(
                title + (f", held out ({args.folds} folds)" if args.folds else ""),
                items,
                list(pool.map(_read, tasks)),
                args,
            )
    return 0


def _learn(task: tuple[list[tuple[list[str], tuple[str, ...]]], Path | None, float | None]) -> dict[str, float]:
    from notation.scoresheet.learn import learn_costs

    sheets, path, prior = task
    if path is not None and path.exists():
        costs: dict[str, float] = json.loads(path.read_text(encoding="utf-8"))["costs"]
        return costs
    costs = learn_costs(sheets, prior=prior)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"sheets": len(sheets), "costs": dict(sorted(costs.items()))}, indent=1) + "\n")
    return costs


def fold_tables(
    games: list[HcsGame], args: argparse.Namespace, overrides: dict[str, float]
) -> dict[str, dict[str, float] | None]:
    """Each game's cost table: learned from the sheets of the games outside its fold (``games``
    shuffled by ``args.seed``, dealt into ``args.folds`` folds)."""
    names = sorted(g.game for g in games)
    random.Random(args.seed).shuffle(names)
    fold = {name: k % args.folds for k, name in enumerate(names)}
    tasks = []
    for k in range(args.folds):
        sheets = [(list(c.boxes), g.answer or ()) for g in games if fold[g.game] != k for c in g.copies]
        prior = "" if args.prior is None else f"-prior{args.prior:g}"
        path = args.tables / f"seed{args.seed}-fold{k}of{args.folds}{prior}.json" if args.tables else None
        tasks.append((sheets, path, args.prior))
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        learned = list(pool.map(_learn, tasks))
    print(
        f"{args.folds} folds (seed {args.seed}): games a fold "
        f"{[sum(1 for f in fold.values() if f == k) for k in range(args.folds)]}; tables learned in "
        f"{time.perf_counter() - start:.0f} s"
    )
    return {name: {**learned[fold[name]], **overrides} for name in names}


def report(
    title: str, items: list[tuple[HcsGame, list[str], tuple[str, ...]]], outs: list[Outcome], args: argparse.Namespace
) -> None:
    exact = plies = total = confident = confident_wrong = sure_wrong = 0
    calib: list[tuple[float, bool]] = []
    cpu_per_100: list[float] = []
    for (game, _, boxes), out in zip(items, outs):
        assert game.answer is not None
        ok, right, of = score_reading(tuple(out.sans), game.answer, boxes)
        exact += ok
        plies += right
        total += of
        cpu_per_100.append(100 * out.cpu / max(1, len(out.sans)))
        if out.status != "needs-human":
            confident += 1
            confident_wrong += not ok
        wrong_sure = [
            k
            for k, p in enumerate(out.per_move)
            if p >= 0.99 and k < len(game.answer) and out.sans[k] != game.answer[k] and k < len(boxes)
        ]
        sure_wrong += bool(wrong_sure)
        for k, p in enumerate(out.per_move):
            if k < min(len(game.answer), len(boxes)):
                calib.append((p, out.sans[k] == game.answer[k]))
        if args.verbose and (not ok or wrong_sure):
            k = next(
                (k for k, (a, b) in enumerate(zip(out.sans, game.answer)) if a != b),
                min(len(out.sans), len(game.answer)),
            )
            p = out.per_move[k] if k < len(out.per_move) else float("nan")
            print(
                f"  {game.game}: {out.status}, {right}/{of} plies, first difference at ply {k + 1} (p={p:.4f}): "
                f"read {out.sans[k : k + 3]} answer {list(game.answer[k : k + 3])}"
            )
    n = len(items)
    cpu = [o.cpu for o in outs]
    print(
        f"{title}: {n} sheets; exact {exact}/{n} = {100 * exact / max(n, 1):.1f}%; plies right "
        f"{plies}/{total} = {100 * plies / max(total, 1):.2f}%; sheets with a wrong move at >= 0.99: "
        f"{sure_wrong}; confident {confident}, confident and wrong {confident_wrong}; CPU per sheet median "
        f"{statistics.median(cpu) if cpu else 0:.2f} s, max {max(cpu, default=0):.2f} s; per 100 plies median "
        f"{statistics.median(cpu_per_100) if cpu_per_100 else 0:.2f} s"
    )
    if args.review:
        finished = sum(
            score_reading(tuple(o.reviewed or ()), g.answer or (), b)[0] for (g, _, b), o in zip(items, outs)
        )
        questions = [o.questions for o in outs]
        moves = sum(len(o.reviewed or ()) for o in outs)
        settled = sum(o.review_status != "needs-human" for o in outs)
        print(
            f"  reviewed: exact {finished}/{n}, confident {settled}/{n}; questions a sheet median "
            f"{statistics.median(questions) if n else 0:g}, "
            f"max {max(questions, default=0)}; moves asked {sum(questions)}/{moves} = "
            f"{100 * sum(questions) / max(moves, 1):.2f}%"
        )
        if args.verbose:
            for (g, _, b), o in zip(items, outs):
                if not score_reading(tuple(o.reviewed or ()), g.answer or (), b)[0]:
                    print(f"    {g.game}: not exact after {o.questions} question(s) ({o.review_status})")
    if args.calibration:
        print("  reliability of per-move confidence: confidence bin, moves, right")
        for lo, hi in ((0, 0.5), (0.5, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 0.99), (0.99, 0.999), (0.999, 1.01)):
            got = [ok for p, ok in calib if lo <= p < hi]
            if got:
                print(f"    [{lo:.3f}, {min(hi, 1):.3f}): {len(got):>5}, right {100 * sum(got) / len(got):.2f}%")


if __name__ == "__main__":
    raise SystemExit(main())
